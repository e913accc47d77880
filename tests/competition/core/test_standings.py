"""Tests for competition.core.standings: hand-computed tables, then properties.

Pure tests: no database, no Django. Each expected table is written out with the arithmetic
beside it. Columns of ``table()``: rank, name, games, wins, draws, losses, byes,
match points, board points, opponents' board points, spread.
"""

import itertools
import random
from dataclasses import astuple, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.core.standings import (
    EntrantRecord,
    GameRecord,
    RoundResult,
    StandingRow,
    StandingsSettings,
    compute,
    compute_by_group,
    running_totals,
)

ANNA, BERT, COR, DIRK, EVA, FEMKE = 1, 2, 3, 4, 5, 6
NAMES = {ANNA: "Anna", BERT: "Bert", COR: "Cor", DIRK: "Dirk", EVA: "Eva", FEMKE: "Femke"}


def entrants(*player_ids: int, group: str = "") -> list[EntrantRecord]:
    return [EntrantRecord(player_id, NAMES[player_id], group) for player_id in player_ids]


def played(round_number: int, a: int, b: int, score_a: int, score_b: int) -> GameRecord:
    """A normal game, winner by score."""
    winner = "a" if score_a > score_b else "b" if score_b > score_a else "draw"
    return GameRecord(round_number, a, b, score_a, score_b, "normal", winner)


def bye(round_number: int, player_id: int) -> GameRecord:
    return GameRecord(round_number, player_id, None, None, None, "bye", "a")


def forfeit(round_number: int, a: int, b: int, winner: str) -> GameRecord:
    return GameRecord(round_number, a, b, None, None, "forfeit", winner)


def table(rows: list[StandingRow]) -> list[tuple]:
    return [
        (
            row.rank,
            row.name,
            row.games,
            row.wins,
            row.draws,
            row.losses,
            row.byes,
            row.match_points,
            row.board_points,
            row.opponents_board_points,
            row.spread,
        )
        for row in rows
    ]


def ranks(rows: list[StandingRow]) -> list[tuple[int, str]]:
    return [(row.rank, row.name) for row in rows]


def by_name(rows: list[StandingRow]) -> dict[str, StandingRow]:
    return {row.name: row for row in rows}


# -- results ----------------------------------------------------------------------------

BYE_GAMES = [
    played(1, ANNA, BERT, 400, 300),
    bye(1, COR),
    played(2, BERT, COR, 350, 340),
    bye(2, ANNA),
]


def test_bye_with_zero_board_points():
    rows = compute(entrants(ANNA, BERT, COR), BYE_GAMES, StandingsSettings())
    assert table(rows) == [
        # Anna: win 400-300 (2) + bye (2, 0 bp) = 4 mp; 400 bp; spread +100
        (1, "Anna", 2, 1, 0, 0, 1, 4.0, 400, 300, 100),
        # Bert: loss 300-400 + win 350-340 = 2 mp; 650 bp; 400+340 = 740 against; -100+10
        (2, "Bert", 2, 1, 0, 1, 0, 2.0, 650, 740, -90),
        # Cor: bye (2, 0 bp) + loss 340-350 = 2 mp; 340 bp; spread -10
        (3, "Cor", 2, 0, 0, 1, 1, 2.0, 340, 350, -10),
    ]
    # averages per game counted, the bye included: Anna 4/2 mp, 400/2 bp
    assert rows[0].average_match_points == 2.0
    assert rows[0].average_board_points == 200.0


def test_bye_with_average_board_points():
    settings_ = StandingsSettings(bye_board_points="average")
    rows = compute(entrants(ANNA, BERT, COR), BYE_GAMES, settings_)
    assert table(rows) == [
        # Anna: 400 + bye worth her average 400/1 = 800 bp; the bye leaves spread alone
        (1, "Anna", 2, 1, 0, 0, 1, 4.0, 800, 300, 100),
        # Cor: 340 + bye worth 340/1 = 680 bp, now more than Bert's 300+350 = 650
        (2, "Cor", 2, 0, 0, 1, 1, 2.0, 680, 350, -10),
        (3, "Bert", 2, 1, 0, 1, 0, 2.0, 650, 740, -90),
    ]


