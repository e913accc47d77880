"""Tests for competition.core.standings at tables of 2, 3 and 4 (issue 20, point 5).

Pure tests: no database, no Django. The worked example is the one in docs/standings.md,
"Tables of 3 and 4", with the arithmetic beside every expected number. Columns of
``table()``: rank, name, games, wins, draws, losses, byes, match points, board points,
opponents' board points, spread.
"""

from dataclasses import astuple, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.core.standings import (
    EntrantRecord,
    GameRecord,
    RoundResult,
    SeatRecord,
    StandingRow,
    StandingsSettings,
    TableRecord,
    compute,
    running_totals,
)
from tests.competition.core.test_standings import competitions

ANNA, BERT, COR, DIRK, EVA, FEMKE, GIJS, HANNA, IVO = range(1, 10)
NAMES = dict(
    zip(
        range(1, 10),
        ["Anna", "Bert", "Cor", "Dirk", "Eva", "Femke", "Gijs", "Hanna", "Ivo"],
        strict=True,
    )
)
SCALED = StandingsSettings(table_scoring="scaled")


def entrants(*player_ids: int) -> list[EntrantRecord]:
    return [EntrantRecord(player_id, NAMES[player_id]) for player_id in player_ids]


def at_table(round_number: int, *seats: tuple[int, int], flags: tuple[int, ...] = ()):
    """A table played on the board: (player, score) in playing order; ``flags`` fell."""
    records = tuple(SeatRecord(player, score, flag_fell=player in flags) for player, score in seats)
    return TableRecord(round_number, records, "flag_fall" if flags else "normal")


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


def points(rows: list[StandingRow]) -> dict[str, float]:
    return {row.name: row.match_points for row in rows}


# -- the worked example of docs/standings.md: 9 players, 4+3+2 then 3+3+3 -------------------

EVENING = [
    # round 1, table of 4: Bert and Cor equal
    at_table(1, (ANNA, 300), (BERT, 250), (COR, 250), (DIRK, 200)),
    # table of 3: Femke scored most, but her flag fell
    at_table(1, (EVA, 280), (FEMKE, 320), (GIJS, 200), flags=(FEMKE,)),
    at_table(1, (HANNA, 360), (IVO, 240)),
    # round 2, three tables of 3: Eva and Hanna share the first table
    at_table(2, (ANNA, 240), (EVA, 330), (HANNA, 330)),
    at_table(2, (BERT, 320), (FEMKE, 280), (IVO, 200)),
    at_table(2, (COR, 300), (DIRK, 200), (GIJS, 100)),
]
EVERYONE = entrants(*NAMES)


def test_worked_example_per_opponent():
    assert table(compute(EVERYONE, EVENING)) == [
        # Eva: W Femke (flag), W Gijs = 4; W Anna, D Hanna = 3. 280 + 330.
        # opponents 320 + 200 + 240 + 330; spread -40 + 80 + 90 + 0
        (1, "Eva", 2, 3, 1, 0, 0, 7.0, 610, 1090, 130),
        # Bert: L Anna, D Cor, W Dirk = 3; W Femke, W Ivo = 4. 250 + 320.
        # opponents 300 + 250 + 200 + 280 + 200; spread -50 + 0 + 50 + 40 + 120
        (2, "Bert", 2, 3, 1, 1, 0, 7.0, 570, 1230, 160),
        # Cor: L Anna, D Bert, W Dirk = 3; W Dirk, W Gijs = 4. 250 + 300.
        # opponents 300 + 250 + 200 + 200 + 100; spread -50 + 0 + 50 + 100 + 200
        (3, "Cor", 2, 3, 1, 1, 0, 7.0, 550, 1050, 300),
        # Anna: W Bert, W Cor, W Dirk = 6; L Eva, L Hanna = 0. 300 + 240.
        # opponents 250 + 250 + 200 + 330 + 330; spread 50 + 50 + 100 - 90 - 90
        (4, "Anna", 2, 3, 0, 2, 0, 6.0, 540, 1360, 20),
        # Hanna: W Ivo = 2; W Anna, D Eva = 3. 360 + 330.
        # opponents 240 + 240 + 330; spread 120 + 90 + 0
        (5, "Hanna", 2, 2, 1, 0, 0, 5.0, 690, 810, 210),
        # Femke: L Eva, L Gijs (flag) = 0; L Bert, W Ivo = 2. 320 + 280.
        # opponents 280 + 200 + 320 + 200; spread 40 + 120 - 40 + 80: a flag fall keeps scores
        (6, "Femke", 2, 1, 0, 3, 0, 2.0, 600, 1000, 200),
        # Dirk: L Anna, L Bert, L Cor = 0; L Cor, W Gijs = 2. 200 + 200.
        # opponents 300 + 250 + 250 + 300 + 100; spread -100 - 50 - 50 - 100 + 100
        (7, "Dirk", 2, 1, 0, 4, 0, 2.0, 400, 1200, -200),
        # Gijs: W Femke (flag), L Eva = 2; L Cor, L Dirk = 0. 200 + 100.
        # opponents 280 + 320 + 300 + 200; spread -80 - 120 - 200 - 100
        (8, "Gijs", 2, 1, 0, 3, 0, 2.0, 300, 1100, -500),
        # Ivo: L Hanna; L Bert, L Femke. 240 + 200. opponents 360 + 320 + 280
        (9, "Ivo", 2, 0, 0, 3, 0, 0.0, 440, 960, -320),
    ]


