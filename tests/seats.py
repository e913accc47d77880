"""A pair's result read off its seats, in the words the one-against-one tests were written in.

A game's result lives on its seats (`Seat.place`, `flag_fell`, `forfeited`); for a game of
two, `winner` says who won the way `Game.winner` used to: "a", "b", "draw", "none" (nobody:
annulled, or neither played) or "" (no result yet). Read from the database, never stored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import Game

A, B, DRAW, NONE, UNDECIDED = "a", "b", "draw", "none", ""


def winner(game: Game) -> str:
    """Who won the pair, from the seats' places (reload the game after a write)."""
    from games.models import Outcome

    if game.outcome == Outcome.PENDING:
        return UNDECIDED
    places = [seat.place for seat in game.seat_list]
    if game.outcome == Outcome.BYE:
        return A if places == [1] else NONE
    winners = [letter for letter, place in zip("ab", places, strict=True) if place == 1]
    if len(winners) == 2:
        return DRAW
    return winners[0] if winners else NONE


def pair(game: Game) -> tuple[str, str, int | None, int | None]:
    """(outcome, winner, score of the first player, score of the second)."""
    scores = [*game.scores, None][:2]
    return (game.outcome, winner(game), scores[0], scores[1])


def fresh(game: Game) -> Game:
    """The game as stored now, its seats loaded."""
    from games.models import Game

    return Game.objects.with_seats().get(pk=game.pk)


def seated(games, *players):
    """The games among `games` whose seats hold `players` in table order (names or players)."""
    for position, player in enumerate(players):
        if isinstance(player, str):
            games = games.filter(seats__position=position, seats__player__name=player)
        else:
            games = games.filter(seats__position=position, seats__player=player)
    return games.with_seats()


class Winner:
    """The old `Game.winner` codes, for `winner(game)`."""

    A, B, DRAW, NONE, UNDECIDED = A, B, DRAW, NONE, UNDECIDED


def pair_spec(player_a, player_b=None, table=None, *, starter=None, rules=None):
    """A `PairingSpec` of a pair (no second player: a bye); `starter` "a"/"b" or a position."""
    from games.services import PairingSpec

    players = (player_a,) if player_b is None else (player_a, player_b)
    if isinstance(starter, str):
        starter = {"a": 0, "b": 1}.get(starter)  # "": drawn at the table
    return PairingSpec(players=players, table=table, starter=starter, rules=rules)