def test_bye_average_is_over_the_games_up_to_the_standings_round_rounded_half_up():
    games = [
        bye(1, ANNA),
        played(2, ANNA, BERT, 301, 200),
        played(3, ANNA, BERT, 300, 200),
    ]
    settings_ = StandingsSettings(bye_board_points="average")

    def anna(after_round: int) -> StandingRow:
        return by_name(compute(entrants(ANNA, BERT), games, settings_, after_round=after_round))[
            "Anna"
        ]

    # after round 1: no played game yet, so the average is 0
    assert anna(1).board_points == 0
    # after round 2: bye = 301/1 = 301; 301 + 301
    assert anna(2).board_points == 602
    # after round 3: bye = (301+300)/2 = 300.5, rounded half up to 301; 301 + 301 + 300
    assert anna(3).board_points == 902


def test_flag_fall_the_higher_scorer_loses_and_scores_stand():
    games = [GameRecord(1, ANNA, BERT, 420, 380, "flag_fall", "b")]
    rows = compute(entrants(ANNA, BERT), games)
    assert table(rows) == [
        # Anna's flag fell: Bert wins 2 mp with 380; both keep their score, spread included
        (1, "Bert", 1, 1, 0, 0, 0, 2.0, 380, 420, -40),
        (2, "Anna", 1, 0, 0, 1, 0, 0.0, 420, 380, 40),
    ]


def test_single_forfeit_with_default_settings():
    games = [forfeit(1, ANNA, BERT, "b"), played(1, COR, DIRK, 300, 200)]
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games)
    assert table(rows) == [
        # Cor: 2 mp, 300 bp beats Bert's 2 mp, 0 bp (forfeit win: 2 mp, 0 bp)
        (1, "Cor", 1, 1, 0, 0, 0, 2.0, 300, 200, 100),
        (2, "Bert", 1, 1, 0, 0, 0, 2.0, 0, 0, 0),
        # Dirk 0 mp 200 bp; Anna forfeited: 0 mp, 0 bp, a lost game
        (3, "Dirk", 1, 0, 0, 1, 0, 0.0, 200, 300, -100),
        (4, "Anna", 1, 0, 0, 1, 0, 0.0, 0, 0, 0),
    ]


def test_forfeits_single_and_double_with_average_and_penalty():
    games = [
        played(1, ANNA, BERT, 300, 250),
        played(1, COR, DIRK, 280, 260),
        forfeit(2, ANNA, COR, "a"),  # Cor forfeits
        forfeit(2, BERT, DIRK, "none"),  # both forfeit
    ]
    settings_ = StandingsSettings(
        forfeit_win_board_points="average",
        forfeit_loss_match_points=-1,
        tiebreaks=("spread", "opponents_match_points"),
    )
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games, settings_)
    assert table(rows) == [
        # Anna: win 300-250 (2) + forfeit win (2, her average 300) = 4 mp, 600 bp, spread +50
        (1, "Anna", 2, 2, 0, 0, 0, 4.0, 600, 250, 50),
        # Cor: win 280-260 (2) + own forfeit (-1) = 1 mp, 280 bp
        (2, "Cor", 2, 1, 0, 1, 0, 1.0, 280, 260, 20),
        # Dirk: loss (0) + double forfeit (-1) = -1 mp, 260 bp
        (3, "Dirk", 2, 0, 0, 2, 0, -1.0, 260, 280, -20),
        # Bert: loss (0) + double forfeit (-1) = -1 mp, 250 bp
        (4, "Bert", 2, 0, 0, 2, 0, -1.0, 250, 300, -50),
    ]
    # forfeits bring no opponent: Anna's opponents are Bert (-1) only, not Cor
    omp = {row.name: row.tiebreak_values["opponents_match_points"] for row in rows}
    assert omp == {"Anna": -1.0, "Bert": 4.0, "Cor": -1.0, "Dirk": 1.0}


def test_annulled_games_are_ignored():
    games = [
        GameRecord(1, ANNA, BERT, 300, 200, "annulled", "none"),
        played(2, ANNA, COR, 250, 200),
        played(2, BERT, DIRK, 300, 100),
    ]
    settings_ = StandingsSettings(tiebreaks=("opponents_match_points",))
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games, settings_)
    assert table(rows) == [
        # only round 2 counts: 1 game each
        (1, "Bert", 1, 1, 0, 0, 0, 2.0, 300, 100, 200),
        (2, "Anna", 1, 1, 0, 0, 0, 2.0, 250, 200, 50),
        (3, "Cor", 1, 0, 0, 1, 0, 0.0, 200, 250, -50),
        (4, "Dirk", 1, 0, 0, 1, 0, 0.0, 100, 300, -200),
    ]
    # Anna's only opponent is Cor (0 mp); Bert (2 mp) from the annulled game is not one
    assert by_name(rows)["Anna"].tiebreak_values == {"opponents_match_points": 0.0}


