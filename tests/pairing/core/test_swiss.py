"""Swiss pairing: properties against a brute-force optimum, bye rules, determinism."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.core import (
    CRITERIA,
    PairingEntrant,
    PairingError,
    PastGame,
    SwissWeights,
    swiss,
)
from pairing.core.simulation import Ledger

from .strategies import arbitrary_entrants, brute_force, played_competitions

BRUTE = settings(max_examples=60, deadline=None)


def assert_everyone_once(entrants, pairing):
    ids = [e.id for e in entrants]
    assert sorted(pairing.player_ids()) == sorted(ids)
    assert (pairing.bye is not None) == (len(ids) % 2 == 1)
    assert [pair.table for pair in pairing.pairs] == list(range(1, len(pairing.pairs) + 1))


@BRUTE
@given(played_competitions())
def test_swiss_reaches_the_brute_force_optimum_after_real_rounds(case):
    entrants, round_number, starters = case
    pairing = swiss(entrants, round_number=round_number, starters=starters)
    assert_everyone_once(entrants, pairing)
    best_weight, best_criteria, fewest_repeats = brute_force(entrants, starters=starters)
    assert pairing.weight == best_weight
    # The packed weight orders matchings exactly like the criteria, most important first.
    assert tuple(c.penalty for c in pairing.criteria[:-1]) == best_criteria
    # No repeat where the brute force finds a round without one.
    assert sum(pair.meetings for pair in pairing.pairs) == fewest_repeats
    if fewest_repeats == 0:
        assert all(pair.meetings == 0 for pair in pairing.pairs)


@settings(max_examples=8, deadline=None)
@given(played_competitions(min_players=11, max_players=12, absent=0))
def test_swiss_reaches_the_brute_force_optimum_for_full_fields_of_eleven_and_twelve(case):
    entrants, round_number, starters = case
    assert len(entrants) in (11, 12)
    pairing = swiss(entrants, round_number=round_number, starters=starters)
    best_weight, best_criteria, _ = brute_force(entrants, starters=starters)
    assert pairing.weight == best_weight
    assert tuple(c.penalty for c in pairing.criteria[:-1]) == best_criteria


@BRUTE
@given(arbitrary_entrants(), st.sampled_from(["assigned", "by_lot"]))
def test_swiss_reaches_the_brute_force_optimum_on_arbitrary_records(entrants, starters):
    pairing = swiss(entrants, round_number=7, starters=starters)
    assert_everyone_once(entrants, pairing)
    best_weight, best_criteria, _ = brute_force(entrants, starters=starters)
    assert pairing.weight == best_weight
    assert tuple(c.penalty for c in pairing.criteria[:-1]) == best_criteria


@settings(max_examples=40, deadline=None)
@given(played_competitions(max_players=16), st.randoms(use_true_random=False))
def test_same_input_in_any_order_gives_the_same_pairing(case, rng):
    entrants, round_number, starters = case
    first = swiss(entrants, round_number=round_number, starters=starters)
    shuffled = list(entrants)
    rng.shuffle(shuffled)
    assert swiss(shuffled, round_number=round_number, starters=starters) == first
    assert swiss(entrants, round_number=round_number, starters=starters) == first


@settings(max_examples=40, deadline=None)
@given(played_competitions(max_players=15))
def test_bye_goes_to_the_lowest_placed_with_fewest_byes(case):
    entrants, round_number, _ = case
    pairing = swiss(entrants, round_number=round_number)
    if len(entrants) % 2 == 0:
        assert pairing.bye is None
        return
    fewest = min(e.byes for e in entrants)
    bye = next(e for e in entrants if e.id == pairing.bye)
    assert bye.byes == fewest  # never a second bye while someone present has none
    assert bye.rank == max(e.rank for e in entrants if e.byes == fewest)


def test_weight_fields_never_overflow_into_each_other():
    """One unit of a field outweighs the largest possible sum of all lower fields."""
    ledger = Ledger(range(1, 41), seed=3)
    for number in range(1, 8):
        ledger.play(swiss(ledger.entrants(), round_number=number), number)
    weights = SwissWeights(ledger.entrants())
    lower_total = 0
    for field in reversed(weights.fields):
        assert lower_total < field.multiplier
        lower_total += field.max_per_pair * weights.tables * field.multiplier
    assert lower_total < weights.ceiling
    assert [field.key for field in weights.fields] == list(CRITERIA)


def test_small_club_where_everyone_met_still_pairs_with_the_oldest_repeats():
    # Four players, three rounds played: everyone met everyone once.
    rounds = {1: [(1, 2), (3, 4)], 2: [(1, 3), (2, 4)], 3: [(1, 4), (2, 3)]}
    history: dict[int, list[PastGame]] = {pid: [] for pid in range(1, 5)}
    for number, games in rounds.items():
        for a, b in games:
            history[a].append(PastGame(b, number, True))
            history[b].append(PastGame(a, number, False))
    entrants = [
        PairingEntrant(id=pid, rank=pid, match_points=2, opponents=tuple(history[pid]))
        for pid in range(1, 5)
    ]
    pairing = swiss(entrants, round_number=4)
    assert {(p.player_a, p.player_b) for p in pairing.pairs} == {(1, 2), (3, 4)}
    assert all(p.meetings == 1 and p.last_met_round == 1 for p in pairing.pairs)
    # A return game: the other player starts than last time.
    assert {p.starter for p in pairing.pairs} == {2, 4}


def test_equal_match_points_meet_and_floats_stay_small():
    # 6 v 6, 4 v 4 and one chain of small floats beats 6 v 0.
    points = {1: 6, 2: 6, 3: 4, 4: 4, 5: 4, 6: 2, 7: 2, 8: 0}
    entrants = [
        PairingEntrant(id=pid, rank=pid, match_points=mp, board_points=1000 - 10 * pid)
        for pid, mp in points.items()
    ]
    pairing = swiss(entrants, round_number=4, starters="by_lot")
    games = {(p.player_a, p.player_b) for p in pairing.pairs}
    assert (1, 2) in games
    assert max(p.match_point_gap for p in pairing.pairs) == 2
    # The lowest of the 4-point group floats down to the highest of the 2-point group.
    assert (5, 6) in games


def test_late_entrant_with_fewer_games_is_paired_by_its_points():
    entrants = [
        PairingEntrant(id=1, rank=1, match_points=4, games=2),
        PairingEntrant(id=2, rank=2, match_points=4, games=2),
        PairingEntrant(id=3, rank=3, match_points=2, games=1),
        PairingEntrant(id=9, rank=4, match_points=0, games=0),  # joined tonight
    ]
    pairing = swiss(entrants, round_number=3)
    assert [(p.player_a, p.player_b) for p in pairing.pairs] == [(1, 2), (3, 9)]


def test_pair_carries_the_review_screen_facts():
    entrants = [
        PairingEntrant(
            id=1, rank=1, match_points=2, board_points=400, opponents=(PastGame(2, 1, True),)
        ),
        PairingEntrant(
            id=2, rank=2, match_points=0, board_points=350, opponents=(PastGame(1, 1, False),)
        ),
    ]
    (pair,) = swiss(entrants, round_number=2).pairs
    assert (pair.table, pair.player_a, pair.player_b) == (1, 1, 2)
    assert (pair.match_point_gap, pair.board_point_gap) == (2, 50)
    assert (pair.meetings, pair.last_met_round, pair.starter) == (1, 1, 2)


def test_by_lot_leaves_starters_open():
    entrants = [PairingEntrant(id=i, rank=i) for i in range(1, 7)]
    pairing = swiss(entrants, round_number=1, starters="by_lot")
    assert all(p.starter is None for p in pairing.pairs)


def test_window_gives_the_full_graph_optimum_on_simulated_tournaments():
    for players, seed in ((150, 1), (151, 2), (240, 3)):
        ledger = Ledger(range(1, players + 1), seed=seed)
        for number in range(1, 9):
            entrants = ledger.entrants()
            windowed = swiss(entrants, round_number=number)
            assert windowed == swiss(entrants, round_number=number, window=None)
            ledger.play(windowed, number)


def test_narrow_windows_widen_to_the_optimum():
    ledger = Ledger(range(1, 81), seed=5)
    for number in range(1, 7):
        entrants = ledger.entrants()
        full = swiss(entrants, round_number=number, window=None)
        for window in (1, 2, 4):
            assert swiss(entrants, round_number=number, window=window).weight == full.weight
        ledger.play(full, number)


def test_refuses_duplicates_and_history_from_the_future():
    with pytest.raises(PairingError):
        swiss([PairingEntrant(id=1, rank=1), PairingEntrant(id=1, rank=2)], round_number=1)
    with pytest.raises(PairingError):
        swiss(
            [PairingEntrant(id=1, rank=1, opponents=(PastGame(2, 3),)), PairingEntrant(2, 2)],
            round_number=3,
        )
    with pytest.raises(PairingError):
        swiss([PairingEntrant(id=1, rank=1)], round_number=1, starters="coin")


def test_empty_and_single_entrant():
    assert swiss([], round_number=1).pairs == ()
    alone = swiss([PairingEntrant(id=5, rank=1)], round_number=1)
    assert (alone.pairs, alone.bye) == ((), 5)


@pytest.mark.parametrize("seed", range(4))
def test_assigned_starters_stay_balanced_in_a_simulated_swiss(seed):
    """In a 40-player, 8-round Swiss with assigned starters: whenever a player has
    played an even number of games, they started exactly half of them, give or take
    one (|starts - games / 2| <= 1). A third start (or third wait) in a row happens
    only when the opponent had the same two in a row, so the table could not avoid it.
    """
    ledger = Ledger(range(1, 41), seed=seed)
    for number in range(1, 9):
        before = {e.id: e for e in ledger.entrants()}
        pairing = swiss(list(before.values()), round_number=number)
        ledger.play(pairing, number)
        for pair in pairing.pairs:
            a, b = before[pair.player_a], before[pair.player_b]
            for player, opponent in ((a, b), (b, a)):
                last_two = player.recent_starts[-2:]
                starts_now = pair.starter == player.id
                if len(last_two) == 2 and last_two[0] == last_two[1] == starts_now:
                    assert opponent.recent_starts[-2:] == last_two
        for record in ledger.records.values():
            if record.games % 2 == 0:
                assert abs(record.starts - record.games / 2) <= 1


def test_random_fields_are_paired_completely():
    rng = random.Random(7)
    for _ in range(20):
        count = rng.randint(1, 30)
        entrants = [
            PairingEntrant(id=i, rank=rng.randint(1, count), match_points=rng.randint(0, 6))
            for i in range(count)
        ]
        assert_everyone_once(entrants, swiss(entrants, round_number=1))


def test_the_worked_example_in_docs_pairing_md():
    rounds = {1: [(1, 2), (3, 4), (5, 6)], 2: [(1, 3), (2, 5), (4, 6)]}  # first starts
    points = {1: 3, 2: 3, 3: 2, 4: 2, 5: 2, 6: 0}
    board = {1: 820, 2: 790, 3: 800, 4: 760, 5: 700, 6: 640}
    history: dict[int, list[PastGame]] = {pid: [] for pid in points}
    for number, games in rounds.items():
        for a, b in games:
            history[a].append(PastGame(b, number, True))
            history[b].append(PastGame(a, number, False))
    entrants = [
        PairingEntrant(
            id=pid,
            rank=pid,
            match_points=points[pid],
            board_points=board[pid],
            starts=sum(bool(g.started) for g in history[pid]),
            games=2,
            recent_starts=tuple(bool(g.started) for g in history[pid]),
            opponents=tuple(history[pid]),
        )
        for pid in points
    ]
    pairing = swiss(entrants, round_number=3)
    assert [(p.player_a, p.player_b, p.starter) for p in pairing.pairs] == [
        (1, 5, 5),
        (2, 4, 4),
        (3, 6, 6),
    ]
    assert pairing.weight == 914_623_634_859_762_032
    assert [c.penalty for c in pairing.criteria[:6]] == [0, 0, 6, 3, 270, 0]
    weights = SwissWeights(entrants)
    assert weights.criteria(1, 2)[:6] == (1, 1, 0, 0, 30, 0)
    assert weights.criteria(1, 5)[:6] == (0, 0, 1, 1, 130, 0)