def test_worked_example_adds_up():
    rows = compute(EVERYONE, EVENING)
    # every pair at a table hands out 2: round 1 6 + 3 + 1 pairs, round 2 3 x 3 pairs
    assert sum(row.match_points for row in rows) == 2 * (6 + 3 + 1 + 3 + 3 + 3)
    # every meeting's margin is won by one and lost by the other
    assert sum(row.spread for row in rows) == 0
    assert sum(row.wins for row in rows) == sum(row.losses for row in rows)


def test_worked_example_scaled_to_one_game():
    rows = compute(EVERYONE, EVENING, SCALED)
    # per table, the per-opponent points divided by the opponents at it
    assert points(rows) == {
        "Hanna": 2 / 1 + 3 / 2,  # 3.5
        "Eva": 4 / 2 + 3 / 2,  # 3.5
        "Bert": 3 / 3 + 4 / 2,  # 3
        "Cor": 3 / 3 + 4 / 2,  # 3
        "Anna": 6 / 3 + 0 / 2,  # 2
        "Femke": 0 / 2 + 2 / 2,  # 1
        "Dirk": 0 / 3 + 2 / 2,  # 1
        "Gijs": 2 / 2 + 0 / 2,  # 1
        "Ivo": 0.0,
    }
    # Hanna climbs from 5th to 1st: her round-1 win at a table of two is worth a whole
    # game, as is Anna's at a table of four. Equal match points: board points decide.
    assert [(row.rank, row.name) for row in rows] == [
        (1, "Hanna"),  # 690
        (2, "Eva"),  # 610
        (3, "Bert"),  # 570
        (4, "Cor"),  # 550
        (5, "Anna"),
        (6, "Femke"),  # 600
        (7, "Dirk"),  # 400
        (8, "Gijs"),  # 300
        (9, "Ivo"),
    ]
    # every table hands out one game's worth per player: 9 players x 2 rounds
    assert sum(row.match_points for row in rows) == 18
    # scaling changes the match points only
    unscaled = {row.name: row for row in compute(EVERYONE, EVENING)}
    for row in rows:
        assert (row.wins, row.spread, row.board_points) == (
            unscaled[row.name].wins,
            unscaled[row.name].spread,
            unscaled[row.name].board_points,
        )


def test_worked_example_relative_score():
    rows = compute(EVERYONE, EVENING, StandingsSettings(tiebreaks=("relative_score",)))
    # own score x players at the table / the table's total, averaged over the tables
    assert {row.name: row.tiebreak_values["relative_score"] for row in rows} == {
        "Anna": (300 * 4 / 1000 + 240 * 3 / 900) / 2,  # (1.2 + 0.8) / 2 = 1.0
        "Bert": (250 * 4 / 1000 + 320 * 3 / 800) / 2,  # (1.0 + 1.2) / 2 = 1.1
        "Cor": (250 * 4 / 1000 + 300 * 3 / 600) / 2,  # (1.0 + 1.5) / 2 = 1.25
        "Dirk": (200 * 4 / 1000 + 200 * 3 / 600) / 2,  # (0.8 + 1.0) / 2 = 0.9
        "Eva": 1.075,  # (280 x 3 / 800 = 1.05 + 330 x 3 / 900 = 1.1) / 2
        "Femke": 1.125,  # (320 x 3 / 800 = 1.2 + 280 x 3 / 800 = 1.05) / 2
        "Gijs": 0.625,  # (200 x 3 / 800 = 0.75 + 100 x 3 / 600 = 0.5) / 2
        "Hanna": 1.15,  # (360 x 2 / 600 = 1.2 + 1.1) / 2
        "Ivo": 0.775,  # (240 x 2 / 600 = 0.8 + 200 x 3 / 800 = 0.75) / 2
    }


def test_relative_score_breaks_a_tie_across_table_sizes():
    games = [
        at_table(1, (ANNA, 300), (BERT, 300)),  # a draw at a table of two
        at_table(1, (COR, 300), (DIRK, 340), (EVA, 160)),  # Cor: L Dirk, W Eva
    ]
    s = StandingsSettings(table_scoring="scaled", tiebreaks=("relative_score",))
    rows = compute(entrants(ANNA, BERT, COR, DIRK, EVA), games, s)
    # Anna, Bert and Cor: 1 match point, 300 board points. Relative: Anna and Bert
    # 300 x 2 / 600 = 1.0; Cor 300 x 3 / 800 = 1.125, above the average of his table.
    assert [(row.rank, row.name, row.tiebreak_values["relative_score"]) for row in rows] == [
        (1, "Dirk", 340 * 3 / 800),
        (2, "Cor", 1.125),
        (3, "Anna", 1.0),
        (3, "Bert", 1.0),
        (5, "Eva", 160 * 3 / 800),
    ]