def test_draws():
    games = [
        played(1, ANNA, BERT, 300, 300),
        played(1, COR, DIRK, 310, 290),
        played(2, ANNA, COR, 280, 280),
        played(2, BERT, DIRK, 250, 260),
    ]
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games)
    assert table(rows) == [
        # Cor: win 310-290 (2) + draw 280-280 (1) = 3; 590 bp; 570 against
        (1, "Cor", 2, 1, 1, 0, 0, 3.0, 590, 570, 20),
        # Anna: two draws = 2; 300+280 = 580
        (2, "Anna", 2, 0, 2, 0, 0, 2.0, 580, 580, 0),
        # Dirk: loss 290-310 + win 260-250 = 2; 550 bp; 310+250 = 560 against; -20+10
        (3, "Dirk", 2, 1, 0, 1, 0, 2.0, 550, 560, -10),
        # Bert: draw + loss = 1; 300+250 = 550
        (4, "Bert", 2, 0, 1, 1, 0, 1.0, 550, 560, -10),
    ]


def test_entrants_without_games_are_listed():
    rows = compute(entrants(ANNA, BERT, COR), [played(1, ANNA, BERT, 300, 200)])
    cor = by_name(rows)["Cor"]
    assert (cor.rank, cor.games, cor.match_points, cor.board_points) == (3, 0, 0.0, 0)
    assert cor.average_match_points is None
    assert cor.average_board_points is None


# -- tiebreaks --------------------------------------------------------------------------


def test_spread_decides():
    games = [played(1, ANNA, COR, 300, 250), played(1, BERT, DIRK, 300, 200)]
    # Anna and Bert: 2 mp, 300 bp each; spread Anna +50, Bert +100
    players = entrants(ANNA, BERT, COR, DIRK)
    rows = compute(players, games, StandingsSettings(tiebreaks=("spread",)))
    assert ranks(rows) == [(1, "Bert"), (2, "Anna"), (3, "Cor"), (4, "Dirk")]
    assert rows[0].tiebreak_values == {"spread": 100.0}
    # without the tiebreak they share first place, listed by name
    rows = compute(players, games, StandingsSettings(tiebreaks=()))
    assert ranks(rows) == [(1, "Anna"), (1, "Bert"), (3, "Cor"), (4, "Dirk")]


def test_wins_decides():
    games = [
        played(1, ANNA, COR, 300, 300),
        played(1, BERT, DIRK, 350, 250),
        played(2, ANNA, DIRK, 300, 300),
        played(2, BERT, COR, 250, 350),
    ]
    # Anna: two draws = 2 mp, 600 bp, spread 0, 0 wins
    # Bert: win + loss = 2 mp, 350+250 = 600 bp, spread +100-100 = 0, 1 win
    settings_ = StandingsSettings(tiebreaks=("spread", "wins"))
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games, settings_)
    # Cor: draw + win = 3 mp; Dirk: loss + draw = 1 mp
    assert ranks(rows) == [(1, "Cor"), (2, "Bert"), (3, "Anna"), (4, "Dirk")]
    assert by_name(rows)["Bert"].tiebreak_values == {"spread": 0.0, "wins": 1.0}
    assert by_name(rows)["Anna"].tiebreak_values == {"spread": 0.0, "wins": 0.0}


def test_head_to_head_decides_among_the_tied_players_only():
    games = [
        played(1, ANNA, BERT, 300, 250),
        played(1, COR, DIRK, 300, 280),
        played(2, ANNA, COR, 250, 300),
        played(2, BERT, DIRK, 300, 250),
    ]
    # Anna: win 300 + loss 250 = 2 mp, 550 bp, spread +50-50 = 0
    # Bert: loss 250 + win 300 = 2 mp, 550 bp, spread -50+50 = 0
    settings_ = StandingsSettings(tiebreaks=("spread", "head_to_head"))
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games, settings_)
    # Cor 4 mp; Dirk 0 mp; Anna beat Bert
    assert ranks(rows) == [(1, "Cor"), (2, "Anna"), (3, "Bert"), (4, "Dirk")]
    # mini-league of Anna and Bert only: Anna 2 (her loss to Cor is outside it),
    # Bert 0 (his win over Dirk is outside it)
    h2h = {row.name: row.tiebreak_values["head_to_head"] for row in rows}
    assert h2h == {"Cor": 0.0, "Anna": 2.0, "Bert": 0.0, "Dirk": 0.0}


