"""What each kind of notification says, read from the database when it is sent (the row
holds ids, not text), so a mail says what is true when it leaves.

`CONTENT[kind](notification)` gives the mail template's context, or None when what it was
about no longer applies (a pairing withdrawn before the worker came to it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse

from competition.models import Round
from games.models import Confirmation, Game, Seat
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
    return {
        "round": round,
        "competition": round.competition,
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


CONTENT: dict[str, Callable[[Notification], dict[str, Any] | None]] = {
    Kind.PAIRING_PUBLISHED: pairing_published,
    Kind.RESULT_TO_CONFIRM: result_to_confirm,
}
