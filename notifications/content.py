"""What each kind of notification says, read from the database when it is sent (the row
holds ids, not text), so a mail says what is true when it leaves.

`CONTENT[kind](notification)` gives the mail template's context, or None when what it was
about no longer applies (a pairing withdrawn before the worker came to it).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from django.urls import reverse
from django.utils import timezone

from competition.models import Competition, Round
from duplicate.models import Evening
from duplicate.selectors import evening_results
from events.models import Entry, Event
from events.services import divisions_played
from games.models import Confirmation, Game, Outcome, Seat
from notifications.kinds import Kind
from notifications.models import Notification


def pairing_published(notification: Notification) -> dict[str, Any] | None:
    round = (
        Round.objects.select_related("competition__club")
        .filter(pk=notification.params.get("round_id"), status__in=["published", "finished"])
        .first()
    )
    if round is None:
        return None
    own = (
        Seat.objects.select_related("game")
        .filter(round=round, player__user_id=notification.user_id)
        .first()
    )
    if own is None:
        return None
    opponents = [
        seat.player.name
        for seat in Seat.objects.select_related("player")
        .filter(game_id=own.game_id)
        .exclude(pk=own.pk)
        .order_by("position")
    ]
    competition = round.competition
    return {
        "round": round,
        "competition": competition,
        # A round has no time of its own; on one of the season's planned evenings it is
        # the evening's. Else the mail says no time rather than a wrong one.
        "time": competition.evening_start if round.date in competition.evenings else None,
        "table": own.game.table,
        "opponents": opponents,
        "path": round.get_absolute_url(),
    }


def result_to_confirm(notification: Notification) -> dict[str, Any] | None:
    confirmation = notification.params.get("confirmation")
    game = (
        Game.objects.select_related("round__competition")
        .prefetch_related("seats__player")
        .filter(pk=notification.params.get("game_id"), confirmation=confirmation)
        .first()
    )
    if game is None:  # confirmed or decided meanwhile: nothing waits for this person
        return None
    return {
        "disputed": confirmation == Confirmation.DISPUTED,
        "round": game.round,
        "competition": game.round.competition,
        "table": game.table,
        "seats": [(seat.player.name, seat.score) for seat in game.seat_list],
        "path": reverse("my_games"),
    }


def dispute_to_decide(notification: Notification) -> dict[str, Any] | None:
    game = (
        Game.objects.select_related("round__competition")
        .prefetch_related("seats__player")
        .filter(pk=notification.params.get("game_id"), confirmation=Confirmation.DISPUTED)
        .first()
    )
    if game is None:  # decided before the worker came to it
        return None
    return {
        "round": game.round,
        "competition": game.round.competition,
        "table": game.table,
        "seats": [(seat.player.name, seat.score) for seat in game.seat_list],
        "path": game.round.get_absolute_url(),
    }


def duplicate_result(notification: Notification) -> dict[str, Any] | None:
    evening = (
        Evening.objects.select_related("competition__club")
        .filter(pk=notification.params.get("evening_id"))
        .first()
    )
    if evening is None:
        return None
    rows = evening_results(evening)
    own = next((r for r in rows if r.player_id == notification.params.get("player_id")), None)
    if own is None:
        return None
    competition = evening.competition
    return {
        "competition": competition,
        "evening": evening,
        "row": own,
        "players": len(rows),
        "path": reverse(
            "duplicate_evening", kwargs={**competition.url_kwargs, "number": evening.number}
        ),
    }


def entry_confirmed(notification: Notification) -> dict[str, Any] | None:
    entry = (
        Entry.objects.select_related("event__organiser", "club")
        .filter(pk=notification.params.get("entry_id"))
        .first()
    )
    if entry is None:  # withdrawn before the worker came to it
        return None
    return {
        "event": entry.event,
        "club_shown": entry.club_shown,
        "divisions": [division.name for division in divisions_played(entry.event, entry.player_id)],
        "path": entry.event.get_absolute_url(),
    }


def event_tomorrow(notification: Notification) -> dict[str, Any] | None:
    event = (
        Event.objects.select_related("organiser")
        .filter(
            pk=notification.params.get("event_id"),
            entries__player__user_id=notification.user_id,
        )
        .first()
    )
    if event is None or event.date is None or event.date < timezone.localdate():
        return None  # withdrawn, or the event was moved or is over
    return {"event": event, "path": event.get_absolute_url()}


def results_missing(notification: Notification) -> dict[str, Any] | None:
    competition = (
        Competition.objects.select_related("club")
        .filter(pk=notification.params.get("competition_id"))
        .first()
    )
    day = date.fromisoformat(notification.params.get("date", "1900-01-01"))
    if competition is None:
        return None
    rounds = list(
        Round.objects.filter(
            competition=competition,
            date=day,
            status=Round.Status.PUBLISHED,
            games__outcome=Outcome.PENDING,
        )
        .distinct()
        .order_by("number")
    )
    if not rounds:  # entered meanwhile
        return None
    missing = Game.objects.filter(round__in=rounds, outcome=Outcome.PENDING).count()
    return {
        "competition": competition,
        "date": day,
        "missing": missing,
        "rounds": [str(r.number) for r in rounds],
        "path": rounds[0].get_absolute_url(),
    }


def entries_closing(notification: Notification) -> dict[str, Any] | None:
    event = (
        Event.objects.select_related("organiser")
        .filter(pk=notification.params.get("event_id"), entry_closes_at__gt=timezone.now())
        .first()
    )
    if event is None:  # closed already, or no longer closing
        return None
    return {
        "event": event,
        "closes": event.entry_closes_at,
        "entries": event.entries.count(),
        "path": event.get_absolute_url(),
    }


CONTENT: dict[str, Callable[[Notification], dict[str, Any] | None]] = {
    Kind.PAIRING_PUBLISHED: pairing_published,
    Kind.RESULT_TO_CONFIRM: result_to_confirm,
    Kind.DUPLICATE_RESULT: duplicate_result,
    Kind.ENTRY_CONFIRMED: entry_confirmed,
    Kind.EVENT_TOMORROW: event_tomorrow,
    Kind.RESULTS_MISSING: results_missing,
    Kind.DISPUTE_TO_DECIDE: dispute_to_decide,
    Kind.ENTRIES_CLOSING: entries_closing,
}