def test_head_to_head_does_not_decide_when_the_tied_players_have_not_all_met():
    games = [played(1, ANNA, COR, 300, 250), played(1, BERT, DIRK, 300, 250)]
    # Anna and Bert: 2 mp, 300 bp each, never met
    settings_ = StandingsSettings(tiebreaks=("head_to_head",))
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games, settings_)
    assert ranks(rows) == [(1, "Anna"), (1, "Bert"), (3, "Cor"), (3, "Dirk")]


def test_opponents_match_points_decides_and_shared_rank_below():
    games = [
        played(1, ANNA, COR, 300, 200),
        played(1, BERT, DIRK, 300, 200),
        played(2, COR, EVA, 300, 200),
    ]
    # Anna, Bert: 2 mp, 300 bp, spread +100 each
    # Cor: loss 200 + win 300 = 2 mp, 500 bp; Dirk 0 mp 200 bp; Eva 0 mp 200 bp
    # Buchholz: Anna = Cor 2; Bert = Dirk 0; Cor = Anna 2 + Eva 0; Dirk = Bert 2; Eva = Cor 2
    settings_ = StandingsSettings(tiebreaks=("spread", "opponents_match_points"))
    rows = compute(entrants(ANNA, BERT, COR, DIRK, EVA), games, settings_)
    assert ranks(rows) == [(1, "Cor"), (2, "Anna"), (3, "Bert"), (4, "Dirk"), (4, "Eva")]
    omp = {row.name: row.tiebreak_values["opponents_match_points"] for row in rows}
    assert omp == {"Cor": 2.0, "Anna": 2.0, "Bert": 0.0, "Dirk": 2.0, "Eva": 2.0}


def test_sonneborn_berger_decides_after_all_other_tiebreaks_tie():
    strong, weak = COR, DIRK
    games = [
        played(1, ANNA, strong, 300, 250),
        played(1, BERT, weak, 300, 250),
        played(2, ANNA, weak, 250, 300),
        played(2, BERT, strong, 250, 300),
        played(3, strong, weak, 300, 250),
        played(3, ANNA, BERT, 300, 300),
    ]
    # Anna: W 300, L 250, D 300 = 3 mp, 850 bp, spread +50-50+0 = 0, 1 win
    # Bert: W 300, L 250, D 300 = 3 mp, 850 bp, spread 0, 1 win
    # Cor (strong): L 250, W 300, W 300 = 4 mp; Dirk (weak): L, W, L = 2 mp
    # head to head: one draw, 1 each
    # Buchholz: Anna = Cor 4 + Dirk 2 + Bert 3 = 9; Bert = Dirk 2 + Cor 4 + Anna 3 = 9
    # S-B: Anna = beaten Cor 4 + half of drawn Bert 3 = 5.5; Bert = Dirk 2 + 1.5 = 3.5
    tiebreaks = ("spread", "wins", "head_to_head", "opponents_match_points", "sonneborn_berger")
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games, StandingsSettings(tiebreaks=tiebreaks))
    assert ranks(rows) == [(1, "Cor"), (2, "Anna"), (3, "Bert"), (4, "Dirk")]
    assert by_name(rows)["Anna"].tiebreak_values == {
        "spread": 0.0,
        "wins": 1.0,
        "head_to_head": 1.0,
        "opponents_match_points": 9.0,
        "sonneborn_berger": 5.5,
    }
    assert by_name(rows)["Bert"].tiebreak_values["sonneborn_berger"] == 3.5


def test_tiebreaks_apply_in_the_configured_order():
    games = [
        played(1, ANNA, COR, 300, 200),  # Anna: spread +100, Buchholz = Cor
        played(1, BERT, DIRK, 300, 250),  # Bert: spread +50, Buchholz = Dirk
        played(2, DIRK, EVA, 30, 20),  # Dirk: 2 mp but 250+30 bp; Cor stays at 0
    ]
    players = entrants(ANNA, BERT, COR, DIRK, EVA)
    spread_first = StandingsSettings(tiebreaks=("spread", "opponents_match_points"))
    buchholz_first = StandingsSettings(tiebreaks=("opponents_match_points", "spread"))
    assert ranks(compute(players, games, spread_first))[:2] == [(1, "Anna"), (2, "Bert")]
    assert ranks(compute(players, games, buchholz_first))[:2] == [(1, "Bert"), (2, "Anna")]


