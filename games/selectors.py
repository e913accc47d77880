"""Reads about games for more than one app's pages: a game's history, a player's own
games. Imports nothing from competition (only its rows, through the game's round)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, F, QuerySet

from clubs.models import HistoryEntry, Player
from games.models import Game, RoundStatus

#: Older games on "Mijn partijen": the newest this many (the player page has them all).
EARLIER_GAMES_SHOWN = 100


@dataclass(frozen=True)
class MyGames:
    """A player's games: those of rounds being played now (tonight's first), then the rest."""

    player: Player | None
    current: Sequence[Game]
    earlier: Sequence[Game]


def my_games(user, *, today: date) -> MyGames:
    """The games of the player tied to `user`, in two queries whatever their number."""
    player = Player.objects.filter(user=user).first()
    if player is None:
        return MyGames(player=None, current=[], earlier=[])
    games = list(
        Game.objects.published()
        .filter(seats__player=player)
        .select_related("round__competition__club")
        .with_seats()
        .annotate(move_count=Count("moves"))
        # Undated rounds (imports without a date) last on every database: PostgreSQL would
        # put them above the newest dated ones.
        .order_by(F("round__date").desc(nulls_last=True), "-round__number", "-pk")[
            : EARLIER_GAMES_SHOWN + 50
        ]
    )
    current = [game for game in games if game.round.status == RoundStatus.PUBLISHED]
    current.sort(key=lambda game: game.round.date != today)  # stable: tonight's first
    earlier = [game for game in games if game.round.status != RoundStatus.PUBLISHED]
    return MyGames(player=player, current=current, earlier=earlier[:EARLIER_GAMES_SHOWN])


def game_history(game_id: int) -> QuerySet[HistoryEntry]:
    """The game's history entries (results, moves, starter), newest first, with who."""
    return HistoryEntry.objects.filter(game_id=game_id).select_related("by")
