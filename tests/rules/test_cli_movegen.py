"""The command line's ``moves`` and ``analyse`` (the move generator)."""

import io
import json

import pytest

from rules import Game, cli, gcg
from rules.lexicon import Lexicon

from .helpers import GCG_DIR, REPO

DEMO = REPO / "games" / "demo" / "demo-1.gcg"
#: A game whose racks hold fewer blanks: quicker to analyse.
DEMO_2 = REPO / "games" / "demo" / "demo-2.gcg"


def run(*argv):
    out = io.StringIO()
    err = io.StringIO()
    import sys

    saved, sys.stderr = sys.stderr, err
    try:
        status = cli.main(list(argv), out=out)
    finally:
        sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


def test_moves_json_lists_every_play_best_first_with_words():
    status, out, _ = run("moves", str(DEMO), "--rack", "deinorst", "--after", "8", "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["rack"] == "DEINORST" and doc["after"] == 8 and doc["rules"] == "gouds8"
    plays = doc["plays"]
    assert len(plays) == doc["count"] > 1000
    assert plays[0] == {
        "notation": "O3 .ODERNIST",
        "score": 58,
        "words": ["MODERNIST", "NO", "DD", "TE"],
        "bingo": True,
        "tiles": 8,
    }
    scores = [p["score"] for p in plays]
    assert scores == sorted(scores, reverse=True)
    assert doc["exchange_allowed"] is True and "exchanges" not in doc
    # Every listed play is legal there and scores what it says.
    game = gcg.load(DEMO).game
    while len(game.history) > 8:
        game.pop()
    for play in plays[::250]:
        from rules import parse_move

        assert game.preview(parse_move(play["notation"]), rack="DEINORST").score == play["score"]


def test_moves_top_and_exchanges():
    status, out, _ = run(
        "moves", str(DEMO), "--rack", "AB", "--after", "2", "--top", "3", "--exchanges", "--json"
    )
    assert status == 0
    doc = json.loads(out)
    assert len(doc["plays"]) <= 3
    assert doc["exchanges"] == ["-A", "-B", "-AB"]
    status, out, _ = run("moves", str(DEMO), "--rack", "AB", "--after", "2", "--top", "2")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Anke de Vries to move after move 2, rack AB:")
    assert lines[-1] == "exchange allowed: 3 distinct exchanges"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rack", "QQ", "--after", "3"), "asks for 2 x Q, but the dutch set has only 1"),
        (("--rack", "A1", "--after", "3"), "A1"),
        (("--rack", "AB", "--after", "99"), "--after must be 0 to"),
        (("--rack", "AB", "--top", "0"), "--top must be at least 1"),
        (("--rack", "AB"), "the game is over after move 16"),
    ],
)
def test_moves_refuses_bad_input_clearly(args, message):
    status, out, err = run("moves", str(DEMO), *args)
    assert status == 2 and out == ""
    assert message in err


def test_moves_needs_a_word_list_for_english_games(tmp_path):
    if not GCG_DIR.is_dir():
        pytest.skip(f"{GCG_DIR} is missing")
    path = GCG_DIR / "doug_v_emely.gcg"
    status, _, err = run("moves", str(path), "--rack", "AEINRST")
    assert status == 2 and "--word-list" in err
    words = {w.upper() for r in gcg.load(path).game.history for w, _ in r.words}
    word_list = tmp_path / "words.txt"
    word_list.write_text("\n".join(sorted(words)), encoding="utf-8")
    status, out, _ = run(
        "moves", str(path), "--rack", "AEINRST", "--after", "0", "--word-list", str(word_list)
    )
    assert status == 0
    assert "8D WINDY" not in out  # not on this rack
    assert out.startswith("doug to move after move 0, rack AEINRST:")


def test_analyse_reports_best_play_and_missed_points_per_player():
    status, out, _ = run("analyse", str(DEMO_2), "--json")
    assert status == 0
    doc = json.loads(out)
    game = gcg.load(DEMO_2, lexicon=Lexicon.default("gouds8")).game
    turns = doc["turns"]
    with_rack = [i for i, r in enumerate(game.history) if r.rack and r.is_turn]
    assert [t["move"] for t in turns] == [i + 1 for i in with_rack]
    for turn in turns:
        assert turn["best_score"] >= 0
        assert turn["missed"] == max(0, turn["best_score"] - turn["played_score"])
    first = turns[0]
    assert first["played"] == "8D LANDS" and first["played_score"] == 24
    assert first["best_score"] >= 24
    for name in game.players:
        assert doc["missed"][name] == sum(t["missed"] for t in turns if t["player"] == name)
    # The best play is legal in that position and scores what the report says.
    replayed = Game(rules=game.rules, tiles=game.tiles, players=game.players)
    for index, result in enumerate(game.history):
        turn = next((t for t in turns if t["move"] == index + 1), None)
        if turn is not None and turn["best"]:
            from rules import parse_move

            best = replayed.preview(parse_move(turn["best"]), rack=turn["rack"])
            assert best.score == turn["best_score"]
        replayed.push(result.move, rack=result.rack)
    status, text, _ = run("analyse", str(DEMO_2))
    assert status == 0
    assert text.splitlines()[-1].endswith("points left on the table")


def test_moves_refuses_a_rack_longer_than_the_rule_sets(tmp_path):
    # The standard rules hold 7 tiles: the reviewer's 8-tile rack is refused, not
    # answered with plays that Game.push would then refuse.
    path = tmp_path / "standard.gcg"
    path.write_text("#player1 ans Ans\n#player2 bert Bert\n#rules standard\n#tiles dutch\n")
    status, out, err = run("moves", str(path), "--rack", "AEKLNRTS")
    assert status == 2 and out == ""
    assert err == "--rack AEKLNRTS: a rack holds at most 7 tiles, not 8 (rule set standard)\n"
    status, out, _ = run("moves", str(path), "--rack", "AEKLNRT", "--top", "1")
    assert status == 0 and out.startswith("Ans to move after move 0, rack AEKLNRT:")


def test_moves_lists_the_blank_swaps_of_gouds_8():
    # After move 8 of demo-1 the blank on H12 stands for an N; Anke's rack holds an N,
    # so she may swap it, for N's face value 1.
    status, out, _ = run("moves", str(DEMO), "--rack", "DIJNOTU?", "--after", "8", "--top", "1")
    assert status == 0
    assert "    1  swap H12             blank swap: N\n" in out
    status, out, _ = run(
        "moves", str(DEMO), "--rack", "DIJNOTU?", "--after", "8", "--top", "1", "--json"
    )
    assert json.loads(out)["blank_swaps"] == [{"notation": "swap H12", "score": 1}]
    status, out, _ = run("moves", str(DEMO), "--rack", "DIJOTU?", "--after", "8", "--json")
    assert json.loads(out)["blank_swaps"] == []