def test_shared_rank_when_everything_is_equal():
    games = [played(1, ANNA, DIRK, 300, 200), played(1, BERT, COR, 250, 250)]
    rows = compute(entrants(ANNA, BERT, COR, DIRK), games)
    # Bert and Cor: 1 mp, 250 bp, spread 0 each
    assert ranks(rows) == [(1, "Anna"), (2, "Bert"), (2, "Cor"), (4, "Dirk")]

    games = [played(1, ANNA, BERT, 300, 300), played(1, COR, DIRK, 300, 300)]
    every = ("spread", "wins", "head_to_head", "opponents_match_points", "sonneborn_berger")
    rows = compute(entrants(DIRK, COR, BERT, ANNA), games, StandingsSettings(tiebreaks=every))
    # all four: 1 mp, 300 bp, spread 0, 0 wins, Buchholz 1, S-B 0.5; not all have met
    assert ranks(rows) == [(1, "Anna"), (1, "Bert"), (1, "Cor"), (1, "Dirk")]


# -- averages, groups, rounds -----------------------------------------------------------


def test_average_ranking_with_a_minimum_number_of_games():
    games = [
        played(1, ANNA, BERT, 300, 200),
        played(1, COR, DIRK, 350, 250),
        played(2, ANNA, COR, 200, 300),
        bye(2, BERT),
        played(2, DIRK, EVA, 200, 300),
        played(3, ANNA, DIRK, 250, 250),
        played(3, BERT, COR, 260, 240),
    ]
    players = entrants(ANNA, BERT, COR, DIRK, EVA, FEMKE)
    settings_ = StandingsSettings(ranking="average", min_games=2)
    rows = compute(players, games, settings_)
    assert [
        (
            row.rank,
            row.name,
            row.games,
            row.match_points,
            row.board_points,
            None if row.average_match_points is None else round(row.average_match_points, 3),
            None if row.average_board_points is None else round(row.average_board_points, 2),
            row.qualified,
        )
        for row in rows
    ] == [
        # Cor: W 350, W 300, L 240 = 4 mp / 3 = 1.333; 890 bp / 3 = 296.67
        (1, "Cor", 3, 4.0, 890, 1.333, 296.67, True),
        # Bert: L 200, bye (2 mp, 0 bp), W 260 = 4 mp / 3; 460 / 3 = 153.33
        (2, "Bert", 3, 4.0, 460, 1.333, 153.33, True),
        # Anna: W 300, L 200, D 250 = 3 mp / 3 = 1.0; 750 / 3 = 250
        (3, "Anna", 3, 3.0, 750, 1.0, 250.0, True),
        # Dirk: L 250, L 200, D 250 = 1 mp / 3; 700 / 3 = 233.33
        (4, "Dirk", 3, 1.0, 700, 0.333, 233.33, True),
        # Eva: the best average (2.0) but 1 game < 2: after all qualified players
        (5, "Eva", 1, 2.0, 300, 2.0, 300.0, False),
        # Femke: no games, no average, last among the non-qualified
        (6, "Femke", 0, 0.0, 0, None, None, False),
    ]
    # without a minimum Eva leads
    rows = compute(players, games, StandingsSettings(ranking="average"))
    assert ranks(rows)[0] == (1, "Eva")
    assert all(row.qualified for row in rows)


def test_groups_rank_separately_and_cross_group_games_count():
    players = entrants(ANNA, BERT, group="A") + entrants(COR, DIRK, group="B")
    games = [
        played(1, ANNA, BERT, 300, 200),
        played(1, COR, DIRK, 300, 250),
        played(2, ANNA, COR, 250, 350),  # across groups
        played(2, BERT, DIRK, 300, 300),  # across groups
    ]
    standings = compute_by_group(players, games)
    assert list(standings) == ["A", "B"]
    assert table(standings["A"]) == [
        # Anna: W 300-200, L 250-350 = 2 mp, 550 bp, 550 against
        (1, "Anna", 2, 1, 0, 1, 0, 2.0, 550, 550, 0),
        # Bert: L 200-300, D 300-300 = 1 mp (the draw with Dirk of group B counts)
        (2, "Bert", 2, 0, 1, 1, 0, 1.0, 500, 600, -100),
    ]
    assert table(standings["B"]) == [
        # Cor: W 300-250, W 350-250 = 4 mp (the win over Anna of group A counts)
        (1, "Cor", 2, 2, 0, 0, 0, 4.0, 650, 500, 150),
        # Dirk: L 250-300, D 300-300 = 1 mp, 550 bp
        (2, "Dirk", 2, 0, 1, 1, 0, 1.0, 550, 600, -50),
    ]
    assert {row.group for row in standings["A"]} == {"A"}
    # one table over everyone: Dirk (1 mp, 550 bp) above Bert (1 mp, 500 bp)
    assert ranks(compute(players, games)) == [(1, "Cor"), (2, "Anna"), (3, "Dirk"), (4, "Bert")]


