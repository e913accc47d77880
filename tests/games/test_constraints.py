"""The database itself refuses impossible games: each case inside its own transaction."""

import pytest
from django.db import IntegrityError, transaction

from games.models import Game, Outcome, Seat, Side, Winner
from tests.factories import GameFactory, PlayerFactory, RoundFactory

pytestmark = pytest.mark.django_db


def _refused(**fields) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(**fields)


@pytest.fixture
def round_and_players():
    return RoundFactory(), PlayerFactory(name="Anna"), PlayerFactory(name="Bert")


def test_player_once_per_round_whichever_side(round_and_players):
    round_obj, anna, bert = round_and_players
    GameFactory(round=round_obj, player_a=anna, player_b=bert)
    cor, dirk = PlayerFactory(), PlayerFactory()
    # Anna again, now as the second player of another game of the same round.
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(round=round_obj, player_a=cor, player_b=anna)
    # ... and as a first player.
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(round=round_obj, player_a=anna, player_b=dirk)
    # ... and with a bye.
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(round=round_obj, player_a=anna, bye=True)
    assert Game.objects.filter(round=round_obj).count() == 1
    # Another round is fine.
    GameFactory(round=RoundFactory(competition=round_obj.competition), player_a=anna)


def test_seat_side_once_per_game(round_and_players):
    round_obj, anna, bert = round_and_players
    game = GameFactory(round=round_obj, player_a=anna, player_b=bert, seats=False)
    Seat.objects.create(game=game, round=round_obj, player=anna, side=Side.A)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, round=round_obj, player=bert, side=Side.A)


def test_two_different_players(round_and_players):
    round_obj, anna, _bert = round_and_players
    _refused(round=round_obj, player_a=anna, player_b=anna)


def test_bye_has_no_opponent(round_and_players):
    round_obj, anna, bert = round_and_players
    _refused(round=round_obj, player_a=anna, player_b=bert, outcome=Outcome.BYE, winner=Winner.A)


def test_a_game_without_opponent_is_a_bye(round_and_players):
    round_obj, anna, _bert = round_and_players
    _refused(round=round_obj, player_a=anna, player_b=None)  # pending, no opponent


def test_table_once_per_round(round_and_players):
    round_obj, anna, bert = round_and_players
    GameFactory(round=round_obj, player_a=anna, player_b=bert, table=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(round=round_obj, table=1)
    # Games without a table number do not collide.
    GameFactory(round=round_obj, table=None)
    GameFactory(round=round_obj, table=None)


INCONSISTENT = {
    "pending with a winner": {"outcome": Outcome.PENDING, "winner": Winner.A},
    "pending with scores": {"score_a": 300, "score_b": 200},
    "normal, winner a but a scored less": {
        "outcome": Outcome.NORMAL,
        "winner": Winner.A,
        "score_a": 200,
        "score_b": 300,
    },
    "normal, winner b but b scored less": {
        "outcome": Outcome.NORMAL,
        "winner": Winner.B,
        "score_a": 300,
        "score_b": 200,
    },
    "normal, draw with unequal scores": {
        "outcome": Outcome.NORMAL,
        "winner": Winner.DRAW,
        "score_a": 300,
        "score_b": 299,
    },
    "normal without scores": {"outcome": Outcome.NORMAL, "winner": Winner.A},
    "normal with one score": {"outcome": Outcome.NORMAL, "winner": Winner.A, "score_a": 300},
    "normal without winner": {"outcome": Outcome.NORMAL, "score_a": 300, "score_b": 200},
    "flag fall without scores": {"outcome": Outcome.FLAG_FALL, "winner": Winner.B},
    "flag fall as a draw": {
        "outcome": Outcome.FLAG_FALL,
        "winner": Winner.DRAW,
        "score_a": 250,
        "score_b": 250,
    },
    "forfeit with scores": {
        "outcome": Outcome.FORFEIT,
        "winner": Winner.A,
        "score_a": 100,
        "score_b": 0,
    },
    "forfeit as a draw": {"outcome": Outcome.FORFEIT, "winner": Winner.DRAW},
    "annulled with a winner": {"outcome": Outcome.ANNULLED, "winner": Winner.A},
    "bye won by nobody": {"outcome": Outcome.BYE, "winner": Winner.NONE, "player_b": None},
}


@pytest.mark.parametrize("fields", INCONSISTENT.values(), ids=INCONSISTENT.keys())
def test_inconsistent_results_are_refused(round_and_players, fields):
    round_obj, anna, bert = round_and_players
    _refused(**{"round": round_obj, "player_a": anna, "player_b": bert, **fields})


CONSISTENT = {
    "pending": {},
    "normal win": {"outcome": Outcome.NORMAL, "winner": Winner.A, "score_a": 301, "score_b": 300},
    "normal draw": {
        "outcome": Outcome.NORMAL,
        "winner": Winner.DRAW,
        "score_a": 250,
        "score_b": 250,
    },
    "flag fall, the higher scorer loses": {
        "outcome": Outcome.FLAG_FALL,
        "winner": Winner.B,
        "score_a": 400,
        "score_b": 200,
    },
    "forfeit, nobody wins": {"outcome": Outcome.FORFEIT, "winner": Winner.NONE},
    "annulled": {"outcome": Outcome.ANNULLED, "winner": Winner.NONE},
    "bye": {"outcome": Outcome.BYE, "winner": Winner.A, "player_b": None},
}


@pytest.mark.parametrize("fields", CONSISTENT.values(), ids=CONSISTENT.keys())
def test_consistent_results_are_accepted(round_and_players, fields):
    round_obj, anna, bert = round_and_players
    game = Game.objects.create(**{"round": round_obj, "player_a": anna, "player_b": bert, **fields})
    game.full_clean()
