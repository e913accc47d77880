"""The ratings (competition/core/ratings.py): Glickman's worked example, hand-worked periods
(a draw, an absentee, a table of 4, a flag fall, a corrected result), Elo, and properties:
winning never lowers a rating within a period, the order of games within a period does
not matter.

Hand arithmetic on the Glicko-2 scale (173.7178 = 400 / ln 10): a new player has
phi = 350 / 173.7178 = 2.01476, g(phi) = 1 / sqrt(1 + 3 · 2.01476² / pi²) = 0.66906.
"""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.core.ratings import (
    Period,
    Rating,
    Seat,
    Start,
    System,
    Table,
    compute,
    elo_expected,
    expected_score,
    glicko2_update,
    ranked,
    table_games,
)


def duel(a: int, points_a: int, b: int, points_b: int, *, flag: int | None = None) -> Table:
    return Table((Seat(a, points_a, flag == a), Seat(b, points_b, flag == b)))


def test_glickman_example_through_periods():
    """The paper: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300 ->
    1464.05 / 151.52 / 0.05999 (the paper prints 1464.06 from rounded steps)."""
    starts = {
        1: Start(1500, 200, 0.06),
        2: Start(1400, 30, 0.06),
        3: Start(1550, 100, 0.06),
        4: Start(1700, 300, 0.06),
    }
    period = Period("1", (duel(1, 400, 2, 300), duel(1, 300, 3, 400), duel(1, 300, 4, 400)))
    player = compute([period], starts=starts)[1]
    assert player.rating.rating == pytest.approx(1464.05, abs=0.005)
    assert player.rating.deviation == pytest.approx(151.52, abs=0.005)
    assert player.rating.volatility == pytest.approx(0.05999, abs=0.00001)
    assert player.games == 3
    assert player.history[0].score == 1.0
    # The paper's E values: 0.639, 0.432, 0.303 (step 3).
    assert [round(game.expected, 3) for game in player.history[0].games] == [0.639, 0.432, 0.303]


def test_a_draw_between_equals_keeps_the_rating_and_narrows_the_deviation():
    # s - E = 0: delta = 0, mu' = mu. v = 1 / (g² · 0.25) = 8.936;
    # phi' = 1 / sqrt(1 / (2.01476² + 0.06²) + 1 / 8.936) = 1.67121 -> 290.3.
    result = compute([Period("1", (duel(1, 350, 2, 350),))])
    for player in (1, 2):
        assert result[player].rating.rating == pytest.approx(1500, abs=1e-9)
        assert result[player].rating.deviation == pytest.approx(290.3, abs=0.1)
        assert result[player].provisional


def test_an_absent_player_keeps_the_rating_while_the_deviation_grows():
    # Step 6: phi* = sqrt(phi² + sigma²); 200 -> sqrt(200² + (0.06 · 173.7178)²) = 200.27.
    starts = {3: Start(1600, 200, 0.06)}
    first = Period("1", (duel(1, 400, 3, 300),))
    second = Period("2", (duel(1, 400, 2, 300),))
    after_first = compute([first], starts=starts)[3].rating
    after_both = compute([first, second], starts=starts)[3]
    assert after_both.rating.rating == after_first.rating
    assert after_both.rating.deviation == pytest.approx(
        math.sqrt(after_first.deviation**2 + (after_first.volatility * 173.7178) ** 2)
    )
    assert after_both.games == 1
    assert len(after_both.history) == 1  # the history lists the evenings played


def test_an_absent_players_deviation_grows_as_the_paper_says_from_a_known_start():
    starts = {3: Start(1600, 200, 0.06)}
    # Player 3 plays in period 2 only: enters then, and is not aged before that.
    periods = [Period("1", (duel(1, 400, 2, 300),)), Period("2", (duel(1, 400, 2, 300),))]
    result = compute(periods, starts=starts)
    assert 3 not in result
    grown = glicko2_update(Rating(1600, 200, 0.06), [])
    assert grown.deviation == pytest.approx(200.27, abs=0.005)


