"""Reads for the players' own pages. Imports nothing from competition (only its rows,
through the game's round)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Count

from clubs.models import Player
from games.models import Game, RoundStatus

#: Older games on "Mijn partijen": the newest this many (the player page has them all).
EARLIER_GAMES_SHOWN = 100


@dataclass(frozen=True)
class MyGames:
    """A player's games: those of rounds being played now (tonight's first), then the rest."""

    player: Player | None
    current: list[Game]
    earlier: list[Game]


def my_games(user, *, today: date) -> MyGames:
    """The games of the player tied to `user`, in two queries whatever their number."""
    player = Player.objects.filter(user=user).first()
    if player is None:
        return MyGames(player=None, current=[], earlier=[])
    games = list(
        Game.objects.published()
        .filter(seats__player=player)
        .select_related("round__competition__club", "player_a", "player_b")
        .annotate(move_count=Count("moves"))
        .order_by("-round__date", "-round__number", "-pk")[: EARLIER_GAMES_SHOWN + 50]
    )
    current = [game for game in games if game.round.status == RoundStatus.PUBLISHED]
    current.sort(key=lambda game: game.round.date != today)  # stable: tonight's first
    earlier = [game for game in games if game.round.status != RoundStatus.PUBLISHED]
    return MyGames(player=player, current=current, earlier=earlier[:EARLIER_GAMES_SHOWN])