# -- ties, flag falls, annulled tables, byes, forfeits --------------------------------------


def test_equal_scores_at_a_table_share():
    four = entrants(ANNA, BERT, COR, DIRK)
    tied_winners = [at_table(1, (ANNA, 300), (BERT, 300), (COR, 200), (DIRK, 100))]
    # Anna: D Bert, W Cor, W Dirk = 1 + 2 + 2; Cor: L, L, W
    assert points(compute(four, tied_winners)) == {"Anna": 5, "Bert": 5, "Cor": 2, "Dirk": 0}
    assert points(compute(four, tied_winners, SCALED)) == {
        "Anna": 5 / 3,
        "Bert": 5 / 3,
        "Cor": 2 / 3,
        "Dirk": 0,
    }
    all_equal = [at_table(1, (ANNA, 250), (BERT, 250), (COR, 250), (DIRK, 250))]
    rows = compute(four, all_equal)
    assert {(row.rank, row.match_points, row.draws) for row in rows} == {(1, 3.0, 3)}


def test_flag_fall_at_a_table_of_three():
    three = entrants(ANNA, BERT, COR)
    # Anna and Bert both let their flag fall: both lose to Cor; between them the score
    games = [at_table(1, (ANNA, 300), (BERT, 200), (COR, 100), flags=(ANNA, BERT))]
    assert table(compute(three, games)) == [
        # Cor: W Anna, W Bert; spread 100 - 300 + 100 - 200: the scores stand
        (1, "Cor", 1, 2, 0, 0, 0, 4.0, 100, 500, -300),
        # Anna: W Bert (300 > 200), L Cor; spread 100 + 200
        (2, "Anna", 1, 1, 0, 1, 0, 2.0, 300, 300, 300),
        (3, "Bert", 1, 0, 0, 2, 0, 0.0, 200, 400, 0),
    ]


def test_annulled_table_counts_for_nothing_but_is_listed():
    games = [
        at_table(1, (ANNA, 300), (BERT, 200)),
        TableRecord(
            2, (SeatRecord(ANNA, 280), SeatRecord(BERT, 310), SeatRecord(COR, 150)), "annulled"
        ),
    ]
    rows = compute(entrants(ANNA, BERT, COR), games, StandingsSettings(tiebreaks=("wins",)))
    assert table(rows) == [
        (1, "Anna", 1, 1, 0, 0, 0, 2.0, 300, 200, 100),
        (2, "Bert", 1, 0, 0, 1, 0, 0.0, 200, 300, -100),
        (3, "Cor", 0, 0, 0, 0, 0, 0.0, 0, 0, 0),
    ]
    assert running_totals(ANNA, games)[1] == RoundResult(
        2,
        None,
        "annulled",
        "annulled",
        280,
        None,
        0.0,
        0,
        2.0,
        300,
        table_opponents=(BERT, COR),
        table_opponent_scores=(310, 150),
        table_results=("annulled", "annulled"),
        place=None,
    )


def test_byes_beside_tables():
    # 9 players at two tables of four: Ivo has the bye
    games = [
        at_table(1, (ANNA, 300), (BERT, 200), (COR, 200), (DIRK, 100)),
        at_table(1, (EVA, 250), (FEMKE, 240), (GIJS, 230), (HANNA, 220)),
        TableRecord.bye(1, IVO),
        at_table(2, (IVO, 301), (ANNA, 300)),
    ]
    s = StandingsSettings(bye_board_points="average", tiebreaks=("relative_score",))
    ivo = {row.name: row for row in compute(EVERYONE, games, s)}["Ivo"]
    # bye 2 + W Anna 2; board points 301 + the bye at his average, 301
    assert (ivo.games, ivo.wins, ivo.byes, ivo.match_points, ivo.board_points) == (
        2,
        1,
        1,
        4.0,
        602,
    )
    # the bye is no table: the relative score is over the one table he played
    assert ivo.tiebreak_values["relative_score"] == 301 * 2 / 601


