"""A game's entries in the club history: results and moves, with the game's names kept.

The services of games/ call `record_game_change` inside their transaction. The context of
an entry (club, competition, round, the players' names) is read in two queries for many
games.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from clubs.history import history_record
from games.models import Game, Seat

GAME = "game"


def game_contexts(game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Club, competition, round and names of each game, as a history entry needs them."""
    ids = list(game_ids)
    rows = Game.objects.filter(pk__in=ids).values(
        "pk", "table", "round__number", "round__competition_id", "round__competition__club_id"
    )
    names: dict[int, list[str]] = {}
    for game_id, name in (
        Seat.objects.filter(game_id__in=ids).order_by("game_id", "position")
    ).values_list("game_id", "player__name"):
        names.setdefault(game_id, []).append(name)
    return {
        row["pk"]: _context(
            row["pk"],
            club_id=row["round__competition__club_id"],
            competition_id=row["round__competition_id"],
            round_number=row["round__number"],
            names=names.get(row["pk"], []),
        )
        for row in rows
    }


def game_context(game: Game) -> dict[str, Any]:
    """`game_contexts` for a game read with its round, competition and players (no query)."""
    return _context(
        game.pk,
        club_id=game.round.competition.club_id,
        competition_id=game.round.competition_id,
        round_number=game.round.number,
        names=[player.name for player in game.players],
    )


def _context(
    pk: int, *, club_id: int, competition_id: int, round_number: int, names: Iterable[str | None]
) -> dict[str, Any]:
    return {
        "club_id": club_id,
        "competition_id": competition_id,
        "round_number": round_number,
        "game_id": pk,
        "object_id": pk,
        "label": " – ".join(name for name in names if name),
    }


def record_game_change(
    context: dict[str, Any],
    *,
    by: Any,
    action: str,
    before: Any,
    after: Any,
    reason: str = "",
    reason_code: str = "",
    at: datetime | None = None,
) -> None:
    """One history entry about one game, with the context from `game_contexts`."""
    history_record(
        by=by,
        action=action,
        object_type=GAME,
        before=before,
        after=after,
        reason=reason,
        reason_code=reason_code,
        at=at,
        **context,
    )
