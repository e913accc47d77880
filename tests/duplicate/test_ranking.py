"""The duplicate rankings as pure functions (no database)."""

from duplicate.ranking import evening_ranking, season_ranking
from rules.referee import SlipLine


def lines(*slips):
    """(player, turn, score) of each slip, as the ranking reads them."""
    return [SlipLine(*slip) for slip in slips]


def test_evening_percentages_tops_and_solos():
    tops = {1: 40, 2: 60}  # sum of the tops 100
    slips = lines((1, 1, 40), (1, 2, 30), (2, 1, 40), (2, 2, 60), (3, 1, 10), (3, 3, 99))
    rows = evening_ranking(tops, slips)
    assert [(r.player_id, r.total, r.percentage, r.tops, r.solos, r.rank) for r in rows] == [
        (2, 100, 100.0, 2, 1, 1),  # turn 2's top: player 2 alone
        (1, 70, 70.0, 1, 0, 2),  # turn 1's top: found by two, no solo
        (3, 10, 10.0, 0, 0, 3),  # turn 3 is not on the board yet: not counted
    ]


def test_season_average_with_the_best_evenings():
    evenings = [{1: 50.0, 2: 80.0}, {1: 90.0, 2: 70.0}, {1: 70.0}]
    rows = season_ranking(evenings)
    # 1: (50 + 90 + 70) / 3 = 70; 2: (80 + 70) / 2 = 75.
    assert [(r.player_id, r.evenings, r.counted, r.average, r.rank) for r in rows] == [
        (2, 2, 2, 75.0, 1),
        (1, 3, 3, 70.0, 2),
    ]
    best = season_ranking(evenings, best=2)
    # 1: (90 + 70) / 2 = 80; 2: (80 + 70) / 2 = 75.
    assert [(r.player_id, r.average, r.rank) for r in best] == [(1, 80.0, 1), (2, 75.0, 2)]
    assert [r.rank for r in season_ranking([{1: 50.0, 2: 50.0}])] == [1, 1]


def test_a_top_of_0_is_no_top_in_the_ranking_as_on_the_slip():
    # Turn 1's best play scores 0 (a rack of blanks): nobody finds it; turn 2's top of 22
    # is found by player 7 alone (`rules.duplicate.scores_top`, the slip's own mark).
    rows = evening_ranking({1: 0, 2: 22}, lines((7, 1, 0), (7, 2, 22), (8, 1, 0), (8, 2, 21)))
    assert [(r.player_id, r.total, r.tops, r.solos) for r in rows] == [(7, 22, 1, 1), (8, 21, 0, 0)]


def test_a_late_slip_counts_0_in_the_tally_until_accepted():
    # FISF-2023 §5.7: a slip written after the end of the turn is void (« nullité »).
    from duplicate.ranking import counted_score

    assert counted_score(74, late=True, accepted=False) == 0
    assert counted_score(74, late=True, accepted=True) == 74
    assert counted_score(74, late=False, accepted=False) == 74
    # Turn 1's top 40: player 1 in time, player 2 late with 40 too (counts 0): 1's solo.
    slips = [SlipLine(1, 1, 40), SlipLine(2, 1, 40, late=True)]
    rows = evening_ranking({1: 40}, slips)
    assert [(r.player_id, r.total, r.tops, r.solos) for r in rows] == [(1, 40, 1, 1), (2, 0, 0, 0)]