def test_a_player_who_does_not_come_to_a_table_of_three():
    three = entrants(ANNA, BERT, COR)
    seats = (SeatRecord(ANNA, 300), SeatRecord(BERT, 200), SeatRecord(COR, forfeited=True))
    games = [TableRecord(1, seats, "normal")]
    s = StandingsSettings(forfeit_loss_match_points=-1, tiebreaks=("opponents_match_points",))
    rows = compute(three, games, s)
    assert table(rows) == [
        # Anna: W Bert on the board 2, W Cor by forfeit 2; spread only against Bert
        (1, "Anna", 1, 2, 0, 0, 0, 4.0, 300, 200, 100),
        # Bert: L Anna 0, W Cor by forfeit 2
        (2, "Bert", 1, 1, 0, 1, 0, 2.0, 200, 300, -100),
        # Cor: two forfeit losses at -1
        (3, "Cor", 1, 0, 0, 2, 0, -2.0, 0, 0, 0),
    ]
    # a forfeit is no meeting: Cor brings no opponents' match points
    assert [row.tiebreak_values["opponents_match_points"] for row in rows] == [2.0, 4.0, 0.0]
    assert points(compute(three, games, StandingsSettings(table_scoring="scaled"))) == {
        "Anna": 2.0,
        "Bert": 1.0,
        "Cor": 0.0,
    }


def test_a_table_nobody_else_came_to():
    seats = (SeatRecord(ANNA), SeatRecord(BERT, forfeited=True), SeatRecord(COR, forfeited=True))
    s = StandingsSettings(forfeit_win_board_points=300)
    rows = {
        row.name: row
        for row in compute(entrants(ANNA, BERT, COR), [TableRecord(1, seats, "forfeit")], s)
    }
    # Anna wins by forfeit against both, and gets the forfeit board points once
    assert (rows["Anna"].match_points, rows["Anna"].wins, rows["Anna"].board_points) == (
        4.0,
        2,
        300,
    )
    # Bert and Cor both forfeited: each loses against the other too
    assert (rows["Bert"].match_points, rows["Bert"].losses, rows["Bert"].games) == (0.0, 2, 1)


# -- tiebreaks at tables --------------------------------------------------------------------

MEETINGS = [
    at_table(1, (ANNA, 300), (BERT, 250), (COR, 100)),  # Anna 4, Bert 2, Cor 0
    at_table(2, (BERT, 350), (DIRK, 100)),  # Bert 2
    at_table(2, (ANNA, 300), (COR, 350)),  # Cor 2
]


def test_head_to_head_counts_a_meeting_at_a_table():
    four = entrants(ANNA, BERT, COR, DIRK)
    # Anna and Bert: 4 match points, 600 board points each. Spread: Anna 50 + 200 - 50 = 200,
    # Bert -50 + 150 + 250 = 350; but Anna beat Bert at the table of three.
    by_spread = compute(four, MEETINGS)
    assert [row.name for row in by_spread[:2]] == ["Bert", "Anna"]
    rows = compute(four, MEETINGS, StandingsSettings(tiebreaks=("head_to_head", "spread")))
    assert [(row.name, row.tiebreak_values["head_to_head"]) for row in rows[:2]] == [
        ("Anna", 2.0),
        ("Bert", 0.0),
    ]


def test_opponents_match_points_and_sonneborn_berger_at_tables():
    names = ("opponents_match_points", "sonneborn_berger")
    rows = compute(entrants(ANNA, BERT, COR, DIRK), MEETINGS, StandingsSettings(tiebreaks=names))
    values = {row.name: tuple(row.tiebreak_values[name] for name in names) for row in rows}
    # totals: Anna 4, Bert 4, Cor 2, Dirk 0. Every pair at a table is a meeting.
    # Anna met Bert, Cor (round 1) and Cor (round 2): 4 + 2 + 2; beat Bert and Cor once
    assert values["Anna"] == (8.0, 4 + 2)
    # Bert met Anna, Cor, Dirk: 4 + 2 + 0; beat Cor and Dirk
    assert values["Bert"] == (6.0, 2 + 0)
    # Cor met Anna, Bert, Anna: 4 + 4 + 4; beat Anna in round 2
    assert values["Cor"] == (12.0, 4)


def test_running_totals_at_a_table():
    lines = running_totals(BERT, EVENING)
    assert lines == [
        RoundResult(
            1,
            None,
            "normal",
            "draw",  # one win, one draw, one loss: as many won as lost
            250,
            None,
            3.0,
            250,
            3.0,
            250,
            table_opponents=(ANNA, COR, DIRK),
            table_opponent_scores=(300, 250, 200),
            table_results=("loss", "draw", "win"),
            place=2,  # only Anna beat him
        ),
        RoundResult(
            2,
            None,
            "normal",
            "win",
            320,
            None,
            4.0,
            320,
            7.0,
            570,
            table_opponents=(FEMKE, IVO),
            table_opponent_scores=(280, 200),
            table_results=("win", "win"),
            place=1,
        ),
    ]
    assert lines[0].opponents == (ANNA, COR, DIRK)
    assert lines[0].opponent_scores == (300, 250, 200)
    # at a table of two the one opponent, in both forms
    hanna = running_totals(HANNA, EVENING)[0]
    assert (hanna.opponent, hanna.opponents, hanna.opponent_scores) == (IVO, (IVO,), (240,))
    assert hanna.place is None
    # scaled: Bert's table of four is worth 3 / 3
    assert [line.match_points for line in running_totals(BERT, EVENING, SCALED)] == [1.0, 2.0]


