"""Who starts: by lot, run avoidance, return games, balance."""

from __future__ import annotations

import pytest

from pairing.core import PairingEntrant, PairingError, PastGame, assign_starters


def entrant(pid, *, recent=(), starts=0, games=0, opponents=()):
    return PairingEntrant(
        id=pid, rank=pid, recent_starts=recent, starts=starts, games=games, opponents=opponents
    )


def test_by_lot_leaves_every_starter_open():
    players = [entrant(1), entrant(2)]
    assert assign_starters([(1, 2)], players, starters="by_lot") == (None,)


def test_two_starts_in_a_row_give_way_to_the_opponent():
    a = entrant(1, recent=(True, True), starts=2, games=3)
    b = entrant(2, recent=(True, False, False), starts=1, games=3)
    assert assign_starters([(1, 2)], [a, b]) == (2,)


def test_run_avoidance_comes_before_the_return_game_rule():
    a = entrant(1, recent=(False, False), starts=1, games=3, opponents=(PastGame(2, 1, True),))
    b = entrant(2, recent=(True,), starts=1, games=3, opponents=(PastGame(1, 1, False),))
    assert assign_starters([(1, 2)], [a, b]) == (1,)


def test_return_game_lets_the_other_player_start():
    a = entrant(1, recent=(True,), starts=1, games=2, opponents=(PastGame(2, 1, True),))
    b = entrant(2, recent=(False,), starts=0, games=2, opponents=(PastGame(1, 1, False),))
    assert assign_starters([(1, 2)], [a, b]) == (2,)
    # The latest meeting with a recorded starter counts, from either record.
    c = entrant(3, opponents=(PastGame(4, 1, True), PastGame(4, 3, None)))
    d = entrant(4, opponents=(PastGame(3, 1, False), PastGame(3, 3, None)))
    assert assign_starters([(3, 4)], [c, d]) == (4,)


def test_whoever_started_less_often_starts():
    a = entrant(1, recent=(True, False), starts=3, games=4)
    b = entrant(2, recent=(False, True), starts=1, games=4)
    assert assign_starters([(1, 2)], [a, b]) == (2,)


def test_ties_alternate_by_table():
    players = [entrant(pid) for pid in range(1, 7)]
    assert assign_starters([(1, 2), (3, 4), (5, 6)], players) == (1, 4, 5)


def test_unknown_mode_is_refused():
    with pytest.raises(PairingError):
        assign_starters([], [], starters="coin")
