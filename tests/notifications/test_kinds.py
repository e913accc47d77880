"""The kinds beyond the pairing and the result to confirm, each through its own task or
due look, with the smallest data it needs; the mail is rendered and sent for real (Django's
test outbox), by the send task run in place of the worker (tests/notifications/test_worker.py
runs the worker itself)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from django.core import mail
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Membership
from duplicate.models import DuplicateCompetition, Evening, Participant, Slip, Turn
from duplicate.signals import game_complete
from events.divisions import Division, division_kind
from events.models import Event
from events.services import entry_create
from games.models import Confirmation
from notifications.due import due_queue
from notifications.kinds import Kind
from notifications.models import Notification
from notifications.services import subscription_end, subscriptions_set
from notifications.tasks import (
    due_schedule_ensure,
    notification_send,
    notifications_due,
    result_awaits_notify,
    round_published_notify,
)
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    UserFactory,
    secretary_of,
    user_in_club,
)

pytestmark = pytest.mark.django_db

DAY = date(2026, 9, 14)
#: An event's mail checks that it is not over yet, on the real clock.
AHEAD = timezone.localdate() + timedelta(days=30)


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=timezone.get_default_timezone())


def wants(user, *kinds: str) -> None:
    subscriptions_set(user_id=user.pk, kinds=kinds, language="nl")


def deliver() -> list:
    """What the worker would do with the queued notifications: send each."""
    for pk in Notification.objects.filter(status="queued").values_list("pk", flat=True):
        notification_send.call(pk)
    return mail.outbox


def test_the_pairing_mail_gives_the_planned_evening_s_time_and_no_time_otherwise():
    competition = CompetitionFactory(
        evening_dates=[DAY.isoformat()], evening_start=time(20, 0), name="Najaar"
    )
    user = UserFactory()
    wants(user, Kind.PAIRING_PUBLISHED)
    player = PlayerFactory(user=user)
    for day in (DAY, DAY + timedelta(days=1)):  # planned; not planned
        GameFactory(round=RoundFactory(competition=competition, date=day), player_a=player)
    for round in competition.rounds.all():
        round_published_notify.call(round.pk)
    planned, unplanned = (mail.body for mail in sorted(deliver(), key=lambda m: m.subject))
    assert "Tijd: 20:00" in planned
    assert "Tijd" not in unplanned


@pytest.fixture
def evening(club):
    """A duplicate evening of one turn (top 500): Anna 500, Bert 400, each with an account
    that wants the result."""
    competition = DuplicateCompetition.objects.create(club=club, name="Duplicate", slug="dup")
    evening = Evening.objects.create(competition=competition, number=1, date=DAY)
    turn = Turn.objects.create(
        evening=evening, number=1, drawn="AEINRST", rack="AEINRST", top="H8 A", top_score=500
    )
    for name, score in (("anna", 500), ("bert", 400)):
        user = UserFactory(username=name)
        wants(user, Kind.DUPLICATE_RESULT)
        player = PlayerFactory(name=name.capitalize(), user=user)
        Participant.objects.create(competition=competition, player=player)
        Slip.objects.create(turn=turn, player=player, text="H8 A", score=score)
    return evening


def test_a_duplicate_evening_s_result_and_place_once_per_evening(
    evening, settings, django_capture_on_commit_callbacks
):
    from notifications.tasks import evening_complete_notify

    settings.MAIL_CONFIGURED = True
    with django_capture_on_commit_callbacks(execute=True):
        game_complete.send(sender=Evening, evening=evening)
    assert DBTaskResult.objects.get().task_path == evening_complete_notify.module_path
    evening_complete_notify.call(evening.pk)
    evening_complete_notify.call(evening.pk)  # corrected later: no second mail
    bert = next(m for m in deliver() if m.to == ["bert@example.org"])
    assert len(mail.outbox) == 2
    assert "je plaats 2" in bert.subject
    # 400 of the top's 500: 80.0%.
    assert "Plaats: 2 / 2" in bert.body and "80,0%" in bert.body


def test_an_entry_is_confirmed_to_the_person_entered(
    club, settings, django_capture_on_commit_callbacks
):
    from notifications.tasks import entry_made_notify

    settings.MAIL_CONFIGURED = True
    event = Event.objects.create(organiser=club, name="Gouds Open", slug="open", date=DAY)
    division = DuplicateCompetition.objects.create(
        club=club, name="Open duplicate", slug="open-dup", event=event
    )
    player_user = user_in_club(club, username="cor")
    wants(player_user, Kind.ENTRY_CONFIRMED)
    with django_capture_on_commit_callbacks(execute=True):
        entry = entry_create(
            event=event,
            player=player_user.player,
            club=club,
            divisions=[Division(division_kind("duplicate"), division)],
            by=player_user,
        )
    assert DBTaskResult.objects.get().task_path == entry_made_notify.module_path
    entry_made_notify.call(entry.pk)
    (sent,) = deliver()
    assert "Gouds Open: je inschrijving is bevestigd" in sent.subject
    assert "Open duplicate" in sent.body and club.name in sent.body


def test_the_day_before_an_event_from_noon_once(club):
    event = Event.objects.create(organiser=club, name="Gouds Open", slug="open", date=AHEAD)
    user = UserFactory()
    wants(user, Kind.EVENT_TOMORROW)
    event.entries.create(player=PlayerFactory(user=user))
    eve = AHEAD - timedelta(days=1)
    assert due_queue(now=at(eve, 11, 59)) == 0
    assert due_queue(now=at(eve, 12, 0)) == 1
    assert due_queue(now=at(eve, 18, 0)) == 0  # looked for again: sent once
    assert due_queue(now=at(AHEAD, 12, 0)) == 0  # the day itself: nothing
    (sent,) = deliver()
    assert sent.subject == "Morgen: Gouds Open"


def test_entries_closing_reach_the_directors_and_the_clubs_secretaries_once(club):
    other = ClubFactory()
    director, organiser_secretary, other_secretary = (
        UserFactory(),
        secretary_of(club),
        secretary_of(other),
    )
    member = user_in_club(club)
    for user in (director, organiser_secretary, other_secretary, member):
        wants(user, Kind.ENTRIES_CLOSING)
    closes = at(AHEAD, 20)
    event = Event.objects.create(organiser=club, name="Open", slug="open", entry_closes_at=closes)
    event.directors.add(director)
    assert due_queue(now=closes - timedelta(hours=25)) == 0
    assert due_queue(now=closes - timedelta(hours=20)) == 3  # not the member
    assert due_queue(now=closes - timedelta(hours=19)) == 0
    event.entry_by_clubs = False
    event.entry_closes_at = closes + timedelta(days=2)  # moved: a new occasion
    event.save()
    assert due_queue(now=closes + timedelta(days=1, hours=4)) == 2  # the organiser's own
    assert "Open: inschrijving sluit binnenkort" in deliver()[0].subject


def test_results_missing_at_the_evening_s_end_reach_its_secretary_once(club):
    secretary = secretary_of(club)
    wants(secretary, Kind.RESULTS_MISSING)
    competition = CompetitionFactory(club=club, evening_end=time(23, 0))
    round = RoundFactory(competition=competition, date=DAY)
    GameFactory(round=round, played=True)
    missing = GameFactory(round=round)
    assert due_queue(now=at(DAY, 22, 45)) == 0  # still playing
    assert due_queue(now=at(DAY, 23, 15)) == 1
    assert due_queue(now=at(DAY, 23, 30)) == 0
    (sent,) = deliver()
    assert "1 uitslag ontbreekt" in sent.subject and "Ronden: 1" in sent.body
    # Entered before a second look at another evening: the mail would say nothing.
    other = RoundFactory(competition=competition, date=DAY + timedelta(days=7))
    GameFactory(round=other)
    due_queue(now=at(DAY + timedelta(days=7), 23, 15))
    other.games.update(outcome="normal")
    missing.refresh_from_db()
    deliver()
    last = Notification.objects.latest("pk")
    assert (last.status, last.reason) == ("skipped", "gone")


def test_a_disputed_result_reaches_the_secretary_to_decide(club):
    secretary = secretary_of(club)
    wants(secretary, Kind.DISPUTE_TO_DECIDE)
    game = GameFactory(
        round__competition__club=club,
        score_a=300,
        score_b=250,
        outcome="normal",
        confirmation=Confirmation.DISPUTED,
        claimed_by="a",
    )
    result_awaits_notify.call(game.pk, Confirmation.DISPUTED)
    result_awaits_notify.call(game.pk, Confirmation.DISPUTED)
    (sent,) = deliver()
    assert sent.to == [secretary.email] and "betwiste uitslag" in sent.subject
    assert "300" in sent.body


def test_a_person_s_choice_is_kept_in_their_clubs_history(club):
    user = user_in_club(club)
    wants(user, Kind.PAIRING_PUBLISHED, Kind.EVENT_TOMORROW)
    wants(user, Kind.EVENT_TOMORROW, Kind.PAIRING_PUBLISHED)  # the same: nothing changed
    subscription_end(user_id=user.pk, kind=Kind.PAIRING_PUBLISHED)  # the one-click link
    entries = HistoryEntry.objects.filter(action=HistoryAction.PLAYER_NOTIFICATIONS)
    assert [(e.club_id, e.by_id, e.before, e.after) for e in entries.order_by("pk")] == [
        (
            club.pk,
            user.pk,
            {"notifications": []},
            {"notifications": ["event_tomorrow", "pairing_published"]},
        ),
        (
            club.pk,
            user.pk,
            {"notifications": ["event_tomorrow", "pairing_published"]},
            {"notifications": ["event_tomorrow"]},
        ),
    ]
    assert Membership.objects.filter(player__user=user).count() == 1


def test_the_due_look_is_scheduled_once_and_comes_back(
    settings, django_capture_on_commit_callbacks
):
    settings.MAIL_CONFIGURED = True
    with django_capture_on_commit_callbacks(execute=True):
        wants(UserFactory(), Kind.RESULTS_MISSING)  # a kind at a time of day
    due_schedule_ensure()  # a worker starting: one waits already
    waiting = DBTaskResult.objects.get(task_path=notifications_due.module_path)
    waiting.claim("test")  # the worker takes it...
    notifications_due.call()  # ...and runs it: the next look is queued
    (following,) = DBTaskResult.objects.filter(status="READY")
    assert following.run_after > timezone.now() + timedelta(minutes=14)