# -- bad input ------------------------------------------------------------------------------


def seats(*seat_records: SeatRecord) -> tuple[SeatRecord, ...]:
    return seat_records


@pytest.mark.parametrize(
    "record",
    [
        TableRecord(1, seats(SeatRecord(ANNA, 300)), "normal"),  # a table of one
        TableRecord(1, tuple(SeatRecord(p, 100) for p in range(1, 6)), "normal"),  # of five
        TableRecord(1, seats(SeatRecord(ANNA, 300), SeatRecord(ANNA, 200)), "normal"),
        TableRecord(1, seats(SeatRecord(ANNA, 300), SeatRecord(BERT)), "normal"),  # no score
        TableRecord(1, seats(SeatRecord(ANNA, 300), SeatRecord(BERT, 200)), "flag_fall"),
        TableRecord(1, seats(SeatRecord(ANNA, 3), SeatRecord(BERT, 2, flag_fell=True)), "normal"),
        TableRecord(1, seats(SeatRecord(ANNA), SeatRecord(BERT)), "forfeit"),  # both came
        TableRecord(1, seats(SeatRecord(ANNA), SeatRecord(BERT, 200, forfeited=True)), "forfeit"),
        TableRecord(
            1, seats(SeatRecord(ANNA, 300), SeatRecord(BERT, forfeited=True)), "normal"
        ),  # one player left: that is a forfeit
        TableRecord(1, seats(SeatRecord(ANNA), SeatRecord(BERT)), "bye"),
        TableRecord(1, seats(SeatRecord(ANNA, 300)), "bye"),
        TableRecord(1, seats(SeatRecord(ANNA, 300), SeatRecord(BERT, 200)), "won"),  # type: ignore[arg-type]
    ],
)
def test_inconsistent_tables_are_refused(record):
    with pytest.raises(ValueError):
        compute(entrants(*range(1, 6)), [record])


def test_unknown_table_scoring_is_refused():
    with pytest.raises(ValueError, match="table_scoring"):
        StandingsSettings(table_scoring="per_table")  # type: ignore[arg-type]


# -- a table of two is today's game ---------------------------------------------------------


def as_table(game: GameRecord) -> TableRecord:
    """The same game as a table of two, written from the rule (not from the code)."""
    if game.outcome == "bye":
        return TableRecord.bye(game.round_number, game.player_a)
    a, b = SeatRecord(game.player_a, game.score_a), SeatRecord(game.player_b, game.score_b)
    if game.outcome == "flag_fall":  # the loser's flag fell
        loser = a if game.winner == "b" else b
        flagged = SeatRecord(loser.player_id, loser.score, flag_fell=True)
        a, b = (flagged, b) if loser is a else (a, flagged)
    if game.outcome == "forfeit":  # whoever did not win forfeited
        a = SeatRecord(game.player_a, forfeited=game.winner != "a")
        b = SeatRecord(game.player_b, forfeited=game.winner != "b")
    return TableRecord(game.round_number, (a, b), game.outcome)


# A season of games of two with every outcome, written out by hand. As GameRecords and as
# the tables of two they are, it must give the same standings (docs/standings.md: "a
# TableRecord of two seats gives exactly the standings ... the GameRecord of that game
# gives"). Anna, Bert, Cor, Dirk, Eva: five players, so a bye each round.
SEASON = [
    GameRecord(1, ANNA, BERT, 320, 280, "normal", "a"),
    GameRecord(1, COR, DIRK, 300, 350, "flag_fall", "a"),  # Dirk's flag fell
    GameRecord(1, EVA, None, None, None, "bye", "a"),
    GameRecord(2, ANNA, COR, 250, 250, "normal", "draw"),
    GameRecord(2, BERT, EVA, None, None, "forfeit", "a"),  # Eva did not come
    GameRecord(2, DIRK, None, None, None, "bye", "a"),
    GameRecord(3, BERT, COR, 260, 300, "normal", "b"),
    GameRecord(3, DIRK, EVA, 310, 290, "normal", "a"),
    GameRecord(3, ANNA, None, None, None, "bye", "a"),
    GameRecord(4, ANNA, EVA, 200, 300, "annulled", "none"),
    GameRecord(4, BERT, DIRK, None, None, "forfeit", "none"),  # neither came
    GameRecord(4, COR, None, None, None, "bye", "a"),
]
SEASON_AS_TABLES = [as_table(game) for game in SEASON]
# Byes and forfeit wins at the player's average, a forfeit costs a point, every tiebreak
# but relative_score; at tables of two scaling changes nothing.
GENEROUS = StandingsSettings(
    bye_board_points="average",
    forfeit_win_board_points="average",
    forfeit_loss_match_points=-1,
    tiebreaks=("head_to_head", "opponents_match_points", "sonneborn_berger", "wins"),
    table_scoring="scaled",
)


