"""The NTSV ranking's arithmetic (ranking/core.py): hand-worked expectations, the arithmetic
beside each, and properties that hold for any game and any season (Hypothesis)."""

from __future__ import annotations

import itertools
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from ranking.core import (
    Result,
    SeasonRules,
    Status,
    club_ranking,
    game_percentages,
    months_before,
    season_ranking,
)

# ---------------------------------------------------------------- one game


def test_the_formula_by_hand():
    # winner 900, median 600 (5 players: the third), GV 20: VIW = 300.
    # 800: 100 − 100 × 20 / 300 = 93.333…; 600: 100 − 300 × 20 / 300 = 80;
    # 450: 100 − 450 × 20 / 300 = 70; 300: 100 − 600 × 20 / 300 = 60.
    got = game_percentages([800, 900, 600, 450, 300], 20)
    assert got == [Fraction(280, 3), 100, 80, 70, 60]


def test_even_number_of_players_takes_the_mean_of_the_middle_two():
    # 4 players: median (700 + 500) / 2 = 600; VIW = 900 − 600 = 300; GV 25:
    # 700: 100 − 200 × 25 / 300 = 83.333…; 500: 100 − 400 × 25 / 300 = 66.666…
    got = game_percentages([900, 700, 500, 100], 25)
    # 100: 100 − 800 × 25 / 300 = 33.333…
    assert got == [100, Fraction(250, 3), Fraction(200, 3), Fraction(100, 3)]


def test_a_decimal_gap_value_is_exact():
    # GV 17.5: the median player scores exactly 82.5.
    assert game_percentages([500, 400, 300], Decimal("17.5"))[1] == Fraction(165, 2)


def test_a_value_below_zero_counts_as_zero():
    # winner 900, median 850 (VIW 50), GV 20: 300 gives 100 − 600 × 20 / 50 = −140 → 0;
    # 700 gives 100 − 200 × 20 / 50 = 20.
    assert game_percentages([900, 850, 850, 700, 300], 20) == [100, 80, 80, 20, 0]


def test_a_single_player_scores_100():
    assert game_percentages([431], 20) == [100]


def test_all_equal_score_100():
    assert game_percentages([400, 400, 400, 400], 20) == [100, 100, 100, 100]


def test_no_gap_to_scale_by_gives_the_winner_100_and_the_rest_the_median_value():
    # [500, 500, 500, 420, 0]: the median is 500, VIW = 0: the formula divides by 0.
    assert game_percentages([500, 500, 500, 420, 0], 20) == [100, 100, 100, 80, 80]


def test_two_players():
    # median (500 + 300) / 2 = 400, VIW 100; the other: 100 − 200 × 20 / 100 = 60 = 100 − 2 GV.
    assert game_percentages([500, 300], 20) == [100, 60]


def test_no_players():
    assert game_percentages([], 20) == []


games = st.lists(st.integers(min_value=-50, max_value=2000), min_size=1, max_size=40)
gaps = st.decimals(min_value=Decimal("0.001"), max_value=Decimal(100), places=3)


@given(games, gaps)
def test_every_percentage_lies_between_0_and_100_and_the_winner_has_100(points, gap):
    got = game_percentages(points, gap)
    assert all(0 <= p <= 100 for p in got)
    assert all(p == 100 for p, x in zip(got, points, strict=True) if x == max(points))


@given(games, gaps)
def test_more_points_never_give_a_lower_percentage(points, gap):
    got = game_percentages(points, gap)
    ordered = sorted(zip(points, got, strict=True))
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(ordered))


