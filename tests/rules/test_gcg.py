"""GCG: the real English games replay to the recorded scores; our files round-trip."""

import re

import pytest

from rules import (
    DUTCH,
    ENGLISH,
    GOUDS_8,
    NASPA,
    SBNL_WEDSTRIJD,
    STANDARD,
    Annul,
    BlankSwap,
    Challenge,
    FlagFall,
    Game,
    GCGError,
    Pass,
    TimePenalty,
    gcg,
    parse_move,
)

from .helpers import GCG_DIR, gcg_files, needs_gcg_files, play

GCG_FILES = gcg_files()


def recorded_lines(path):
    """(score, total) of every line of the file that carries them."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.search(r"([+-]\d+) (-?\d+)\s*$", line)
        if line.startswith(">") and match:
            rows.append((int(match.group(1)), int(match.group(2))))
    return rows


@needs_gcg_files
@pytest.mark.parametrize("path", GCG_FILES, ids=lambda p: p.name)
def test_real_games_replay_to_the_recorded_scores(path):
    record = gcg.load(path, rules=NASPA, tiles=ENGLISH, lexicon=None)
    game = record.game
    computed = [(r.score, r.total) for r in game.history if r.kind != "end_rack"]
    computed += [(a.score, a.total) for a in game.adjustments]
    assert computed == recorded_lines(path)
    final = recorded_lines(path)
    last_total = {}
    for line in path.read_text().splitlines():
        match = re.match(r">([^:]+):.*?(-?\d+)\s*$", line)
        if match:
            last_total[match.group(1)] = int(match.group(2))
    assert sorted(game.scores) == sorted(last_total.values())
    assert game.is_over and game.result.ending == "going_out"
    assert len(final) > 20


@needs_gcg_files
def test_real_games_events():
    record = gcg.load(GCG_DIR / "josh2.gcg")
    kinds = [r.kind for r in record.game.history]
    assert kinds.count("challenge") == 5 and "exchange" in kinds
    withdrawn = [r for r in record.game.history if r.notation == "--"]
    assert [(r.score, r.total) for r in withdrawn] == [(-74, 224)]
    assert record.notes and record.lines[0] == 3


def test_a_wrong_score_names_the_line():
    text = "#player1 a Ann\n#player2 b Bob\n>a: ZOEN 8G ZOEN +30 30\n"
    with pytest.raises(GCGError) as err:
        gcg.read(text, rules=STANDARD, tiles=DUTCH)
    assert err.value.line == 3 and "recorded score +30 but it scores +14" in str(err.value)


def test_an_illegal_move_names_the_line():
    text = (
        "#player1 a Ann\n#player2 b Bob\n#rules standard\n#tiles dutch\n>a: ZOEN 7G ZOEN +14 14\n"
    )
    with pytest.raises(GCGError) as err:
        gcg.read(text)
    assert err.value.line == 5 and err.value.params["cause"] == "first_not_centre"


@pytest.mark.parametrize(
    "text, line, code",
    [
        ("#player1 a A\n", 1, "gcg_no_players"),
        ("#player1 a A\n#player2 b B\n>c: 8H AB +4 4\n", 3, "gcg_unknown_player"),
        ("#player1 a A\n#player2 b B\nwhat\n", 3, "gcg_bad_line"),
        ("#player1 a A\n#player2 b B\n#rules chess\n", 3, "gcg_bad_pragma"),
        ("#player1 a A\n#player2 b B\n>a: AB 8G AB +8\n", 3, "gcg_no_score"),
        ("#player1 a A\n#player2 b B\n>a: AB 8G AB +8 8\n>a: - +0 8\n", 4, "gcg_move"),
        ("#player1 a A\n#player2 b B\n>a: AB 8G AB +8 8\n>b: (C) +3 3\n", 4, "gcg_end_rack_early"),
        ("#player1 a A\n#player2 a B\n", 2, "gcg_duplicate_nick"),
        ('#player1 a A\n#player2 b B\n#bordpunt-tiles {"letters": 5}\n', 3, "gcg_bad_pragma"),
        ("#player1 a A\n#player2 b B\n#bordpunt-rules " + "[" * 5000 + "\n", 3, "gcg_bad_pragma"),
        ("#player1 a A\n#player2 b B\n>a: AB 8G AB +8 " + "9" * 5000 + "\n", 3, "gcg_no_score"),
        ("#player1 a A\n#player2 b B\n>a: ABC -\u00b2 +0 0\n", 3, "gcg_unreadable"),
    ],
)
def test_gcg_errors(text, line, code):
    with pytest.raises(GCGError) as err:
        gcg.read(text, rules=STANDARD, tiles=DUTCH)
    assert (err.value.line, err.value.code) == (line, code)
    assert str(err.value) == f"line {line}: {err.value.reason}"


@pytest.mark.parametrize(
    "data",
    [
        b"#character-encoding UTF\x00-8\n#player1 a A\n#player2 b B\n",
        b"#character-encoding klingon\n#player1 a A\n#player2 b B\n",
        b"#character-encoding zlib\n#player1 a A\n#player2 b B\n",
        b"\xef\xbb\xbf#player1 a \xff\n#player2 b B\n",
    ],
)
def test_an_unreadable_encoding_is_a_gcg_error_on_line_1(data):
    with pytest.raises(GCGError) as err:
        gcg.read(data)
    assert (err.value.line, err.value.code) == (1, "gcg_encoding")


def test_encodings():
    text = "#character-encoding ISO-8859-1\n#player1 jo Jos\u00e9\n#player2 b Bea\n"
    record = gcg.read(text.encode("iso-8859-1"))
    assert record.game.players == ("Jos\u00e9", "Bea")
    utf8 = "#player1 jo Jos\u00e9\n#player2 b Bea\n".encode()
    assert gcg.read(utf8).game.players[0] == "Jos\u00e9"
    latin_without_pragma = "#player1 jo Jos\u00e9\n#player2 b Bea\n".encode("iso-8859-1")
    assert gcg.read(latin_without_pragma).game.players[0] == "Jos\u00e9"
    assert gcg.write(Game(players=("Jos\u00e9", "Bea"))).startswith("#character-encoding UTF-8")


def same_game(a: Game, b: Game) -> None:
    assert a.rules == b.rules and a.tiles == b.tiles and a.players == b.players
    assert a.first_player == b.first_player
    assert [(r.move, r.player, r.score, r.total, r.rack) for r in a.history] == [
        (r.move, r.player, r.score, r.total, r.rack) for r in b.history
    ]
    assert a.scores == b.scores and a.result == b.result


def round_trip(game: Game) -> Game:
    text = gcg.write(game)
    again = gcg.read(text).game
    same_game(game, again)
    return again


def test_gouds8_extension_round_trips():
    game = Game(rules=GOUDS_8, tiles=DUTCH, players=("Ans de Vries", "Bert"), first_player=1)
    game.push(parse_move("8D KAARs"), rack="KAARS?EE")
    game.push(Challenge(valid=True))  # Ans challenged: loses her turn
    game.push(BlankSwap(((7, 7),)), rack="SEEEZOTP")
    play(game, "H5 ZOE.")
    game.push(Pass())
    game.push(FlagFall())
    text = gcg.write(game)
    assert "#rules gouds8" in text and "#tiles dutch" in text
    assert "#bordpunt-blankswap >Bert: EEOPSTZ? H8 +2 22" not in text  # rack as given
    assert "#bordpunt-blankswap" in text and "#bordpunt-flagfall >Ans_de_Vries:" in text
    assert "#bordpunt-first Bert" in text
    again = round_trip(game)
    assert again.result.ending == "flag_fall"


def test_sbnl_and_custom_rules_round_trip():
    game = Game(rules=SBNL_WEDSTRIJD, tiles=DUTCH)
    play(game, "8G ZOEN")
    game.push(Challenge(valid=False))
    play(game, "8G ZOEN")
    game.push(Challenge(valid=True))
    game.push(TimePenalty(0, 2))
    round_trip(game)
    import dataclasses

    club = dataclasses.replace(STANDARD, name="club", bingo_bonus=40)
    game = Game(rules=club, tiles=DUTCH)
    play(game, "8B VERHAAL")
    game.push(Annul())
    again = round_trip(game)
    assert again.rules.bingo_bonus == 40 and again.scores == (76, 0)


def test_end_racks_round_trip():
    game = Game(rules=STANDARD, tiles=DUTCH)
    play(game, "8G ZOEN")
    for _ in range(4):
        game.push(Pass())
    from rules import EndRack

    game.push(EndRack(0, "EEEEEEE"))
    game.push(EndRack(1, "BBCCDDE"))
    text = gcg.write(game)
    assert ">A: EEEEEEE (EEEEEEE) -7 7" in text
    round_trip(game)


def test_notes_and_pragmas_are_kept():
    text = (
        "#player1 a Ann\n#player2 b Bob\n#title Final\n#note before\n"
        ">a: ZOEN 8G ZOEN +14 14\n#note nice\n"
    )
    record = gcg.read(text, rules=STANDARD, tiles=DUTCH)
    assert record.notes == {-1: ["before"], 0: ["nice"]}
    assert record.pragmas == {"title": "Final"}
    written = gcg.write(record.game, notes=record.notes, pragmas=record.pragmas)
    assert "#note nice" in written and "#title Final" in written
    assert gcg.read(written).notes == record.notes