@pytest.mark.parametrize("records", [SEASON, SEASON_AS_TABLES], ids=["games", "tables"])
def test_a_season_of_games_of_two_worked_by_hand(records):
    players = entrants(ANNA, BERT, COR, DIRK, EVA)
    rows = compute(players, records, GENEROUS)
    assert table(rows) == [
        # Cor: W 300-350 (Dirk's flag) 2, D 250-250 1, W 300-260 2, bye 2 = 7.
        # bye at his average (300 + 250 + 300) / 3 = 283.3 -> 283; 850 + 283 = 1133.
        # opponents 350 + 250 + 260 = 860; spread -50 + 0 + 40 = -10
        (1, "Cor", 4, 2, 1, 0, 1, 7.0, 1133, 860, -10),
        # Anna: W 320-280 2, D 250-250 1, bye 2, annulled nothing = 5.
        # bye at (320 + 250) / 2 = 285; 570 + 285 = 855; opponents 280 + 250; spread 40
        (2, "Anna", 3, 1, 1, 0, 1, 5.0, 855, 530, 40),
        # Dirk: L 350-300 (his flag) 0, bye 2, W 310-290 2, double forfeit -1 = 3.
        # bye at (350 + 310) / 2 = 330; 660 + 330 = 990; opponents 300 + 290; spread 50 + 20
        (3, "Dirk", 4, 1, 0, 2, 1, 3.0, 990, 590, 70),
        # Bert: L 280-320 0, forfeit win 2, L 260-300 0, double forfeit -1 = 1.
        # forfeit win at (280 + 260) / 2 = 270; 540 + 270 = 810; opponents 320 + 300;
        # spread -40 - 40
        (4, "Bert", 4, 1, 0, 3, 0, 1.0, 810, 620, -80),
        # Eva: bye 2, forfeited -1, L 290-310 0, annulled nothing = 1. Bye at 290 / 1;
        # 290 + 290 = 580 (less than Bert's 810); opponents 310; spread -20
        (5, "Eva", 3, 0, 0, 2, 1, 1.0, 580, 310, -20),
    ]
    # 6 + 5 + 6 + 0 handed out: round 2 is a draw, a forfeit (2 - 1) and a bye; round 4
    # nothing for the annulled game, -1 twice for the double forfeit, 2 for the bye
    assert sum(row.match_points for row in rows) == 17
    assert {row.name: row.tiebreak_values for row in rows} == {
        # head-to-head: nobody tied after board points, so 0 for all. Opponents met on
        # the board (no forfeits, byes, annulled games): Anna Bert 1 + Cor 7; Bert Anna 5
        # + Cor 7; Cor Dirk 3 + Anna 5 + Bert 1; Dirk Cor 7 + Eva 1; Eva Dirk 3.
        # Sonneborn-Berger: Anna beat Bert 1, drew Cor 7 / 2; Cor beat Dirk 3 and Bert 1,
        # drew Anna 5 / 2; Dirk beat Eva 1; Bert's only win is a forfeit.
        "Anna": _tiebreaks(0, 8, 1 + 3.5, 1),
        "Bert": _tiebreaks(0, 12, 0, 1),
        "Cor": _tiebreaks(0, 9, 3 + 2.5 + 1, 2),
        "Dirk": _tiebreaks(0, 8, 1, 1),
        "Eva": _tiebreaks(0, 3, 0, 0),
    }
    # after round 2 the averages are over round 1 only: Dirk's bye is worth his 350, Bert's
    # forfeit win his 280, Eva's bye 0 (no game played yet)
    assert table(compute(players, records, GENEROUS, after_round=2)) == [
        (1, "Anna", 2, 1, 1, 0, 0, 3.0, 570, 530, 40),  # 320 + 250
        (2, "Cor", 2, 1, 1, 0, 0, 3.0, 550, 600, -50),  # 300 + 250
        (3, "Dirk", 2, 0, 0, 1, 1, 2.0, 700, 300, 50),  # 350 + 350
        (4, "Bert", 2, 1, 0, 1, 0, 2.0, 560, 320, -40),  # 280 + 280
        (5, "Eva", 2, 0, 0, 1, 1, 1.0, 0, 0, 0),  # 2 - 1
    ]
    assert running_totals(BERT, records, GENEROUS) == [
        RoundResult(1, ANNA, "normal", "loss", 280, 320, 0.0, 280, 0.0, 280),
        RoundResult(2, EVA, "forfeit", "win", None, None, 2.0, 270, 2.0, 550),
        RoundResult(3, COR, "normal", "loss", 260, 300, 0.0, 260, 2.0, 810),
        RoundResult(4, DIRK, "forfeit", "loss", None, None, -1.0, 0, 1.0, 810),
    ]
    assert running_totals(EVA, records, GENEROUS, after_round=2) == [
        RoundResult(1, None, "bye", "bye", None, None, 2.0, 0, 2.0, 0),
        RoundResult(2, BERT, "forfeit", "loss", None, None, -1.0, 0, 1.0, 0),
    ]


