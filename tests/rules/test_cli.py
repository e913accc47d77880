"""The command line: replay (text and JSON), check, build-lexicon."""

import io
import json

import pytest

from rules import cli

from .helpers import GCG_DIR, needs_gcg_files


def run(*argv):
    out = io.StringIO()
    status = cli.main(list(argv), out=out)
    return status, out.getvalue()


@needs_gcg_files
def test_replay_text():
    status, out = run("replay", str(GCG_DIR / "doug_v_emely.gcg"), "--no-lexicon")
    assert status == 0
    assert "8D WINDY" in out and "WINDY 32" in out
    assert out.rstrip().endswith("doug wins (going out)")
    assert "doug 451 - emely 345" in out


@needs_gcg_files
def test_replay_json():
    status, out = run(
        "replay", str(GCG_DIR / "vs_frentz.gcg"), "--json", "--no-lexicon", "--tiles", "english"
    )
    assert status == 0
    doc = json.loads(out)
    moves = doc["moves"]
    assert moves[0] == {**moves[0], "player": "cesar", "notation": "8D CRAAlED", "score": 74}
    assert moves[0]["total"] == 74
    assert moves[-1]["kind"] == "end_adjustment" and moves[-1]["total"] == 550
    assert doc["result"]["winner"] == "frentz"


def test_replay_reports_the_line_of_an_illegal_move(tmp_path, capsys):
    path = tmp_path / "bad.gcg"
    path.write_text("#player1 a A\n#player2 b B\n#rules gouds8\n#tiles dutch\n>a: 7G ZOEN +14 14\n")
    status, _ = run("replay", str(path), "--no-lexicon")
    assert status == 1
    assert f"{path}:5: " in capsys.readouterr().err


def test_replay_a_dutch_game_with_word_list(tmp_path):
    path = tmp_path / "g.gcg"
    path.write_text("#player1 a A\n#player2 b B\n#rules gouds8\n#tiles dutch\n>a: 8G ZOEN +14 14\n")
    status, out = run("replay", str(path))
    assert status == 0 and "ZOEN 14" in out


def test_check_words():
    pytest.importorskip("rules.lexicon")
    status, out = run("check", "zoen", "QQQQ", "ab1", "--rules", "gouds8")
    assert "zoen: playable" in out
    assert "QQQQ: not playable" in out and "ab1: not playable" in out
    assert status == 1


def test_build_lexicon_delegates(monkeypatch):
    import types

    seen = []
    fake = types.ModuleType("rules.lexicon_build")
    fake.main = lambda argv: seen.append(argv) or 0
    monkeypatch.setitem(__import__("sys").modules, "rules.lexicon_build", fake)
    import rules

    monkeypatch.setattr(rules, "lexicon_build", fake, raising=False)
    assert cli.main(["build-lexicon", "--help-me"]) == 0
    assert seen == [["--help-me"]]