ROUNDS = [
    played(1, ANNA, BERT, 300, 250),
    played(1, COR, DIRK, 280, 260),
    played(2, ANNA, COR, 270, 300),
    played(2, BERT, DIRK, 320, 300),
]


def test_standings_after_round_n():
    players = entrants(ANNA, BERT, COR, DIRK)
    assert table(compute(players, ROUNDS, after_round=1)) == [
        (1, "Anna", 1, 1, 0, 0, 0, 2.0, 300, 250, 50),
        (2, "Cor", 1, 1, 0, 0, 0, 2.0, 280, 260, 20),
        (3, "Dirk", 1, 0, 0, 1, 0, 0.0, 260, 280, -20),
        (4, "Bert", 1, 0, 0, 1, 0, 0.0, 250, 300, -50),
    ]
    assert table(compute(players, ROUNDS, after_round=2)) == [
        # Cor: W 280-260, W 300-270 = 4 mp, 580 bp, spread +20+30
        (1, "Cor", 2, 2, 0, 0, 0, 4.0, 580, 530, 50),
        # Anna: W 300-250, L 270-300 = 2 mp, 570 bp, spread +50-30 = 20
        (2, "Anna", 2, 1, 0, 1, 0, 2.0, 570, 550, 20),
        # Bert: L 250-300, W 320-300 = 2 mp, 570 bp, spread -50+20 = -30
        (3, "Bert", 2, 1, 0, 1, 0, 2.0, 570, 600, -30),
        (4, "Dirk", 2, 0, 0, 2, 0, 0.0, 560, 600, -40),
    ]
    assert compute(players, ROUNDS, after_round=2) == compute(players, ROUNDS)
    # before the first round everyone shares first place
    assert {row.rank for row in compute(players, ROUNDS, after_round=0)} == {1}


def test_a_correction_to_an_old_round_changes_the_later_standings():
    players = entrants(ANNA, BERT, COR, DIRK)
    # round 1 was really won by Bert, 350-300
    corrected = [played(1, ANNA, BERT, 300, 350), *ROUNDS[1:]]
    assert table(compute(players, corrected, after_round=2)) == [
        # Bert: W 350-300, W 320-300 = 4 mp, 670 bp, spread +50+20
        (1, "Bert", 2, 2, 0, 0, 0, 4.0, 670, 600, 70),
        (2, "Cor", 2, 2, 0, 0, 0, 4.0, 580, 530, 50),
        # Anna: L 300-350, L 270-300 = 0 mp, 570 bp, spread -50-30
        (3, "Anna", 2, 0, 0, 2, 0, 0.0, 570, 650, -80),
        (4, "Dirk", 2, 0, 0, 2, 0, 0.0, 560, 600, -40),
    ]


def test_running_totals():
    games = [
        bye(1, ANNA),
        played(2, ANNA, BERT, 301, 280),
        played(3, COR, ANNA, 300, 300),  # Anna as player b
        GameRecord(4, ANNA, BERT, 310, 200, "annulled", "none"),
        forfeit(5, ANNA, COR, "b"),  # Anna forfeits
    ]
    settings_ = StandingsSettings(bye_board_points="average")
    # Anna's average over played games: (301 + 300) / 2 = 300.5 -> 301
    assert running_totals(ANNA, games, settings_) == [
        RoundResult(1, None, "bye", "bye", None, None, 2.0, 301, 2.0, 301),
        RoundResult(2, BERT, "normal", "win", 301, 280, 2.0, 301, 4.0, 602),
        RoundResult(3, COR, "normal", "draw", 300, 300, 1.0, 300, 5.0, 902),
        RoundResult(4, BERT, "annulled", "annulled", 310, 200, 0.0, 0, 5.0, 902),
        RoundResult(5, COR, "forfeit", "loss", None, None, 0.0, 0, 5.0, 902),
    ]
    # the last line agrees with the standings
    anna = by_name(compute(entrants(ANNA, BERT, COR), games, settings_))["Anna"]
    assert (anna.match_points, anna.board_points) == (5.0, 902)
    assert (anna.games, anna.wins, anna.draws, anna.losses, anna.byes) == (4, 1, 1, 1, 1)
    # up to round 1 the bye is worth no board points: nothing played yet
    assert running_totals(ANNA, games, settings_, after_round=1) == [
        RoundResult(1, None, "bye", "bye", None, None, 2.0, 0, 2.0, 0),
    ]


