"""Who beat whom has one home, `rules.result.meetings`: over random tables of 2 to 4 with
random outcomes (forfeits, flag falls, annulled tables, byes), the standings' match points
are the sum over that home's meetings, and the crosstable shows the same meetings.

No database: the crosstable's texts are built from the records (`crosstable_texts`).
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.core.standings import (
    EntrantRecord,
    SeatRecord,
    StandingsSettings,
    TableRecord,
    compute,
)
from competition.selectors import crosstable_texts
from rules import result as result_rules

#: Forfeits worth something else than a game on the board, a double forfeit a penalty:
#: a meeting counted the wrong way shows in the match points.
SETTINGS = StandingsSettings(
    win=2, draw=1, loss=0, forfeit_win_match_points=3, forfeit_loss_match_points=-1
)


@st.composite
def tables(draw, round_number: int, players: list[int]) -> TableRecord:
    """One table of `players` with a random outcome the rules accept."""
    size = len(players)
    if size == 1:
        return TableRecord.bye(round_number, players[0])
    outcome = draw(st.sampled_from(["normal", "flag_fall", "forfeit", "annulled"]))
    if outcome == "annulled":
        scores = draw(st.lists(st.none() | st.integers(0, 500), min_size=size, max_size=size))
        return TableRecord(
            round_number,
            tuple(SeatRecord(p, s) for p, s in zip(players, scores, strict=True)),
            outcome,
        )
    if outcome == "forfeit":
        absent = draw(st.lists(st.booleans(), min_size=size, max_size=size))
        absent[0] = absent[0] or not any(absent)  # someone did not come
        return TableRecord(
            round_number,
            tuple(SeatRecord(p, forfeited=a) for p, a in zip(players, absent, strict=True)),
            outcome,
        )
    # Played on the board by two or more; the others (at a table of 3 or 4) did not come.
    came = draw(st.integers(2, size))
    absent = [seat >= came for seat in range(size)]
    absent = draw(st.permutations(absent))
    scores = draw(st.lists(st.integers(0, 60).map(lambda n: n * 10), min_size=size, max_size=size))
    flags = [False] * size
    if outcome == "flag_fall":
        present = [seat for seat in range(size) if not absent[seat]]
        fallen = draw(st.lists(st.sampled_from(present), min_size=1, max_size=len(present) - 1))
        for seat in fallen:
            flags[seat] = True
    seats = tuple(
        SeatRecord(p, forfeited=True) if a else SeatRecord(p, s, flag_fell=f)
        for p, s, f, a in zip(players, scores, flags, absent, strict=True)
    )
    return TableRecord(round_number, seats, outcome)


@st.composite
def seasons(draw):
    count = draw(st.integers(2, 9))
    records = []
    for round_number in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(range(count)))
        while order:
            size = draw(st.integers(1, 4)) if len(order) > 1 else 1
            records.append(draw(tables(round_number, list(order[:size]))))
            order = order[size:]
    return [EntrantRecord(p, f"P{p}") for p in range(count)], records


def _home_meetings(record: TableRecord):
    """The home's meetings of a table: (player, opponent, result, on the board)."""
    places = result_rules.places(
        record.outcome,
        scores=[seat.score for seat in record.seats],
        flag_fell=[seat.flag_fell for seat in record.seats],
        forfeited=[seat.forfeited for seat in record.seats],
    )
    players = record.player_ids
    return [
        (players[m.seat], players[m.opponent], m.result, m.on_board)
        for m in result_rules.meetings(record.outcome, places)
    ]


@settings(max_examples=200, deadline=None)
@given(seasons())
def test_the_standings_and_the_crosstable_count_the_homes_meetings(season):
    entrants, records = season
    rows = {row.player_id: row for row in compute(entrants, records, SETTINGS)}
    expected: Counter[int] = Counter()
    marks: dict[int, Counter[str]] = defaultdict(Counter)
    home_texts: dict[tuple[int, int], list[str]] = defaultdict(list)
    points = {"win": SETTINGS.win, "draw": SETTINGS.draw, "loss": SETTINGS.loss}
    forfeit = {"win": SETTINGS.forfeit_win_match_points, "loss": SETTINGS.forfeit_loss_match_points}
    for record in records:
        if record.outcome == "bye":
            expected[record.player_ids[0]] += SETTINGS.bye_match_points
        for player, opponent, result, on_board in _home_meetings(record):
            expected[player] += points[result] if on_board else forfeit[result]
            marks[player][result] += 1
            home_texts[player, opponent].append({"win": "+", "draw": "=", "loss": "−"}[result])
    for player, row in rows.items():
        assert row.match_points == pytest.approx(expected[player])
        assert (row.wins, row.draws, row.losses) == (
            marks[player]["win"],
            marks[player]["draw"],
            marks[player]["loss"],
        )
    shown = crosstable_texts(records)
    assert {pair: [text[0] for text in texts] for pair, texts in shown.items()} == dict(home_texts)
