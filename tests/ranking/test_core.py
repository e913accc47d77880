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
    ClubGame,
    ClubMethod,
    Result,
    SeasonRules,
    Status,
    club_ranking,
    club_ranking_by_places,
    game_percentages,
    game_places,
    months_before,
    season_ranking,
    stored_percentages,
)

AVERAGE = ClubMethod.AVERAGE

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


def r(person, game, event, day, percentage, club=None, interclub=True, place=None):
    return Result(person, game, event, day, percentage, club, interclub, place)


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
    clubs = season_ranking(rows, SeasonRules(club_method=AVERAGE, club_results=3), on=JAN).clubs
    assert [(c.rank, c.club, c.results) for c in clubs] == [(1, "X", 4), (2, "Y", 1)]
    assert clubs[0].score == 80.0 and abs(clubs[1].score - 100 / 3) < 1e-12
    assert [x.percentage for x in clubs[0].counted] == [90.0, 80.0, 70.0]


def test_the_club_ranking_leaves_out_results_that_dropped_out():
    rows = [r("An", 1, 1, JAN, 90.0, "X"), r("Bert", 2, 2, MAR, 60.0, "Y")]
    rules = SeasonRules(result_months=1, club_method=AVERAGE, club_results=1)
    clubs = season_ranking(rows, rules, MAR).clubs
    assert [(c.club, c.score) for c in clubs] == [("Y", 60.0)]


def test_equal_club_scores_share_a_rank():
    rows = {"X": [r("An", 1, 1, JAN, 50.0)], "Y": [r("Bert", 1, 1, JAN, 50.0)]}
    assert [c.rank for c in club_ranking(rows, 1)] == [1, 1]


def test_the_share_applies_from_the_seasons_count_of_interclubs():
    # HR 5.7: 33 % only when the season counts more than ten interclubs (from 11), and then
    # in its interim standings too: after 3 held ceil(3 × 0.33) = 1, after 4 ceil(1.32) = 2.
    rules = SeasonRules(min_interclub_share=33, share_from_interclubs=11)
    three = [r("An", n, n, JAN, 80.0) for n in (1, 2, 3)]
    four = [*three, r("An", 4, 4, JAN, 80.0)]
    assert season_ranking(three, rules, MAY, season_interclubs=14).interclubs_needed == 1
    assert season_ranking(four, rules, MAY, season_interclubs=14).interclubs_needed == 2
    # A season of ten: no share at all, interim or final.
    assert season_ranking(four, rules, MAY, season_interclubs=10).interclubs_needed == 0
    # Interclubs held count as well when the calendar knows fewer (imported ones).
    eleven = [r("An", n, n, JAN, 80.0) for n in range(11)]
    assert season_ranking(eleven, rules, MAY).interclubs_needed == 4  # ceil(11 × 0.33)


def test_places_share_the_better_place_when_points_are_equal():
    assert game_places([500, 700, 500, 300, 700]) == [3, 1, 3, 5, 1]
    assert game_places([]) == []


def test_the_club_ranking_by_places_by_hand():
    # Two players count, 50 % of the interclub games, 500 for each missing one.
    # Game 1: An (X) 1, a guest 2 (her place is taken, she scores for no club), Bert (Y)
    #   and Cor (X) share 3, Dirk (Y) 5, Eva (Z) 6: X 1 + 3 = 4, Y 3 + 5 = 8; Z has one
    #   player: no score.
    # Game 2: Bert (Y) 1, An (X) 2, Cor, now for Y, 3, Dirk (Y) 4, Eva (Z) 5, Fien (Z) 6:
    #   Y 1 + 3 = 4 (Dirk's 4 not among the best two), Z 5 + 6 = 11; X has only An.
    # Game 3: An (X) 1, Cor (X) 2, Bert (Y) 3, Dirk (Y) 4: X 3, Y 7.
    # An open tournament's places count for no club.
    # 3 games held, ceil(3 × 50 / 100) = 2 kept: X 4 + 3 = 7; Y 4 + 7 = 11 (8 left out);
    # Z 11 + 500 = 511.
    played = {
        (1, JAN): [
            ("An", "X", 1),
            ("Guest", None, 2),
            ("Bert", "Y", 3),
            ("Cor", "X", 3),
            ("Dirk", "Y", 5),
            ("Eva", "Z", 6),
        ],
        (2, MAR): [
            ("Bert", "Y", 1),
            ("An", "X", 2),
            ("Cor", "Y", 3),
            ("Dirk", "Y", 4),
            ("Eva", "Z", 5),
            ("Fien", "Z", 6),
        ],
        (3, MAY): [("An", "X", 1), ("Cor", "X", 2), ("Bert", "Y", 3), ("Dirk", "Y", 4)],
    }
    rows = [
        r(person, game, game, day, 50.0, club, place=place)
        for (game, day), players in played.items()
        for person, club, place in players
    ]
    rows += [r("Eva", 4, 4, MAY, 50.0, "Z", interclub=False, place=1)]
    rows += [r("Fien", 4, 4, MAY, 50.0, "Z", interclub=False, place=2)]
    rules = SeasonRules(club_players=2, club_share=50, club_missing_points=500)
    ranking = season_ranking(rows, rules, on=date(2026, 12, 31))
    assert ranking.club_games_counted == 2
    assert [(g.game, g.club, g.points, g.place) for g in ranking.club_games] == [
        (1, "X", 4, 1),
        (1, "Y", 8, 2),
        (2, "Y", 4, 1),
        (2, "Z", 11, 2),
        (3, "X", 3, 1),
        (3, "Y", 7, 2),
    ]
    got = [(c.rank, c.club, c.score, c.results, c.missing) for c in ranking.clubs]
    assert got == [(1, "X", 7.0, 2, 0), (2, "Y", 11.0, 3, 0), (3, "Z", 511.0, 1, 1)]
    assert [g.game for g in ranking.clubs[1].games] == [2, 3]
    assert [p.person for p in ranking.clubs[1].games[0].players] == ["Bert", "Cor"]