# -- bad input --------------------------------------------------------------------------


def test_unknown_tiebreak_is_refused():
    with pytest.raises(ValueError, match="unknown tiebreak 'buchholz'"):
        StandingsSettings(tiebreaks=("buchholz",))


@pytest.mark.parametrize(
    "game",
    [
        GameRecord(1, ANNA, BERT, None, None, "bye", "a"),
        GameRecord(1, ANNA, None, 300, 200, "normal", "a"),
        GameRecord(1, ANNA, BERT, 300, None, "normal", "a"),
        GameRecord(1, ANNA, BERT, 300, 200, "flag_fall", "none"),
        GameRecord(1, ANNA, ANNA, 300, 200, "normal", "a"),
        GameRecord(1, ANNA, BERT, None, None, "forfeit", "draw"),
    ],
)
def test_inconsistent_games_are_refused(game):
    with pytest.raises(ValueError):
        compute(entrants(ANNA, BERT), [game])


def test_an_entrant_listed_twice_is_refused():
    with pytest.raises(ValueError, match="entered twice"):
        compute(entrants(ANNA, ANNA), [])


# -- properties -------------------------------------------------------------------------

SETTINGS_CHOICES = [
    StandingsSettings(),
    StandingsSettings(
        bye_board_points="average",
        forfeit_win_board_points="average",
        forfeit_loss_match_points=-1,
        tiebreaks=("head_to_head", "opponents_match_points", "sonneborn_berger", "wins"),
    ),
    StandingsSettings(
        win=3, draw=1, bye_match_points=1, ranking="average", min_games=2, tiebreaks=()
    ),
]


@st.composite
def competitions(draw):
    player_count = draw(st.integers(min_value=1, max_value=8))
    players = [EntrantRecord(player_id, f"P{player_id % 3}") for player_id in range(player_count)]
    games = []
    for round_number in range(1, draw(st.integers(min_value=0, max_value=5)) + 1):
        order = draw(st.permutations(range(player_count)))
        for a, b in zip(order[::2], order[1::2], strict=False):
            outcome = draw(st.sampled_from(["normal", "flag_fall", "forfeit", "annulled"]))
            if outcome in ("normal", "flag_fall"):
                score_a, score_b = draw(st.integers(0, 500)), draw(st.integers(0, 500))
                if outcome == "normal":
                    winner = "a" if score_a > score_b else "b" if score_b > score_a else "draw"
                else:
                    winner = draw(st.sampled_from(["a", "b"]))
            else:
                score_a = score_b = None
                choices = ["none"] if outcome == "annulled" else ["a", "b", "none"]
                winner = draw(st.sampled_from(choices))
            games.append(GameRecord(round_number, a, b, score_a, score_b, outcome, winner))
        if player_count % 2:
            games.append(bye(round_number, order[-1]))
    return players, games, draw(st.sampled_from(SETTINGS_CHOICES))


def awarded_match_points(game: GameRecord, s: StandingsSettings) -> float:
    if game.outcome == "bye":
        return s.bye_match_points
    if game.outcome == "annulled":
        return 0
    if game.outcome == "forfeit":
        if game.winner == "none":
            return 2 * s.forfeit_loss_match_points
        return s.forfeit_win_match_points + s.forfeit_loss_match_points
    return 2 * s.draw if game.winner == "draw" else s.win + s.loss


@settings(max_examples=200, deadline=None)
@given(competitions())
def test_ranks_are_consistent(competition):
    players, games, settings_ = competition
    rows = compute(players, games, settings_)
    assert sorted(row.player_id for row in rows) == [p.player_id for p in players]
    assert rows[0].rank == 1
    for position, (previous, row) in enumerate(itertools.pairwise(rows), start=2):
        assert row.rank == previous.rank or row.rank == position
        assert previous.qualified or not row.qualified
    for row in rows:
        assert row.games == row.wins + row.draws + row.losses + row.byes


