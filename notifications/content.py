"""What each kind of notification says, read from the database when it is sent (the row
holds ids, not text), so a mail says what is true when it leaves.

`CONTENT[kind](notification)` gives the mail template's context, or None when what it was
about no longer applies (a pairing withdrawn before the worker came to it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from competition.models import Round
from games.models import Seat
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


CONTENT: dict[str, Callable[[Notification], dict[str, Any] | None]] = {
    Kind.PAIRING_PUBLISHED: pairing_published,
}