def _tiebreaks(head_to_head, opponents_match_points, sonneborn_berger, wins):
    return {
        "head_to_head": float(head_to_head),
        "opponents_match_points": float(opponents_match_points),
        "sonneborn_berger": float(sonneborn_berger),
        "wins": float(wins),
    }


@pytest.mark.parametrize("records", [SEASON, SEASON_AS_TABLES], ids=["games", "tables"])
def test_a_season_of_games_of_two_by_average_with_three_for_a_win(records):
    s = StandingsSettings(win=3, draw=1, bye_match_points=1, ranking="average", min_games=4)
    rows = compute(entrants(ANNA, BERT, COR, DIRK, EVA), records, s)
    assert [
        (row.rank, row.name, row.match_points, row.board_points, row.qualified) for row in rows
    ] == [
        # Cor: 3 + 1 + 3 + bye 1 = 8 in 4 games, 2.0; byes now bring 0 board points
        (1, "Cor", 8.0, 850, True),
        # Dirk: 0 + bye 1 + 3 - 0 (the double forfeit costs nothing now) = 4 / 4 = 1.0
        (2, "Dirk", 4.0, 660, True),
        # Bert: 0 + forfeit win 2 (not `win`: its own setting) + 0 + 0 = 2 / 4 = 0.5
        (3, "Bert", 2.0, 540, True),
        # Anna: 3 + 1 + bye 1 = 5 / 3 = 1.67, the best average, but only 3 games
        (4, "Anna", 5.0, 570, False),
        # Eva: bye 1 + 0 + 0 = 1 / 3
        (5, "Eva", 1.0, 290, False),
    ]


@settings(max_examples=150, deadline=None)
@given(competitions(), st.integers(0, 5))
def test_a_table_of_two_gives_what_the_game_gives(competition, after_round):
    """Any season of games of two, read as tables of two, gives the same standings and
    running totals; scaling changes nothing at tables of two, and relative_score breaks
    ties the same way in both forms."""
    players, games, settings_ = competition
    scaled = replace(settings_, table_scoring="scaled")
    relative = replace(scaled, tiebreaks=(*settings_.tiebreaks, "relative_score"))
    assert compute(players, games, scaled) == compute(players, games, settings_)
    tables = [as_table(game) for game in games]
    for s in (settings_, scaled, relative):
        assert compute(players, tables, s) == compute(players, games, s)
        assert compute(players, tables, s, after_round=after_round) == compute(
            players, games, s, after_round=after_round
        )
        for player in players:
            lines = running_totals(player.player_id, tables, s)
            assert lines == running_totals(player.player_id, games, s)
            assert all(astuple(line)[10:] == ((), (), (), None) for line in lines)


@st.composite
def evenings(draw):
    """Rounds of tables of 2 to 4 played on the board, some with a flag fall."""
    player_count = draw(st.integers(min_value=2, max_value=12))
    tables = []
    for round_number in range(1, draw(st.integers(min_value=1, max_value=4)) + 1):
        order = list(draw(st.permutations(range(player_count))))
        while len(order) >= 2:
            size = min(len(order), draw(st.integers(2, 4)))
            if len(order) - size == 1:  # leave no one alone
                size = size + 1 if size < 4 else size - 1
            members, order = order[:size], order[size:]
            flags = draw(st.lists(st.booleans(), min_size=size, max_size=size))
            flags[0] = flags[0] and not all(flags)  # someone wins: not every flag falls
            scores = draw(st.lists(st.integers(0, 500), min_size=size, max_size=size))
            tables.append(
                TableRecord(
                    round_number,
                    tuple(
                        SeatRecord(p, s, flag_fell=f)
                        for p, s, f in zip(members, scores, flags, strict=True)
                    ),
                    "flag_fall" if any(flags) else "normal",
                )
            )
    players = [EntrantRecord(p, f"P{p}") for p in range(player_count)]
    return players, tables


@settings(max_examples=150, deadline=None)
@given(evenings())
def test_tables_hand_out_what_the_pairs_at_them_are_worth(evening):
    players, tables = evening
    rows = compute(players, tables)
    sizes = [len(t.seats) for t in tables]
    # per opponent: 2 for every pair at every table
    assert sum(row.match_points for row in rows) == pytest.approx(sum(k * (k - 1) for k in sizes))
    # scaled: one game's worth (2 per pair of a game of two) per player per table
    scaled = compute(players, tables, SCALED)
    assert sum(row.match_points for row in scaled) == pytest.approx(sum(sizes))
    assert sum(row.spread for row in rows) == 0
    assert sum(row.wins for row in rows) == sum(row.losses for row in rows)
    for row in rows:
        # a meeting per opponent at each table
        assert row.wins + row.draws + row.losses == sum(
            len(t.seats) - 1 for t in tables if row.player_id in t.player_ids
        )
        assert row.games == sum(row.player_id in t.player_ids for t in tables)