@settings(max_examples=200, deadline=None)
@given(competitions())
def test_match_points_add_up_to_what_the_games_award(competition):
    players, games, settings_ = competition
    rows = compute(players, games, settings_)
    total = sum(row.match_points for row in rows)
    assert total == pytest.approx(sum(awarded_match_points(game, settings_) for game in games))


@settings(max_examples=100, deadline=None)
@given(competitions(), st.randoms(use_true_random=False))
def test_the_order_of_the_records_does_not_matter(competition, rng: random.Random):
    players, games, settings_ = competition
    shuffled_players, shuffled_games = players[:], games[:]
    rng.shuffle(shuffled_players)
    rng.shuffle(shuffled_games)
    assert compute(shuffled_players, shuffled_games, settings_) == compute(
        players, games, settings_
    )


def played_board_points(player_id: int, games: list[GameRecord]) -> list[int]:
    """The player's scores in games played on the board (normal and flag fall)."""
    scores = []
    for game in games:
        if game.outcome in ("normal", "flag_fall"):
            if game.player_a == player_id:
                scores.append(game.score_a)
            elif game.player_b == player_id:
                scores.append(game.score_b)
    return scores


@settings(max_examples=100, deadline=None)
@given(competitions(), st.data())
def test_a_bye_adds_the_configured_points_and_nothing_else(competition, data):
    players, games, settings_ = competition
    player_id = data.draw(st.sampled_from([p.player_id for p in players]))
    later = max((game.round_number for game in games), default=0) + 1
    before = {row.player_id: row for row in compute(players, games, settings_)}
    after = {
        row.player_id: row for row in compute(players, [*games, bye(later, player_id)], settings_)
    }
    scores = played_board_points(player_id, games)
    # "average": own board points per played game, rounded half up (0 without a game)
    average = (2 * sum(scores) + len(scores)) // (2 * len(scores)) if scores else 0
    bye_points = average if settings_.bye_board_points == "average" else settings_.bye_board_points
    old, new = before[player_id], after[player_id]
    assert new.match_points == old.match_points + settings_.bye_match_points
    assert new.board_points == old.board_points + bye_points
    assert (new.games, new.byes) == (old.games + 1, old.byes + 1)
    assert (new.wins, new.draws, new.losses) == (old.wins, old.draws, old.losses)
    assert (new.spread, new.opponents_board_points) == (old.spread, old.opponents_board_points)
    for other, row in before.items():
        if other != player_id:
            assert (after[other].match_points, after[other].board_points, after[other].spread) == (
                row.match_points,
                row.board_points,
                row.spread,
            )


@settings(max_examples=100, deadline=None)
@given(competitions(), st.data())
def test_a_withdrawn_player_leaves_the_table_but_stays_an_opponent(competition, data):
    """Without head-to-head (which looks only at the entrants tied), taking a player off
    the entrants takes away that row and changes no other row's numbers or order."""
    players, games, settings_ = competition
    settings_ = replace(
        settings_,
        tiebreaks=tuple(name for name in settings_.tiebreaks if name != "head_to_head"),
    )
    withdrawn = data.draw(st.sampled_from(players))
    remaining = [p for p in players if p != withdrawn]
    everyone = compute(players, games, settings_)
    rows = compute(remaining, games, settings_)

    def numbers(row: StandingRow) -> tuple:
        return astuple(row)[1:]  # everything but the rank

    assert [numbers(row) for row in rows] == [
        numbers(row) for row in everyone if row.player_id != withdrawn.player_id
    ]


@settings(max_examples=100, deadline=None)
@given(competitions())
def test_spread_and_results_balance_over_the_games_played(competition):
    players, games, settings_ = competition
    rows = compute(players, games, settings_)
    # every margin is won by one and lost by the other; a forfeit or bye is no margin
    assert sum(row.spread for row in rows) == 0
    if settings_.bye_board_points == settings_.forfeit_win_board_points == 0:
        # nothing awarded: board points less the opponents' are the spread
        for row in rows:
            assert row.board_points - row.opponents_board_points == row.spread
    played = [game for game in games if game.outcome in ("normal", "flag_fall")]
    draws = sum(game.winner == "draw" for game in played)
    assert sum(row.draws for row in rows) == 2 * draws
    forfeit_wins = sum(game.outcome == "forfeit" and game.winner != "none" for game in games)
    assert sum(row.wins for row in rows) == len(played) - draws + forfeit_wins
