"""King of the Hill, random, first round by rating or seed, the dispatcher."""

from __future__ import annotations

import pytest

from pairing.core import (
    PairingEntrant,
    PairingError,
    PastGame,
    by_rating,
    king_of_the_hill,
    pair,
    random_pairing,
)


def standings(count, **fields):
    return [PairingEntrant(id=100 + rank, rank=rank, **fields) for rank in range(1, count + 1)]


def games(pairing):
    return [(p.player_a, p.player_b) for p in pairing.pairs]


def test_king_of_the_hill_pairs_neighbours_in_the_standings():
    entrants = standings(6)
    pairing = king_of_the_hill(list(reversed(entrants)))
    assert games(pairing) == [(101, 102), (103, 104), (105, 106)]
    assert [p.table for p in pairing.pairs] == [1, 2, 3]
    assert pairing.bye is None and pairing.system == "king_of_the_hill"


def test_king_of_the_hill_gives_the_bye_first_and_allows_repeats():
    entrants = [
        PairingEntrant(id=1, rank=1, opponents=(PastGame(2, 1),)),
        PairingEntrant(id=2, rank=2, opponents=(PastGame(1, 1),)),
        PairingEntrant(id=3, rank=3, byes=1),
        PairingEntrant(id=4, rank=4),
        PairingEntrant(id=5, rank=5),
    ]
    pairing = king_of_the_hill(entrants)
    assert pairing.bye == 5
    assert games(pairing) == [(1, 2), (3, 4)]
    assert pairing.pairs[0].meetings == 1


def test_by_rating_slide_pairs_top_half_against_bottom_half():
    entrants = [PairingEntrant(id=i, rank=1, rating=2000 - 10 * i) for i in range(1, 9)]
    pairing = by_rating(entrants)  # 1..8 by rating
    assert games(pairing) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_by_rating_fold_and_adjacent():
    entrants = [PairingEntrant(id=i, rank=1, rating=2000 - 10 * i) for i in range(1, 7)]
    assert games(by_rating(entrants, method="fold")) == [(1, 6), (2, 5), (3, 4)]
    assert games(by_rating(entrants, method="adjacent")) == [(1, 2), (3, 4), (5, 6)]


def test_by_rating_odd_field_gives_the_weakest_the_bye_and_unrated_go_last():
    entrants = [PairingEntrant(id=i, rank=1, rating=1500 + i) for i in range(1, 5)]
    entrants.append(PairingEntrant(id=9, rank=1))  # unrated
    pairing = by_rating(entrants)
    assert pairing.bye == 9
    assert games(pairing) == [(4, 2), (3, 1)]


def test_by_seed_orders_by_seed():
    entrants = [PairingEntrant(id=i, rank=1, seed=5 - i, rating=i) for i in range(1, 5)]
    assert games(pair("seed", entrants)) == [(4, 2), (3, 1)]


def test_first_round_starters_alternate_by_table():
    pairing = by_rating([PairingEntrant(id=i, rank=i, rating=-i) for i in range(1, 9)])
    assert [p.starter for p in pairing.pairs] == [1, 6, 3, 8]


def test_random_pairing_is_reproducible_from_its_seed_and_ignores_input_order():
    entrants = standings(21)
    first = random_pairing(entrants, seed=42)
    assert random_pairing(list(reversed(entrants)), seed=42) == first
    assert random_pairing(entrants, seed=43) != first
    assert first.bye == 121
    assert sorted(first.player_ids()) == sorted(e.id for e in entrants)


def test_dispatcher_knows_the_command_line_names():
    entrants = standings(4, match_points=0)
    assert pair("koth", entrants).system == "king_of_the_hill"
    assert pair("swiss", entrants, round_number=1).system == "swiss"
    assert pair("random", entrants, seed=1).system == "random"
    assert pair("rating", entrants, method="adjacent").system == "by_rating"
    with pytest.raises(PairingError):
        pair("dutch", entrants)
    with pytest.raises(PairingError):
        pair("koth", entrants, seed=3)
    with pytest.raises(PairingError):
        pair("rating", entrants, method="zigzag")
