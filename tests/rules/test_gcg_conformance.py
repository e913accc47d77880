"""GCG written by other programs: every fixture replays to every recorded score.

The fixtures (tests/rules/fixtures/gcg, sources and licences in its README) are read with
the defaults for a file that names no rule set: NASPA rules, English tiles. The recorded
scores are read here with a regex of our own, not with the reader under test.
"""

import re
from pathlib import Path

import pytest

from rules import GCGError, gcg

FIXTURES = Path(__file__).parent / "fixtures" / "gcg"
FILES = sorted(FIXTURES.glob("*.gcg"))
SCORED = re.compile(r"^>([^:\s]+):.*\s([+-]\d+)\s+(-?\d+)\s*$")


def recorded(path):
    """{line number: (nick, score, total)} of every line that carries a score."""
    text = gcg.decode(path.read_bytes())
    rows = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = SCORED.match(line.strip())
        if match:
            rows[number] = (match.group(1), int(match.group(2)), int(match.group(3)))
    return rows


def test_there_are_fixtures():
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_recorded_line_is_replayed_and_scores_as_recorded(path):
    record = gcg.load(path)
    game = record.game
    lines = recorded(path)
    # Every scored line of the file was read as a move, an end-rack line or a pass in
    # the challenge window; nothing was skipped.
    read = set(record.lines) | {n for *_, n in record.end_lines}
    read |= {n for _, n in record.window_passes}
    assert set(lines) <= read
    for result, number in zip(game.history, record.lines, strict=True):
        if number in lines and result.kind != "end_rack":
            assert result.score == lines[number][1], f"line {number}"
    # The final scores are the last recorded totals.
    last = {}
    for nick, _, total in lines.values():
        last[nick] = total
    assert sorted(game.scores) == sorted(last.values())


def load(name):
    return gcg.load(FIXTURES / name)


def test_pass_in_the_challenge_window_then_the_end_rack():
    record = load("doug_v_emely_double_challenge.gcg")
    assert record.window_passes == [(0, 30)]
    assert record.game.result.ending == "going_out"
    assert [(a.player, a.tiles, a.score) for a in record.game.adjustments] == [
        (1, "EGOP", 14)  # E1 G2 O1 P3 = 7, doubled under NASPA
    ]


def test_failed_challenge_of_the_final_play_then_the_end_rack():
    record = load("some_isc_game.gcg")
    game = record.game
    assert game.players == ("José Arcadio Buendía", "Úrsula Iguarán Buendía")
    assert record.pragmas["description"] == "Created with Macondo"
    assert record.pragmas["id"] == "org.aerolith RfqTieg8s6eg4J9TXp5n7R"
    assert [r.kind for r in game.history[-2:]] == ["play", "challenge"]
    assert game.scores == (364, 409)  # 394 + 5 (challenge) + 2 x (D2 I1 I1 T1)


def test_crlf_and_a_note_that_runs_on():
    record = load("utf8_dos.gcg")
    assert (FIXTURES / "utf8_dos.gcg").read_bytes().count(b"\r\n") > 40
    notes = [n for texts in record.notes.values() for n in texts]
    long_note = next(n for n in notes if n.startswith("tennises"))
    assert long_note.split("\n")[1].startswith("since ive been behind")
    again = gcg.read(gcg.write(record.game, notes=record.notes))
    assert again.notes == record.notes


def test_a_time_penalty_after_the_end_rack():
    game = load("vs_josh_time_penalty.gcg").game
    assert game.history[-1].kind == "time_penalty" and game.history[-1].score == -70
    assert game.scores == (387, 397)


def test_latin1_without_a_pragma():
    game = load("name_iso8859-1.gcg").game
    assert game.players[0] == "césar" and not game.is_over


def test_a_byte_order_mark_is_skipped():
    data = (FIXTURES / "guy_vs_bot.gcg").read_bytes()
    assert gcg.read(b"\xef\xbb\xbf" + data).game.scores == gcg.read(data).game.scores
    assert gcg.read("\ufeff" + data.decode()).game.scores == gcg.read(data).game.scores


def test_other_programs_pragmas_are_kept_and_tile_distribution_is_used():
    text = (
        "#character-encoding UTF-8\n#lexicon NWL2020\n#title Club night\n#incomplete\n"
        "#tile-distribution english\n#player1 an An de Wit\n#player2 bo Bo\n"
        ">an: ZOEKERS 8H ZOEK +34 34\n"
    )
    record = gcg.read(text, rules=None)
    assert record.game.tiles.name == "english"  # Z is worth 10 in English, 4 in Dutch
    assert record.pragmas == {"lexicon": "NWL2020", "title": "Club night", "incomplete": ""}
    assert record.game.players == ("An de Wit", "Bo")


def test_only_a_scoreless_pass_fits_the_challenge_window():
    text = (FIXTURES / "doug_v_emely_double_challenge.gcg").read_text()
    with pytest.raises(GCGError) as err:
        gcg.read(text.replace(">doug: EGOP - +0 451", ">doug: EGOP - +3 454"))
    assert (err.value.line, err.value.params["cause"]) == (30, "game_over")


def test_a_challenge_line_that_names_the_challenger_says_whom_it_scores_for():
    text = (FIXTURES / "some_isc_game.gcg").read_text(encoding="utf-8")
    text = text.replace(">úrsula:  (challenge) +5 399", ">arcadio:  (challenge) +5 369")
    with pytest.raises(GCGError) as err:
        gcg.read(text)
    assert err.value.code == "gcg_challenge_player"
    assert "scores for Úrsula Iguarán Buendía" in str(err.value)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_what_we_write_of_each_fixture_reads_back_to_the_same_game(path):
    record = gcg.load(path)
    text = gcg.write(record.game, notes=record.notes, pragmas=record.pragmas)
    again = gcg.read(text)
    assert [(r.move, r.player, r.score, r.total) for r in again.game.history] == [
        (r.move, r.player, r.score, r.total) for r in record.game.history
    ]
    assert again.game.scores == record.game.scores and again.notes == record.notes


def test_a_successful_challenge_of_the_final_play_takes_it_back():
    text = (FIXTURES / "guy_vs_bot.gcg").read_text()
    text = text.replace(">bot: (CDDEOT) +20 424\n", ">bot: U -- -6 398\n>guy: CDDEOT - +0 454\n")
    game = gcg.read(text).game
    # Bot's .U (6) was a phony: off the board, the game goes on, bot holds U again.
    assert [r.kind for r in game.history[-2:]] == ["challenge", "pass"]
    assert not game.is_over and game.scores == (454, 398) and game.rack_sizes[1] == 1
