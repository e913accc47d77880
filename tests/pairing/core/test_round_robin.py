"""Round robin: the published Berger tables, every pair meeting, rotating byes."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from pairing.core import (
    PairingEntrant,
    PairingError,
    pair,
    round_robin_round,
    round_robin_schedule,
    rounds_needed,
)

# FIDE Handbook C.05 annex 1, the Berger tables (first player has the first move).
BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_four_players_follow_the_berger_table():
    schedule = round_robin_schedule([1, 2, 3, 4])
    assert [list(r.games) for r in schedule] == BERGER_4
    assert all(r.bye is None for r in schedule)


def test_five_players_use_the_six_player_table_with_a_rotating_bye():
    schedule = round_robin_schedule([1, 2, 3, 4, 5])
    expected = [[g for g in games if 6 not in g] for games in BERGER_6]
    assert [list(r.games) for r in schedule] == expected
    assert [r.bye for r in schedule] == [1, 4, 2, 5, 3]


def test_ids_are_numbered_in_the_order_given():
    assert round_robin_round([40, 10, 30, 20], 1).games == ((40, 20), (10, 30))


@pytest.mark.parametrize("count", range(2, 17))
@pytest.mark.parametrize("double", [False, True])
def test_every_pair_meets_once_or_twice_and_starts_are_balanced(count, double):
    ids = list(range(101, 101 + count))
    schedule = round_robin_schedule(ids, double=double)
    assert len(schedule) == rounds_needed(count, double=double)
    meetings = Counter(frozenset(game) for r in schedule for game in r.games)
    assert set(meetings) == {frozenset(p) for p in combinations(ids, 2)}
    assert set(meetings.values()) == {2 if double else 1}
    for r in schedule:
        playing = [p for game in r.games for p in game]
        assert len(playing) == len(set(playing))
        assert sorted(playing + ([r.bye] if r.bye else [])) == ids
    byes = Counter(r.bye for r in schedule if r.bye is not None)
    if count % 2:
        assert byes == Counter({p: 2 if double else 1 for p in ids})
    starts = Counter(game[0] for r in schedule for game in r.games)
    games_each = (count - 1) * (2 if double else 1)
    if double:
        # The second half swaps every starter: each player starts exactly half.
        assert all(starts[p] * 2 == games_each for p in ids)
    else:
        # A single Berger round robin: starts differ by at most one between players.
        assert max(starts[p] for p in ids) - min(starts[p] for p in ids) <= 1


def test_second_half_swaps_the_starters():
    single = round_robin_schedule([1, 2, 3, 4])
    double = round_robin_schedule([1, 2, 3, 4], double=True)
    for first, second in zip(single, double[3:], strict=True):
        assert second.games == tuple((b, a) for a, b in first.games)


def test_round_outside_the_schedule_is_refused():
    with pytest.raises(PairingError):
        round_robin_round([1, 2, 3, 4], 4)
    with pytest.raises(PairingError):
        round_robin_round([1], 1)
    with pytest.raises(PairingError):
        round_robin_round([1, 1], 1)


def test_round_robin_system_numbers_by_seed_and_assigns_berger_starters():
    entrants = [PairingEntrant(id=10 * s, rank=5 - s, seed=s) for s in range(1, 5)]
    pairing = pair("rr", entrants, round_number=2)
    # Berger round 2 for seeds: 4-3, 1-2; tables follow the standings rank.
    games = {(p.player_a, p.player_b): p.starter for p in pairing.pairs}
    assert games == {(40, 30): 40, (20, 10): 10}
    by_lot = pair("rr", entrants, round_number=2, starters="by_lot")
    assert all(p.starter is None for p in by_lot.pairs)