def test_equal_sums_of_places_share_a_rank():
    games = [ClubGame("X", 1, 1, JAN, 6, 1, ()), ClubGame("Y", 1, 1, JAN, 6, 1, ())]
    assert [(c.rank, c.score) for c in club_ranking_by_places(games, 1, 500)] == [(1, 6), (1, 6)]


@st.composite
def a_club_beaten_every_time(draw):
    """Interclub games in which club A's i-th best player is always placed above club B's
    i-th best (A beats B in every game), among others of club C and guests. Returns the
    results (percentages and places from the same points) and the number of players a
    club has in each game."""
    pairs = draw(st.integers(1, 3))
    rows = []
    for game in range(draw(st.integers(1, 5))):
        size = 2 * pairs + draw(st.integers(0, 5))
        points = draw(st.lists(st.integers(0, 999), min_size=size, max_size=size, unique=True))
        points.sort(reverse=True)
        chosen = sorted(draw(st.permutations(range(size)))[: 2 * pairs])
        owner = {chosen[2 * i]: ("A", i) for i in range(pairs)}
        owner |= {chosen[2 * i + 1]: ("B", i) for i in range(pairs)}
        percentages = game_percentages(points, 20)
        places = game_places(points)
        day = JAN + timedelta(days=7 * game)
        for index in range(size):
            club, person = owner.get(index, (draw(st.sampled_from(["C", None])), index))
            rows.append(
                r(
                    f"{club}{person}" if index in owner else f"other-{game}-{person}",
                    game,
                    game,
                    day,
                    float(percentages[index]),
                    club,
                    place=places[index],
                )
            )
    return rows, pairs


@given(a_club_beaten_every_time(), st.data())
def test_a_club_that_beats_another_in_every_interclub_ranks_above_it_both_ways(played, data):
    rows, pairs = played
    places = SeasonRules(
        club_players=data.draw(st.integers(1, pairs)), club_share=data.draw(st.integers(1, 100))
    )
    average = SeasonRules(club_method=AVERAGE, club_results=data.draw(st.integers(1, 8)))
    on = date(2026, 12, 31)
    by_places = {c.club: c.rank for c in season_ranking(rows, places, on).clubs}
    by_average = {c.club: c.rank for c in season_ranking(rows, average, on).clubs}
    # Strictly above by places (each game's sum of places is lower); by average never
    # below (each percentage at least as high; 0 % and the equal-gap case can tie).
    assert by_places["A"] < by_places["B"]
    assert by_average["A"] <= by_average["B"]


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
        st.none() | st.integers(1, 20),
    ),
    max_size=40,
)
season_rules = st.builds(
    SeasonRules,
    min_games=st.integers(0, 5),
    min_interclub_share=st.integers(0, 100),
    counted_results=st.none() | st.integers(1, 6),
    result_months=st.none() | st.integers(1, 24),
    club_method=st.sampled_from(ClubMethod),
    club_results=st.integers(1, 8),
    club_players=st.integers(1, 3),
    club_share=st.integers(1, 100),
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


@given(games, gaps)
def test_the_stored_percentages_are_the_floats_nearest_the_exact_ones(points, gap):
    assert stored_percentages(points, gap) == [float(p) for p in game_percentages(points, gap)]
