"""``python -m rules duplicate``: the master game from a bag order."""

import json

from .test_cli_movegen import run


def test_duplicate_json_gives_each_turn_its_rack_tops_choice_and_running_total():
    status, out, _ = run("duplicate", "--bag", "KAAS?ENTRWOORD", "--json")
    assert status == 0
    doc = json.loads(out)
    first, second = doc["turns"][:2]
    assert first["rack"] == "AAEKNS?"
    # K on D8 (DL) 6, A1 A1, r0, S on H8 (DW) 2, E1 N1 = 12 x 2 = 24, + 50 (seven tiles).
    assert first["top"] == 74
    assert [t["play"] for t in first["tops"]][:2] == ["8D KAArSEN", "8D KAAtSEN"]
    assert len(first["tops"]) == 8 and all(t["bingo"] for t in first["tops"])
    assert first["chosen"] == "8D KAArSEN" and first["total"] == 74
    # The bag still holds an R: it replaces the blank, which goes back into the bag.
    assert first["blanks_replaced"] == [{"square": "G8", "letter": "R"}]
    # The R came out of the bag order, so the next seven are T W O O R D and an A.
    assert second["rack"] == "ADOORTW"
    # Down from J7 through the N: A1 N1 T2 W on J10 (TL) 15 O1 O1 R2 D on J14 (TL) 6
    # = 29, + 50.
    assert second["chosen"] == "J7 ANTWOORD" and second["top"] == 79
    assert second["tops"][0]["notation"] == "J7 A.TWOORD"
    assert second["total"] == 153
    assert doc["total"] == doc["turns"][-1]["total"]
    assert doc["ending"] in ("too_few_tiles", "no_vowel")
    assert doc["draw_rules"]["name"] == "ntsv"


def test_duplicate_text_and_refusals():
    status, out, _ = run("duplicate", "--bag", "KAAS?ENTRWOORD")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith(" 1. AAEKNS?  top 74: 8D KAArSEN, 8D KAAtSEN,")
    assert lines[1] == "    chosen 8D KAArSEN  total 74; blank on G8 replaced by R"
    assert lines[-1].startswith("End after ")
    for argv, message in (
        (["--bag", "QQ"], "only 1 Q"),
        (["--bag", "K1"], "'1' is not a tile"),
        (["--draw-rules", "{"], "not JSON"),
        (["--draw-rules", '{"leftovers": "burn"}'], "leftovers must be one of"),
    ):
        status, out, err = run("duplicate", *argv)
        assert status == 2 and out == "" and message in err, (argv, err)


def test_duplicate_with_a_seed_is_reproducible_and_keeps_leftovers_when_asked():
    rules = '{"name": "keep", "leftovers": "keep"}'
    runs = [run("duplicate", "--seed", "4", "--draw-rules", rules, "--json") for _ in range(2)]
    assert runs[0] == runs[1]
    doc = json.loads(runs[0][1])
    assert all(turn["returned"] == "" for turn in doc["turns"])
    assert doc["draw_rules"]["leftovers"] == "keep"