@given(games, gaps)
def test_the_median_player_scores_100_minus_gv(points, gap):
    got = dict(zip(points, game_percentages(points, gap), strict=True))
    middle = sorted(points)[len(points) // 2]
    if len(points) % 2 and middle != max(points):
        assert got[middle] == 100 - Fraction(gap)


@given(games, gaps, st.integers(min_value=-500, max_value=500))
def test_adding_the_same_points_to_everyone_changes_nothing(points, gap, shift):
    assert game_percentages(points, gap) == game_percentages([p + shift for p in points], gap)


# ---------------------------------------------------------------- a season

JAN, MAR, MAY = date(2026, 1, 10), date(2026, 3, 7), date(2026, 5, 2)


def r(person, game, event, day, percentage, club=None, interclub=True):
    return Result(person, game, event, day, percentage, club, interclub)


def test_best_n_count_and_the_rest_is_listed_as_not_best():
    # An: 90, 70, 80, 100; best 3: (100 + 90 + 80) / 3 = 90; 70 is not among them.
    rows = [r("An", 1, 1, JAN, 90.0), r("An", 2, 1, JAN, 70.0)]
    rows += [r("An", 3, 2, MAR, 80.0), r("An", 4, 2, MAR, 100.0)]
    ranking = season_ranking(rows, SeasonRules(counted_results=3), on=date(2026, 12, 31))
    (an,) = ranking.persons
    assert (an.rank, an.average, an.counted, an.games) == (1, 90.0, 3, 4)
    assert [(line.result.percentage, line.status) for line in an.results] == [
        (100.0, Status.COUNTED),
        (90.0, Status.COUNTED),
        (80.0, Status.COUNTED),
        (70.0, Status.NOT_BEST),
    ]


def test_minimum_games_and_share_of_interclubs():
    # Three interclubs and an open tournament; share 50%: ceil(3 × 50 / 100) = 2 interclubs.
    # An: interclubs 1 and 2 (2 games): ranked. Bert: interclub 3 and the open event:
    # 2 games but 1 interclub: unranked. Cor: 1 game: too few (min 2) and too few interclubs.
    rows = [r("An", 1, 1, JAN, 80.0), r("An", 2, 2, MAR, 60.0)]
    rows += [r("Bert", 3, 3, MAY, 99.0), r("Bert", 4, 4, MAY, 99.0, interclub=False)]
    rows += [r("Cor", 1, 1, JAN, 100.0)]
    ranking = season_ranking(rows, SeasonRules(min_games=2, min_interclub_share=50), MAY)
    assert (ranking.interclubs, ranking.interclubs_needed) == (3, 2)
    got = [(p.person, p.rank, p.too_few_games, p.too_few_interclubs) for p in ranking.persons]
    # the unranked after the ranked, by average: Cor (100) before Bert (99)
    assert got == [("An", 1, False, False), ("Cor", None, True, True), ("Bert", None, False, True)]


def test_the_share_counts_only_interclubs_played_by_the_date():
    # On 1 February only interclub 1 was played: ceil(1 × 34 / 100) = 1, and Bert (who
    # plays from March) is not in the ranking yet.
    rows = [r("An", 1, 1, JAN, 80.0), r("Bert", 2, 2, MAR, 90.0)]
    ranking = season_ranking(rows, SeasonRules(min_interclub_share=34), on=date(2026, 2, 1))
    assert (ranking.interclubs, ranking.interclubs_needed) == (1, 1)
    assert [(p.person, p.rank) for p in ranking.persons] == [("An", 1)]
    (an,) = season_ranking([*rows, r("An", 3, 2, MAR, 10.0)], SeasonRules(), JAN).persons
    assert [line.status for line in an.results] == [Status.COUNTED, Status.LATER]


def test_a_result_drops_out_after_its_months():
    # 12 months: on 10 January 2027 the game of 10 January 2026 is out, the March one in.
    rows = [r("An", 1, 1, JAN, 100.0), r("An", 2, 2, MAR, 50.0)]
    rules = SeasonRules(result_months=12)
    (before,) = season_ranking(rows, rules, on=date(2027, 1, 9)).persons
    (after,) = season_ranking(rows, rules, on=date(2027, 1, 10)).persons
    assert (before.average, after.average) == (75.0, 50.0)
    assert [line.status for line in after.results] == [Status.DROPPED_OUT, Status.COUNTED]


def test_equal_averages_share_a_rank():
    rows = [r("An", 1, 1, JAN, 80.0), r("Bert", 1, 1, JAN, 80.0), r("Cor", 1, 1, JAN, 70.0)]
    ranking = season_ranking(rows, SeasonRules(), on=JAN)
    assert [(p.rank, p.person) for p in ranking.persons] == [(1, "An"), (1, "Bert"), (3, "Cor")]


def test_equal_averages_summed_in_another_order_still_share_a_rank():
    # 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit when added in order.
    rows = [r("An", g, g, JAN, p) for g, p in ((1, 0.1), (2, 0.2), (3, 0.3))]
    rows += [r("Bert", g, g, JAN, p) for g, p in ((4, 0.3), (5, 0.2), (6, 0.1))]
    assert [p.rank for p in season_ranking(rows, SeasonRules(), on=JAN).persons] == [1, 1]


def test_the_club_ranking_takes_each_clubs_best_n_and_counts_missing_ones_as_zero():
    # best 3: X has 90, 80, 70 (60 left out): 240 / 3 = 80; Y has one 100: 100 / 3 = 33.33…
    rows = [r("An", 1, 1, JAN, 90.0, "X"), r("An", 2, 1, JAN, 60.0, "X")]
    rows += [r("Cor", 1, 1, JAN, 80.0, "X"), r("Dirk", 1, 1, JAN, 70.0, "X")]
    rows += [r("Bert", 1, 1, JAN, 100.0, "Y"), r("Guest", 1, 1, JAN, 95.0, None)]
    clubs = season_ranking(rows, SeasonRules(club_results=3), on=JAN).clubs
    assert [(c.rank, c.club, c.results) for c in clubs] == [(1, "X", 4), (2, "Y", 1)]
    assert clubs[0].score == 80.0 and abs(clubs[1].score - 100 / 3) < 1e-12
    assert [x.percentage for x in clubs[0].counted] == [90.0, 80.0, 70.0]


def test_the_club_ranking_leaves_out_results_that_dropped_out():
    rows = [r("An", 1, 1, JAN, 90.0, "X"), r("Bert", 2, 2, MAR, 60.0, "Y")]
    clubs = season_ranking(rows, SeasonRules(result_months=1, club_results=1), MAR).clubs
    assert [(c.club, c.score) for c in clubs] == [("Y", 60.0)]


def test_equal_club_scores_share_a_rank():
    rows = {"X": [r("An", 1, 1, JAN, 50.0)], "Y": [r("Bert", 1, 1, JAN, 50.0)]}
    assert [c.rank for c in club_ranking(rows, 1)] == [1, 1]


def test_months_before_keeps_the_day_or_takes_the_months_last():
    assert months_before(date(2026, 5, 31), 3) == date(2026, 2, 28)
    assert months_before(date(2028, 3, 31), 1) == date(2028, 2, 29)
    assert months_before(date(2026, 1, 15), 1) == date(2025, 12, 15)


persons = st.sampled_from(["An", "Bert", "Cor", "Dirk", "Eva"])
results = st.lists(
    st.builds(
        r,
        persons,
        st.integers(1, 12),
        st.integers(1, 6),
        st.dates(date(2025, 6, 1), date(2026, 12, 31)),
        st.floats(0, 100),
        st.sampled_from(["X", "Y", None]),
        st.booleans(),
    ),
    max_size=40,
)
season_rules = st.builds(
    SeasonRules,
    min_games=st.integers(0, 5),
    min_interclub_share=st.integers(0, 100),
    counted_results=st.none() | st.integers(1, 6),
    result_months=st.none() | st.integers(1, 24),
    club_results=st.integers(1, 8),
)


@given(results, season_rules, st.dates(date(2025, 6, 1), date(2027, 6, 1)))
def test_every_person_once_ranked_before_unranked_and_ranks_follow_averages(rows, rules, on):
    ranking = season_ranking(rows, rules, on)
    playing = {line.person for line in rows if line.date <= on}
    listed = [p.person for p in ranking.persons]
    assert len(listed) == len(set(listed)) and set(listed) <= playing
    assert all(p.games > 0 for p in ranking.persons)
    flags = [p.ranked for p in ranking.persons]
    assert flags == sorted(flags, reverse=True)
    ranked = [p for p in ranking.persons if p.ranked]
    for a, b in itertools.pairwise(ranked):
        assert a.average >= b.average - 1e-9 and a.rank <= b.rank
    for person in ranked:
        assert person.games >= rules.min_games
        assert person.interclubs >= ranking.interclubs_needed


@given(results, season_rules, st.dates(date(2025, 6, 1), date(2027, 6, 1)))
def test_the_average_is_of_the_best_counted_results(rows, rules, on):
    for person in season_ranking(rows, rules, on).persons:
        counted = [line.result.percentage for line in person.results if line.counted]
        others = [
            line.result.percentage for line in person.results if line.status is Status.NOT_BEST
        ]
        assert len(counted) == person.counted
        assert rules.counted_results is None or len(counted) <= rules.counted_results
        assert all(c >= o for c in counted for o in others)
        assert abs(person.average - sum(counted) / len(counted)) < 1e-9
        for line in person.results:
            assert (line.status is Status.LATER) == (line.result.date > on)


@given(results, season_rules, st.dates(date(2025, 6, 1), date(2027, 6, 1)))
def test_a_later_result_never_changes_the_ranking_of_an_earlier_date(rows, rules, on):
    later = [r("Zoe", 99, 99, on + timedelta(days=1), 100.0, "X")]
    before = season_ranking(rows, rules, on)
    after = season_ranking(rows + later, rules, on)
    assert [(p.person, p.rank, p.average) for p in before.persons] == [
        (p.person, p.rank, p.average) for p in after.persons
    ]
    assert before.clubs == after.clubs
