"""Every engine says which it is and why, in codes and parameters (issue 38, point 3).

Small fields worked out by hand: who met whom, how many repeats no pairing can avoid,
who gets the bye and by which part of the rule.
"""

from __future__ import annotations

import json

from pairing.core import (
    Explanation,
    PairingEntrant,
    PastGame,
    PastTable,
    golfer_tables,
    king_of_the_hill,
    pair,
    random_pairing,
    random_tables,
    round_robin,
    standings_tables,
    swiss,
    swiss_tables,
)

A, B, C, D, E = 1, 2, 3, 4, 5


def entrant(id: int, rank: int, *, mp: float = 0, bp: int = 0, byes: int = 0, met=()):
    return PairingEntrant(
        id=id,
        rank=rank,
        match_points=mp,
        board_points=bp,
        byes=byes,
        opponents=tuple(PastGame(opponent, round_number) for opponent, round_number in met),
    )


def test_swiss_avoids_the_two_repeats_of_pairing_straight_down():
    # Round 1: A – B and C – D, both drawn: 1 match point each, board points A > B > C > D.
    # Straight down the standings is A – B, C – D again: 2 repeats. A – C, B – D (or A – D,
    # B – C) has none, so the matching avoids both and leaves none.
    field = [
        entrant(A, 1, mp=1, bp=400, met=[(B, 1)]),
        entrant(B, 2, mp=1, bp=390, met=[(A, 1)]),
        entrant(C, 3, mp=1, bp=380, met=[(D, 1)]),
        entrant(D, 4, mp=1, bp=370, met=[(C, 1)]),
    ]
    result = swiss(field, round_number=2)
    assert result.explanation == Explanation.of(
        "swiss",
        "optimal_matching",
        repeats_left=0,
        repeats_avoided=2,
        floaters=0,
        bye_to=None,
        bye_reason=None,
    )


def test_swiss_says_when_every_repeat_is_unavoidable():
    # Four players after a full round robin (rounds 1–3): everyone met everyone, so any
    # pairing of round 4 has two pairs that meet again, and straight down has two too.
    everyone = {A, B, C, D}
    field = [
        entrant(p, p, mp=3 - p / 2, met=[(q, q + p) for q in sorted(everyone - {p})])
        for p in (A, B, C, D)
    ]
    explanation = swiss(field, round_number=9).explanation
    assert explanation is not None
    assert explanation.param("repeats_left") == 2
    assert explanation.param("repeats_avoided") == 0


def test_the_bye_goes_to_the_lowest_placed_when_nobody_had_one():
    field = [entrant(p, p) for p in (A, B, C, D, E)]
    explanation = swiss(field, round_number=1).explanation
    assert explanation is not None
    assert (explanation.param("bye_to"), explanation.param("bye_reason")) == (E, "lowest_placed")


def test_the_bye_skips_whoever_had_one():
    # E, the lowest, had the bye in round 1: D is the lowest without a bye.
    field = [entrant(p, p, byes=1 if p == E else 0) for p in (A, B, C, D, E)]
    for result in (swiss(field, round_number=2), king_of_the_hill(field)):
        explanation = result.explanation
        assert explanation is not None
        assert explanation.param("bye_to") == D
        assert explanation.param("bye_reason") == "lowest_without_bye"


def test_when_everyone_had_a_bye_the_lowest_with_the_fewest_gets_it():
    # Everyone had one, C and E two: the lowest of A, B, D.
    field = [entrant(p, p, byes=2 if p in (C, E) else 1) for p in (A, B, C, D, E)]
    explanation = swiss(field, round_number=7).explanation
    assert explanation is not None
    assert (explanation.param("bye_to"), explanation.param("bye_reason")) == (D, "fewest_byes")


