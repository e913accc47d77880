"""What is due at a time of day, asked with the moment passed in (`now`), so a test needs
no clock: the day before an event, entries of an event closing within a day, and results
still missing once a club evening has ended.

Each is looked for every quarter of an hour (`notifications.tasks.notifications_due`) over
a window longer than that, and queued under a key of the person, kind and occasion
(`notification_once`): however often it is looked for, each occasion is sent once, and a
worker that was away a while still finds it within its window.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time, timedelta

from django.db.models import Exists, OuterRef
from django.utils import timezone

from clubs.calendars import evening_times
from clubs.models import Club, Membership
from competition.models import Round
from events.models import Entry, Event
from games.models import Game, Outcome
from notifications.kinds import Kind
from notifications.selectors import managers_of
from notifications.services import notifications_queue

#: The day before an event, its reminder leaves from this hour (the club's time) on.
DAY_BEFORE_FROM = time(12, 0)
#: Entries closing: the directors and secretaries are told from a day before.
CLOSING_AHEAD = timedelta(days=1)
#: Results missing: looked for from the evening's end for this long.
MISSING_WINDOW = timedelta(hours=12)


def events_tomorrow(*, now: datetime) -> int:
    """From noon the day before an event, each entered person with an account."""
    local = timezone.localtime(now)
    if local.time() < DAY_BEFORE_FROM:
        return 0
    tomorrow = local.date() + timedelta(days=1)
    queued = 0
    for event in Event.objects.filter(date=tomorrow):
        users = Entry.objects.filter(event=event, player__user__isnull=False).values_list(
            "player__user_id", flat=True
        )
        queued += _about_event(Kind.EVENT_TOMORROW, event, tomorrow.isoformat(), users)
    return queued


def entries_closing(*, now: datetime) -> int:
    """A day before an event's entries close: its directors and the organiser's
    secretaries, and, when clubs enter their members, every club's secretaries."""
    queued = 0
    closing = Event.objects.filter(
        entry_closes_at__gt=now, entry_closes_at__lte=now + CLOSING_AHEAD
    )
    for event in closing:
        users = managers_of(club_id=event.organiser_id, event_id=event.pk)
        if event.entry_by_clubs:
            users |= set(
                Membership.objects.filter(
                    role=Membership.Role.SECRETARY,
                    club__in=Club.objects.filter(is_federation=False),
                    player__user__isnull=False,
                ).values_list("player__user_id", flat=True)
            )
        closes = event.entry_closes_at
        assert closes is not None  # filtered on
        queued += _about_event(
            Kind.ENTRIES_CLOSING, event, f"closes:{int(closes.timestamp())}", users
        )
    return queued


def _about_event(kind: Kind, event: Event, occasion: str, users: Iterable[int]) -> int:
    """Queue `kind` about `event` for `users`, once per person and `occasion`."""
    return len(
        notifications_queue(
            kind=kind,
            object_key=f"event:{event.pk}:{occasion}",
            club_id=event.organiser_id,
            recipients={user_id: {"event_id": event.pk} for user_id in users},
        )
    )


def results_missing(*, now: datetime) -> int:
    """Once a club evening has ended (its competition's `evening_end` on a published
    round's date), and for `MISSING_WINDOW` after: the competition's managers, when a game
    of that evening has no result yet."""
    today = timezone.localtime(now).date()
    pending = Game.objects.filter(round=OuterRef("pk"), outcome=Outcome.PENDING)
    rounds = (
        Round.objects.filter(
            status=Round.Status.PUBLISHED,
            date__in=[today - timedelta(days=1), today],
            competition__archived_at__isnull=True,
        )
        .filter(Exists(pending))
        .select_related("competition")
    )
    evenings = {(r.competition, r.date) for r in rounds if r.date is not None}
    queued = 0
    for competition, day in evenings:
        _begins, ends = evening_times(day, competition.evening_start, competition.evening_end)
        if not ends <= now < ends + MISSING_WINDOW:
            continue
        queued += len(
            notifications_queue(
                kind=Kind.RESULTS_MISSING,
                object_key=f"competition:{competition.pk}:{day.isoformat()}",
                club_id=competition.club_id,
                recipients={
                    user_id: {"competition_id": competition.pk, "date": day.isoformat()}
                    for user_id in managers_of(
                        club_id=competition.club_id, event_id=competition.event_id
                    )
                },
            )
        )
    return queued


def due_queue(*, now: datetime) -> int:
    """Everything due at `now`; the number of notifications queued."""
    return events_tomorrow(now=now) + entries_closing(now=now) + results_missing(now=now)
