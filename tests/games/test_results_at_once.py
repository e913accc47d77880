"""Two devices writing one game's result or moves at the same moment, on PostgreSQL, in
threads with connections of their own: two players entering their game's result, two
players confirming it, two tablets taking back the last move. One write is kept; the other
is refused with the answer it would get one after the other (its page showed the game as
it was before the first write), never kept over the first, lost or a server error.
(On SQLite every write runs alone: config/settings.py.)"""

from __future__ import annotations

from functools import partial

import pytest
from django.utils import translation

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from games.confirmation import (
    game_moves_write,
    game_result_confirm,
    game_result_enter,
)
from games.models import Confirmation, Game, Move
from games.moves import MoveError, move_add, move_undo
from games.services import ResultError, ResultInput
from tests.factories import GameFactory, RoundFactory, user_in_club
from tests.test_lock_order import AT_ONCE_ON_POSTGRESQL, at_once

pytestmark = AT_ONCE_ON_POSTGRESQL

#: Races in a row: each one a fresh chance for the two writes to meet.
RACES = 10
KEPT = "kept"


def _kept_or_refused(write, refused: type[Exception] = ResultError):
    """KEPT, or the refusal (in Dutch, as the devices read it)."""
    try:
        with translation.override("nl"):
            write()
    except refused as error:
        return error
    return KEPT


def _winner_and_loser(results: list, refused: type[Exception]):
    assert results.count(KEPT) == 1, results
    (loser,) = [result for result in results if result != KEPT]
    assert isinstance(loser, refused), loser
    return results.index(KEPT), loser


@pytest.fixture
def players(club):
    """Anna, Bert and Cor: members with an account each."""
    return [user_in_club(club, username=name) for name in ("anna", "bert", "cor")]


def _new_game(competition, players) -> Game:
    return GameFactory(
        round=RoundFactory(competition=competition), players=[user.player for user in players]
    )


def _enter(game_id: int, by, scores: tuple[int, ...], version: int):
    game = Game.objects.get(pk=game_id)
    result = ResultInput("normal", scores)
    return _kept_or_refused(
        lambda: game_result_enter(game=game, result=result, by=by, expected_version=version)
    )


def _confirm(game_id: int, by, version: int):
    game = Game.objects.get(pk=game_id)
    return _kept_or_refused(lambda: game_result_confirm(game=game, by=by, expected_version=version))


def test_both_players_entering_their_result_at_once_keep_one_entry(competition, players):
    anna, bert = players[:2]
    # One after the other, from pages read before either entry: the second hears this.
    game = _new_game(competition, [anna, bert])
    assert _enter(game.pk, anna, (380, 350), 0) == KEPT
    after = _enter(game.pk, bert, (380, 351), 0)
    assert isinstance(after, ResultError)
    for _ in range(RACES):
        game = _new_game(competition, [anna, bert])
        typed = [(380, 350), (380, 351)]
        results = at_once(
            partial(_enter, game.pk, anna, typed[0], 0), partial(_enter, game.pk, bert, typed[1], 0)
        )
        winner, loser = _winner_and_loser(results, ResultError)
        assert str(loser.message) == str(after.message)
        saved = Game.objects.with_seats().get(pk=game.pk)
        assert saved.scores == typed[winner]
        assert saved.confirmation == Confirmation.PROVISIONAL
        assert saved.claimed_by == winner
        assert [seat.confirmed for seat in saved.seat_list] == [winner == 0, winner == 1]
        entered = HistoryEntry.objects.filter(game_id=game.pk)
        assert list(entered.values_list("action", flat=True)) == [HistoryAction.RESULT_ENTER]


def test_two_players_confirming_one_result_at_once_keep_one_confirmation(competition, players):
    """At a table of three, Bert and Cor confirm Anna's result from the same page."""
    anna, bert, cor = players
    game = _new_game(competition, players)
    entered = game_result_enter(game=game, result=ResultInput("normal", (380, 350, 300)), by=anna)
    assert _confirm(game.pk, bert, entered.version) == KEPT
    after = _confirm(game.pk, cor, entered.version)
    assert isinstance(after, ResultError)
    for _ in range(RACES):
        game = _new_game(competition, players)
        version = game_result_enter(
            game=game, result=ResultInput("normal", (380, 350, 300)), by=anna
        ).version
        results = at_once(
            partial(_confirm, game.pk, bert, version), partial(_confirm, game.pk, cor, version)
        )
        winner, loser = _winner_and_loser(results, ResultError)
        assert str(loser.message) == str(after.message)
        saved = Game.objects.with_seats().get(pk=game.pk)
        # Anna's entry and the one confirmation kept: the table still waits for the third.
        assert [seat.confirmed for seat in saved.seat_list] == [True, winner == 0, winner == 1]
        assert saved.confirmation == Confirmation.PROVISIONAL
        confirmations = HistoryEntry.objects.filter(
            game_id=game.pk, action=HistoryAction.RESULT_CONFIRM
        )
        assert [entry.by for entry in confirmations] == [(bert, cor)[winner]]


def _undo(game_id: int, by, version: int):
    """As the board's *undo* button does (games.views.undo)."""
    game = Game.objects.get(pk=game_id)
    return _kept_or_refused(
        lambda: game_moves_write(
            game=game,
            by=by,
            write=lambda locked: move_undo(game=locked, by=by, expected_version=version),
        ),
        MoveError,
    )


def test_two_tablets_taking_back_the_last_move_at_once_take_back_one(game, secretary):
    # The board shows two moves; one after the other, the second undo hears this.
    move_add(game=game, notation="8H WOORD", by=secretary)
    move_add(game=game, notation="-", by=secretary)
    shown = Game.objects.get(pk=game.pk).version
    assert _undo(game.pk, secretary, shown) == KEPT
    after = _undo(game.pk, secretary, shown)
    assert isinstance(after, MoveError) and after.conflict
    for _ in range(RACES):
        move_add(game=Game.objects.get(pk=game.pk), notation="-", by=secretary)
        shown = Game.objects.get(pk=game.pk).version
        results = at_once(
            partial(_undo, game.pk, secretary, shown), partial(_undo, game.pk, secretary, shown)
        )
        _winner, loser = _winner_and_loser(results, MoveError)
        assert loser.conflict and str(loser.message) == str(after.message)
        # One move taken back: the first stays, with its score.
        assert list(Move.objects.filter(game=game).values_list("number", "score")) == [(1, 26)]
    undone = HistoryEntry.objects.filter(game_id=game.pk, action=HistoryAction.MOVE_UNDO)
    assert undone.count() == RACES + 1
