"""Fixtures for the move-by-move entry: games under each preset rule set, and a helper
that plays a scoresheet through games.moves.move_add."""

from collections.abc import Callable
from pathlib import Path

import pytest

import rules
from games.models import Game, Move
from games.moves import move_add
from tests.factories import EntrantFactory, GameFactory, PlayerFactory, RoundFactory, user_in_club

DEMO = Path(__file__).resolve().parents[2] / "games" / "demo"

PRESETS = {
    "gouds8": rules.GOUDS_8,
    "standard": rules.STANDARD,
    "sbnl": rules.SBNL_WEDSTRIJD,
}


def _entrant(competition, name: str):
    entrant = competition.entrants.select_related("player").filter(player__name=name).first()
    if entrant is None:
        entrant = EntrantFactory(competition=competition, player=PlayerFactory(name=name))
    return entrant.player


@pytest.fixture
def make_game(competition) -> Callable[..., Game]:
    """A pending game between Anna (side a) and Bert (side b) in `competition`, both entered,
    played by `ruleset` (default Gouds 8). Each call makes a new round."""

    def make(ruleset: rules.RuleSet = rules.GOUDS_8, *, starter: str = "a", **fields) -> Game:
        fields.setdefault("player_a", _entrant(competition, "Anna"))
        fields.setdefault("player_b", _entrant(competition, "Bert"))
        round_ = RoundFactory(competition=competition)
        return GameFactory(round=round_, rules=ruleset.to_dict(), starter=starter, **fields)

    return make


@pytest.fixture
def game(make_game) -> Game:
    """A fresh Gouds 8 game, Anna to start."""
    return make_game()


@pytest.fixture
def play() -> Callable[..., Move | None]:
    """`play(game, "8H WOORD", "-", ...)`: record each move in turn; returns the last row."""

    def record(game: Game, *notations: str, by=None) -> Move | None:
        row = None
        for notation in notations:
            row = move_add(game=game, notation=notation, by=by)
        game.refresh_from_db()
        return row

    return record


@pytest.fixture
def demo_gcg() -> Callable[[str], bytes]:
    def read(name: str = "demo-1") -> bytes:
        return (DEMO / f"{name}.gcg").read_bytes()

    return read


@pytest.fixture
def anna(club):
    return user_in_club(club, username="anna")


@pytest.fixture
def bert(club):
    return user_in_club(club, username="bert")


@pytest.fixture
def table(competition, anna, bert):
    """Round 1 (published), table 1: Anna, with an account, the first player, against Bert."""
    return GameFactory(
        round=RoundFactory(competition=competition),
        table=1,
        player_a=anna.player,
        player_b=bert.player,
    )
