"""The database itself refuses impossible games: each case inside its own transaction."""

import pytest
from django.db import IntegrityError, transaction

from games.models import Confirmation, Game, Outcome, Seat
from games.services import ResultError, TableResult, result_of, result_store
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


def test_seat_position_once_per_game(round_and_players):
    round_obj, anna, bert = round_and_players
    game = GameFactory(round=round_obj, player_a=anna, player_b=bert, seats=False)
    Seat.objects.create(game=game, round=round_obj, player=anna, position=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, round=round_obj, player=bert, position=0)


def test_at_most_four_seats(round_and_players):
    round_obj, anna, _bert = round_and_players
    game = GameFactory(round=round_obj, seats=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, round=round_obj, player=anna, position=4)


def test_two_different_players(round_and_players):
    round_obj, anna, _bert = round_and_players
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(round=round_obj, player_a=anna, player_b=anna)
    assert not Game.objects.filter(round=round_obj).exists()


def test_a_flag_and_a_forfeit_never_at_one_seat(round_and_players):
    round_obj, anna, _bert = round_and_players
    game = GameFactory(round=round_obj, seats=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(
            game=game, round=round_obj, player=anna, position=0, flag_fell=True, forfeited=True
        )


def test_starter_is_a_seat(round_and_players):
    round_obj, _anna, _bert = round_and_players
    _refused(round=round_obj, starter=4)


def test_a_claim_needs_a_result_and_a_seat(round_and_players):
    round_obj, _anna, _bert = round_and_players
    _refused(round=round_obj, confirmation=Confirmation.PROVISIONAL, claimed_by=0)
    _refused(round=round_obj, outcome=Outcome.NORMAL, confirmation=Confirmation.PROVISIONAL)


def test_table_once_per_round(round_and_players):
    round_obj, anna, bert = round_and_players
    GameFactory(round=round_obj, player_a=anna, player_b=bert, table=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(round=round_obj, table=1)
    # Games without a table number do not collide.
    GameFactory(round=round_obj, table=None)
    GameFactory(round=round_obj, table=None)


# Whether a result fits its table is no longer one row's business: every write asks
# `rules.result.places` through `games.services.result_store`, which refuses these and
# changes nothing. (outcome, scores, flag_fell, forfeited) of a pair.
INCONSISTENT = {
    "normal without scores": (Outcome.NORMAL, (None, None), (False, False), (False, False)),
    "normal with one score": (Outcome.NORMAL, (300, None), (False, False), (False, False)),
    "normal with a flag": (Outcome.NORMAL, (300, 200), (True, False), (False, False)),
    "flag fall without scores": (Outcome.FLAG_FALL, (None, None), (False, True), (False, False)),
    "flag fall without a flag": (Outcome.FLAG_FALL, (250, 250), (False, False), (False, False)),
    "flag fall of both": (Outcome.FLAG_FALL, (250, 250), (True, True), (False, False)),
    "forfeit with scores": (Outcome.FORFEIT, (100, 0), (False, False), (False, True)),
    "forfeit without a forfeiter": (Outcome.FORFEIT, (None, None), (False, False), (False, False)),
    "bye at a table of two": (Outcome.BYE, (None, None), (False, False), (False, False)),
}


@pytest.mark.parametrize("parts", INCONSISTENT.values(), ids=INCONSISTENT.keys())
def test_inconsistent_results_are_refused(round_and_players, parts):
    round_obj, anna, bert = round_and_players
    game = GameFactory(round=round_obj, player_a=anna, player_b=bert)
    with pytest.raises(ResultError):
        result_store(game, TableResult(*parts))
    stored = Game.objects.with_seats().get(pk=game.pk)
    assert stored.outcome == Outcome.PENDING
    assert [(seat.score, seat.place) for seat in stored.seat_list] == [(None, None)] * 2


CONSISTENT = {
    "pending": ((Outcome.PENDING, (None, None), (False, False), (False, False)), (None, None)),
    "normal win": ((Outcome.NORMAL, (301, 300), (False, False), (False, False)), (1, 2)),
    "normal draw": ((Outcome.NORMAL, (250, 250), (False, False), (False, False)), (1, 1)),
    "flag fall, the higher scorer loses": (
        (Outcome.FLAG_FALL, (400, 200), (True, False), (False, False)),
        (2, 1),
    ),
    "forfeit, nobody wins": (
        (Outcome.FORFEIT, (None, None), (False, False), (True, True)),
        (None, None),
    ),
    "forfeit, one wins": (
        (Outcome.FORFEIT, (None, None), (False, False), (False, True)),
        (1, None),
    ),
    "annulled": ((Outcome.ANNULLED, (None, None), (False, False), (False, False)), (None, None)),
}


@pytest.mark.parametrize(("parts", "places"), CONSISTENT.values(), ids=CONSISTENT.keys())
def test_consistent_results_are_stored_with_their_places(round_and_players, parts, places):
    round_obj, anna, bert = round_and_players
    game = GameFactory(round=round_obj, player_a=anna, player_b=bert)
    result_store(game, TableResult(*parts))
    game.save()
    stored = Game.objects.with_seats().get(pk=game.pk)
    assert result_of(stored) == TableResult(*parts)
    assert tuple(seat.place for seat in stored.seat_list) == places
    stored.full_clean()
    for seat in stored.seat_list:
        seat.full_clean()


def test_a_bye_is_one_seat_that_won(round_and_players):
    round_obj, anna, _bert = round_and_players
    bye = GameFactory(round=round_obj, player_a=anna, bye=True)
    assert [(seat.player, seat.place) for seat in bye.seat_list] == [(anna, 1)]
