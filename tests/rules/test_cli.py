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


@pytest.mark.parametrize("rules", sorted(cli.RULE_SETS))
def test_check_works_for_every_rule_set(rules, capsys):
    pytest.importorskip("rules.lexicon")
    status, out = run("check", "zoen", "--rules", rules)
    if cli.RULE_SETS[rules].lexicon == "english":  # no English word list is shipped
        assert (status, out) == (2, "")
        assert f"{rules} has no word list here" in capsys.readouterr().err
    else:
        assert (status, out) == (0, "zoen: playable\n")


PENDING = (
    "#player1 a Ans\n#player2 b Bert\n#rules standard\n#tiles dutch\n"
    ">a: ZOEN 8G ZOEN +14 14\n>b: - +0 0\n>a: - +0 14\n>b: - +0 0\n>a: - +0 14\n"
)


@pytest.mark.parametrize("rules", sorted(cli.RULE_SETS))
def test_replay_works_for_every_rule_set(rules, tmp_path, capsys):
    path = tmp_path / "g.gcg"
    path.write_text(PENDING)
    status, out = run("replay", str(path), "--rules", rules, "--no-lexicon")
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if status:  # refused by this rule set (SBNL allows no pass): the line says why
        assert status == 1 and err.startswith(f"{path}:6: passing is not allowed under")
    else:
        assert "8G ZOEN" in out


def test_a_game_waiting_for_end_racks_names_no_winner(tmp_path):
    path = tmp_path / "g.gcg"
    path.write_text(PENDING)
    status, out = run("replay", str(path), "--no-lexicon")
    assert status == 0
    assert out.rstrip().splitlines()[-1] == (
        "Over (scoreless turns), result pending: Ans 14 - Bert 0 before the end "
        "adjustment; the end rack of Ans, Bert is needed"
    )
    status, out = run("replay", str(path), "--no-lexicon", "--json")
    doc = json.loads(out)
    assert doc["pending_end_racks"] == ["Ans", "Bert"]
    assert doc["result"]["winner"] is None and doc["result"]["pending_end_racks"] == ["Ans", "Bert"]
    # With the end racks the result is known.
    # Ans AABBCDE: 1+1+3+3+5+2+1 = 16; Bert DEEEEEE: 2+6 = 8.
    path.write_text(PENDING + ">a: AABBCDE (AABBCDE) -16 -2\n>b: DEEEEEE (DEEEEEE) -8 -8\n")
    doc = json.loads(run("replay", str(path), "--no-lexicon", "--json")[1])
    assert doc["pending_end_racks"] == [] and doc["result"]["winner"] == "Ans"


def test_exchanging_more_tiles_than_the_set_holds_names_the_set(tmp_path, capsys):
    path = tmp_path / "g.gcg"
    path.write_text("#player1 a A\n#player2 b B\n>a: ZA 8H ZA +22 22\n>b: ZZZ -ZZZ +0 0\n")
    assert run("replay", str(path), "--no-lexicon")[0] == 1
    assert capsys.readouterr().err == f"{path}:4: the english set has only 1 Z tile(s)\n"