def test_the_deviation_never_grows_past_the_start():
    lonely = compute(
        [Period("1", (duel(1, 400, 2, 300),))] + [Period(str(n), ()) for n in range(400)]
    )
    assert lonely[1].rating.deviation == 350.0


def test_a_table_of_four_is_every_pair_one_game():
    four = Table((Seat(1, 400), Seat(2, 350), Seat(3, 300), Seat(4, 250)))
    pairs = tuple(
        duel(a, pa, b, pb)
        for (a, pa), (b, pb) in [
            ((1, 400), (2, 350)),
            ((1, 400), (3, 300)),
            ((1, 400), (4, 250)),
            ((2, 350), (3, 300)),
            ((2, 350), (4, 250)),
            ((3, 300), (4, 250)),
        ]
    )
    at_table = compute([Period("1", (four,))])
    as_pairs = compute([Period("1", pairs)])
    assert {p: r.rating for p, r in at_table.items()} == {p: r.rating for p, r in as_pairs.items()}
    # The winner, three wins against new players: v = 1 / (3 · g² · 0.25) = 2.9787,
    # sum g (s - E) = 3 · 0.66906 · 0.5 = 1.00359; phi' = 1 / sqrt(1/2.0157² + 1/2.9787)
    # = 1.31097; mu' = 1.31097² · 1.00359 = 1.7248 -> 1500 + 299.6.
    assert at_table[1].rating.rating == pytest.approx(1799.6, abs=0.5)
    assert at_table[1].games == 3
    # Symmetric: the loser goes down as far as the winner goes up.
    assert at_table[4].rating.rating == pytest.approx(3000 - at_table[1].rating.rating)
    assert at_table[2].rating.rating > 1500 > at_table[3].rating.rating


def test_a_flag_fall_loses_whatever_the_score():
    games = table_games(duel(1, 500, 2, 200, flag=1))
    assert [(g.player, g.score) for g in games] == [(1, 0.0), (2, 1.0)]
    three = Table((Seat(1, 500, True), Seat(2, 200, True), Seat(3, 100)))
    scores = {(g.player, g.opponent): g.score for g in table_games(three)}
    # Both flags fell between 1 and 2: the score decides; 3 beats both.
    assert scores[(1, 2)] == 1.0 and scores[(3, 1)] == 1.0 and scores[(3, 2)] == 1.0


def test_a_corrected_old_result_changes_every_later_rating():
    # Player 3 plays only in period 2, against player 2, whose rating came from period 1.
    later = Period("2", (duel(2, 400, 3, 300),))
    as_played = compute([Period("1", (duel(1, 400, 2, 300),)), later])
    corrected = compute([Period("1", (duel(1, 300, 2, 400),)), later])
    assert as_played[2].rating.rating < corrected[2].rating.rating
    # Player 3 lost to a weaker player 2 as played, so lost more than after the correction.
    assert as_played[3].rating.rating < corrected[3].rating.rating


def test_elo_by_hand():
    # Equal ratings: E = 0.5; a new player's K is 40 (+20), after 50 games 20 (+10).
    result = compute([Period("1", (duel(1, 400, 2, 300),))], system=System.ELO)
    assert result[1].rating == Rating(1520.0)
    assert result[2].rating == Rating(1480.0)
    assert result[1].provisional
    # 1 / (1 + e^(0.0031879 · 200)) = 1 / (1 + 1.8919) = 0.3458
    assert elo_expected(1500, 1700) == pytest.approx(0.3458, abs=0.0001)
    # Absent under Elo: nothing changes.
    again = compute(
        [Period("1", (duel(1, 400, 2, 300),)), Period("2", (duel(2, 400, 3, 300),))],
        system=System.ELO,
    )
    assert again[1].rating == Rating(1520.0)