ALL_TIEBREAKS = StandingsSettings(
    table_scoring="scaled",
    tiebreaks=(
        "head_to_head",
        "relative_score",
        "opponents_match_points",
        "sonneborn_berger",
        "spread",
        "wins",
    ),
)


@settings(max_examples=100, deadline=None)
@given(evenings(), st.randoms(use_true_random=False))
def test_scaled_tables_in_any_order_give_the_same_standings(evening, rng):
    # thirds of a point are added exactly, so equal totals stay equal whatever the order
    players, tables = evening
    shuffled = tables[:]
    rng.shuffle(shuffled)
    assert compute(players, shuffled, ALL_TIEBREAKS) == compute(players, tables, ALL_TIEBREAKS)
    rows = compute(players, tables, ALL_TIEBREAKS)
    for row in rows:
        lines = running_totals(row.player_id, shuffled, ALL_TIEBREAKS)
        last = lines[-1] if lines else None
        assert (last.cumulative_match_points if last else 0.0) == row.match_points


def meeting(seat: SeatRecord, other: SeatRecord) -> str:
    """Who won one pair at a table, by the rule of docs/standings.md, not by the code: a
    fallen flag loses against a standing one, otherwise the higher score wins."""
    if seat.flag_fell != other.flag_fell:
        return "loss" if seat.flag_fell else "win"
    return "win" if seat.score > other.score else "loss" if seat.score < other.score else "draw"


@settings(max_examples=100, deadline=None)
@given(evenings())
def test_every_pair_at_a_table_is_a_meeting_worth_two_one_or_nothing(evening):
    players, tables = evening
    expected = {
        p.player_id: dict(w=0, d=0, l=0, mp=0, scaled=0.0, bp=0, opp=0, spread=0) for p in players
    }
    for t in tables:
        for seat in t.seats:
            totals = expected[seat.player_id]
            results = [meeting(seat, other) for other in t.seats if other is not seat]
            points = 2 * results.count("win") + results.count("draw")
            totals["w"] += results.count("win")
            totals["d"] += results.count("draw")
            totals["l"] += results.count("loss")
            totals["mp"] += points
            totals["scaled"] += points / len(results)
            totals["bp"] += seat.score
            others = [other.score for other in t.seats if other is not seat]
            totals["opp"] += sum(others)
            totals["spread"] += sum(seat.score - score for score in others)
            line = next(
                line
                for line in running_totals(seat.player_id, tables)
                if line.round_number == t.round_number
            )
            # at a table of 3 or 4: 1 + the players who beat this one
            assert line.place == (1 + results.count("loss") if len(t.seats) > 2 else None)
            assert line.match_points == points
    scaled = {row.player_id: row.match_points for row in compute(players, tables, SCALED)}
    for row in compute(players, tables):
        totals = expected[row.player_id]
        assert (row.wins, row.draws, row.losses) == (totals["w"], totals["d"], totals["l"])
        assert row.match_points == totals["mp"]
        assert scaled[row.player_id] == pytest.approx(totals["scaled"])
        assert (row.board_points, row.opponents_board_points, row.spread) == (
            totals["bp"],
            totals["opp"],
            totals["spread"],
        )


@settings(max_examples=100, deadline=None)
@given(evenings(), st.sampled_from([SCALED, ALL_TIEBREAKS]))
def test_who_wins_every_meeting_ranks_above_everyone_who_did_not(evening, settings_):
    """Everyone sits at a table every round; with scaled tables a table is worth at most
    2, so who won every meeting has the most match points whatever the table sizes."""
    players, tables = evening
    champion = players[0].player_id

    def won_by_the_champion(t: TableRecord) -> TableRecord:
        if champion not in t.player_ids:
            return t
        best = max(seat.score for seat in t.seats) + 1
        seats_ = tuple(
            SeatRecord(champion, best) if seat.player_id == champion else seat for seat in t.seats
        )
        flags = any(seat.flag_fell for seat in seats_)
        return TableRecord(t.round_number, seats_, "flag_fall" if flags else "normal")

    tables = [won_by_the_champion(t) for t in tables]
    rows = compute(players, tables, settings_)
    top = next(row for row in rows if row.player_id == champion)
    assert (top.draws, top.losses) == (0, 0)
    assert top.match_points == 2 * top.games
    for row in rows:
        if row.draws or row.losses:
            assert row.rank > top.rank
            assert row.match_points < top.match_points
        elif row is not top:  # won every meeting too: equal on match points
            assert row.match_points == top.match_points