def test_round_robin_names_its_round_of_the_schedule():
    # Five players: a dummy makes six, five rounds; in Berger round 1 of six, player 6 (the
    # dummy) meets player 1, so the first by seed (A, seed order = id here) has the bye.
    field = [entrant(p, p) for p in (A, B, C, D, E)]
    explanation = round_robin(field, round_number=1).explanation
    assert explanation == Explanation.of(
        "round_robin",
        "berger",
        schedule_round=1,
        schedule_rounds=5,
        double=False,
        repeats_left=0,
        bye_to=A,
        bye_reason="schedule",
    )
    double = round_robin(field[:4], round_number=5, double=True).explanation
    assert double is not None
    assert double.param("schedule_rounds") == 6 and double.param("bye_to") is None


def test_king_of_the_hill_counts_the_repeats_it_allows():
    # Straight down: A – B met in round 1 and meet again; C – D did not meet.
    field = [
        entrant(A, 1, met=[(B, 1)]),
        entrant(B, 2, met=[(A, 1)]),
        entrant(C, 3),
        entrant(D, 4),
    ]
    explanation = king_of_the_hill(field).explanation
    assert explanation is not None
    assert (explanation.system, explanation.method) == ("king_of_the_hill", "standings_order")
    assert explanation.param("repeats_left") == 1


def test_random_and_by_rating_say_how():
    field = [entrant(p, p) for p in (A, B, C, D)]
    drawn = random_pairing(field, seed=42).explanation
    assert drawn is not None
    assert (drawn.method, drawn.param("seed")) == ("draw", 42)
    rated = pair("seed", field).explanation
    assert rated is not None
    assert (rated.system, rated.method, rated.param("order_by")) == ("by_rating", "slide", "seed")


def test_tables_say_their_sizes_repeats_and_method():
    # Seven players at a table of 4 and one of 3; A, B and C sat at one table in round 1.
    # Three of them at two tables: two share one, so one pair meets again whatever the
    # grouping (A – B together, C at the other table), and no more need to.
    field = [entrant(p, p) for p in range(1, 8)]
    history = [PastTable(1, (A, B, C))]
    result = swiss_tables(field, [4, 3], history)
    explanation = result.explanation
    assert explanation is not None
    assert (explanation.system, explanation.method) == ("swiss", "exact")
    assert explanation.param("sizes") == "4+3"
    assert explanation.param("repeats_left") == 1
    assert explanation.param("bye_to") is None

    kept = standings_tables(field, [4, 3], history).explanation
    assert kept is not None and kept.method == "standings_order"
    assert kept.param("repeats_left") == 3  # A, B, C at table 1 again: three pairs
    drawn = random_tables(field, [4, 3], history, seed=7).explanation
    assert drawn is not None and (drawn.method, drawn.param("seed")) == ("draw", 7)


def test_the_golfer_round_says_it_follows_the_schedule():
    # Nine players at tables of 3, round 1: the affine plane's first round, no repeats.
    field = [entrant(p, p) for p in range(1, 10)]
    explanation = golfer_tables(field, [3, 3, 3], round_number=1).explanation
    assert explanation is not None
    assert (explanation.system, explanation.method) == ("golfer", "schedule")
    assert explanation.param("schedule_round") == 1
    assert explanation.param("repeats_left") == 0


def test_a_table_round_with_a_bye_names_it():
    # Five at tables of 4: one left over gets the bye by the common rule.
    field = [entrant(p, p) for p in (A, B, C, D, E)]
    explanation = swiss_tables(field, [4]).explanation
    assert explanation is not None
    assert (explanation.param("bye_to"), explanation.param("bye_reason")) == (E, "lowest_placed")


def test_an_explanation_is_plain_json_of_codes():
    field = [entrant(p, p) for p in (A, B, C, D, E)]
    explanation = swiss(field, round_number=1).explanation
    assert explanation is not None
    kept = json.loads(json.dumps(explanation.to_dict()))
    assert kept == {
        "system": "swiss",
        "method": "optimal_matching",
        "params": {
            "bye_reason": "lowest_placed",
            "bye_to": E,
            "floaters": 0,
            "repeats_avoided": 0,
            "repeats_left": 0,
        },
    }