def test_expected_score_and_the_list_order():
    assert expected_score(Rating(1600, 60), Rating(1400, 60)) == pytest.approx(
        1 - expected_score(Rating(1400, 60), Rating(1600, 60))
    )
    result = compute([Period("1", (duel(1, 300, 2, 400), duel(3, 350, 4, 350)))])
    assert [row.player for row in ranked(result)] == [2, 3, 4, 1]


def test_a_table_refuses_one_player_twice_and_odd_sizes():
    with pytest.raises(ValueError):
        Table((Seat(1, 3), Seat(1, 4)))
    with pytest.raises(ValueError):
        Table((Seat(1, 3),))


# --- Properties ----------------------------------------------------------------------------

PLAYERS = list(range(1, 9))


@st.composite
def periods(draw) -> list[Period]:
    result = []
    for index in range(draw(st.integers(1, 4))):
        present = draw(st.permutations(PLAYERS))[: draw(st.integers(2, 8))]
        tables = []
        rest = list(present)
        while len(rest) >= 2:
            size = min(draw(st.integers(2, 4)), len(rest))
            fell = draw(st.sampled_from([None, 0, 1])) if size == 2 else None  # never both
            seats = tuple(
                Seat(player, draw(st.integers(0, 3)), fell == index)
                for index, player in enumerate(rest[:size])
            )
            rest = rest[size:]
            tables.append(Table(seats))
        result.append(Period(str(index), tuple(tables)))
    return result


starts_strategy = st.dictionaries(
    st.sampled_from(PLAYERS),
    st.builds(
        Start,
        st.floats(800, 2200),
        st.floats(30, 350),
        st.floats(0.03, 0.09),
    ),
)


def _ratings(result):
    return {player: row.rating for player, row in result.items()}


@settings(max_examples=150, deadline=None)
@given(periods(), starts_strategy, st.sampled_from(list(System)), st.randoms())
def test_the_order_of_games_within_a_period_does_not_matter(history, starts, system, rnd):
    shuffled = []
    for period in history:
        tables = [Table(tuple(rnd.sample(t.seats, len(t.seats)))) for t in period.tables]
        rnd.shuffle(tables)
        shuffled.append(Period(period.key, tuple(tables)))
    plain = compute(history, starts=starts, system=system)
    other = compute(shuffled, starts=starts, system=system)
    assert _ratings(plain) == _ratings(other)
    assert {p: r.games for p, r in plain.items()} == {p: r.games for p, r in other.items()}


@settings(max_examples=150, deadline=None)
@given(periods(), starts_strategy, st.sampled_from(list(System)), st.integers(0, 10_000))
def test_winning_never_lowers_a_rating_within_a_period(history, starts, system, seed):
    """The last period's first two-seat game, played as a loss, a draw and a win by its
    first player: each better result gives that player at least as high a rating."""
    last = history[-1]
    duels = [i for i, t in enumerate(last.tables) if len(t.seats) == 2]
    if not duels:
        return
    index = random.Random(seed).choice(duels)
    first, second = last.tables[index].seats
    outcomes = []
    for points in (0, 1, 2):  # a loss, a draw, a win against a second player on 1
        tables = list(last.tables)
        tables[index] = Table((Seat(first.player, points), Seat(second.player, 1)))
        result = compute(
            [*history[:-1], Period(last.key, tuple(tables))], starts=starts, system=system
        )
        outcomes.append(result[first.player].rating.rating)
    assert outcomes[0] <= outcomes[1] <= outcomes[2]


@settings(max_examples=150, deadline=None)
@given(periods(), starts_strategy, st.sampled_from(list(System)))
def test_a_player_who_wins_every_game_of_a_period_does_not_go_down(history, starts, system):
    result = compute(history, starts=starts, system=system)
    for row in result.values():
        for change in row.history:
            if all(game.score == 1.0 for game in change.games):
                assert change.after.rating >= change.before.rating
            if all(game.score == 0.0 for game in change.games):
                assert change.after.rating <= change.before.rating
