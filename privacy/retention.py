"""A club's retention period for former members, applied (`manage.py privacy_retention`).

A club chooses how many months it keeps a former member's data
(`Club.former_member_retention_months`; empty: until the person asks). A person is erased
(`privacy.erasure.player_erase`, results kept) once

- they are a member of no club at all (a person still in any club is never erased), and
- every club that holds their data has a retention period, and it has passed since the
  person was last there:
  - a club they left: since they left it (their membership removed,
    `clubs.services.membership_delete`, kept in the history as `membership.remove`);
  - a federation whose ranking has their results (a person a results file made, who has no
    membership anywhere, or anyone's ranked results): since their latest ranked game;
  - the organiser of an event they were entered in (a person a director entered by
    federation number, made by the entry): since the event (its date; without one, the
    entry).

A person held by no club on record (a guest entered in a club's competition without
membership, or one removed before the history kept it) is never erased by this: only at
their own request.

The failed-login counts (`clubs.Throttle`, which name a username) are deleted here too once
a quiet day has made them forget (`clubs.throttle.FORGET_AFTER`), so the privacy page's
"erased after a quiet day" holds.

Django: a service, run daily by cron (docs/deployment.md).
"""

from __future__ import annotations

import calendar
from datetime import date, datetime, time

from django.db import transaction
from django.db.models import Max, Q
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from clubs.history import HistoryAction, HistoryReason
from clubs.locks import row_lock
from clubs.models import Club, HistoryEntry, Membership, Player, Throttle
from clubs.throttle import FORGET_AFTER
from events.models import Entry
from privacy.erasure import ErasureError, player_erase
from ranking.models import RankedResult


def months_after(moment: datetime, months: int) -> datetime:
    """The same day `months` later (the month's last day when it is shorter).

    >>> from datetime import date, datetime, time
    >>> months_after(datetime(2026, 1, 31), 1), months_after(datetime(2026, 11, 15), 3)
    (datetime.datetime(2026, 2, 28, 0, 0), datetime.datetime(2027, 2, 15, 0, 0))
    """
    month = moment.month - 1 + months
    year, month = moment.year + month // 12, month % 12 + 1
    return moment.replace(
        year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1])
    )


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def players_past_retention(*, now: datetime) -> list[Player]:
    """The persons in no club whose every club holding their data has kept them past its
    period (five queries)."""
    former = Player.objects.filter(erased_at__isnull=True, memberships__isnull=True)
    held: dict[int, dict[int, datetime]] = {}

    def hold(player_id: int, club_id: int, since: datetime) -> None:
        clubs = held.setdefault(player_id, {})
        clubs[club_id] = max(since, clubs.get(club_id, since))

    left = (
        HistoryEntry.objects.filter(
            action=HistoryAction.MEMBERSHIP_REMOVE,
            object_type="player",
            object_id__in=former.values("pk"),
        )
        .order_by()
        .values_list("object_id", "club_id")
        .annotate(left_at=Max("at"))
    )
    for player_id, club_id, left_at in left:
        hold(player_id, club_id, left_at)
    ranked = (
        RankedResult.objects.filter(player__in=former.values("pk"))
        .order_by()
        .values_list("player_id", "game__event__season__federation_id")
        .annotate(last=Max("game__date"))
    )
    for player_id, club_id, last in ranked:
        hold(player_id, club_id, _day_start(last))
    entered = (
        Entry.objects.filter(player__in=former.values("pk"))
        .order_by()
        .values_list("player_id", "event__organiser_id")
        .annotate(last=Max(Coalesce("event__date", TruncDate("created_at"))))
    )
    for player_id, club_id, last in entered:
        hold(player_id, club_id, _day_start(last))
    months = dict(
        Club.objects.filter(pk__in={c for clubs in held.values() for c in clubs}).values_list(
            "pk", "former_member_retention_months"
        )
    )

    def passed(club_id: int, since: datetime) -> bool:
        kept = months.get(club_id)
        return kept is not None and months_after(since, kept) <= now

    due = [
        player_id
        for player_id, clubs in held.items()
        if all(passed(club_id, since) for club_id, since in clubs.items())
    ]
    return list(Player.objects.filter(pk__in=due, memberships__isnull=True).order_by("pk"))


def retention_apply(*, now: datetime | None = None, dry_run: bool = False) -> list[int]:
    """Erase every former member past retention; the ids of those erased (or due, with
    `dry_run`). Each erasure is its own transaction: one refused leaves the others done."""
    now = now or timezone.now()
    due = players_past_retention(now=now)
    if dry_run:
        return [player.pk for player in due]
    erased = []
    for player in due:
        try:
            with transaction.atomic():
                # Looked at again under the player's lock: rejoined a club meanwhile, or
                # erased by another server's run, is no erasure now.
                row_lock(Player.objects.filter(pk=player.pk)).get()
                if Membership.objects.filter(player=player).exists():
                    continue
                player_erase(
                    player=player, by=None, reason_code=HistoryReason.ERASE_RETENTION, now=now
                )
        except ErasureError:
            continue
        erased.append(player.pk)
    Throttle.objects.filter(
        Q(locked_until__isnull=True) | Q(locked_until__lt=now),
        last_failure_at__lt=now - FORGET_AFTER,
    ).delete()
    return erased
