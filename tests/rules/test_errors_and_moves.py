"""Error codes are stable and documented; moves are small hashable values."""

import pickle
import re
from pathlib import Path

import pytest

import rules
from rules import (
    MESSAGES,
    Annul,
    BlankSwap,
    Challenge,
    EndRack,
    Exchange,
    FlagFall,
    IllegalMoveError,
    Pass,
    Play,
    TimePenalty,
    parse_move,
)
from rules.board import Direction

# The sources in the checkout, also when the tests run against the compiled engine.
RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


def test_every_raised_code_has_a_message_and_is_documented():
    docs = (RULES_DIR.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    raised = set()
    for path in RULES_DIR.glob("*.py"):
        if path.name.startswith("lexicon"):
            continue
        raised |= set(re.findall(r'Error\(\s*"([a-z_]+)"', path.read_text()))
    assert raised <= set(MESSAGES)
    for code in MESSAGES:
        assert f"`{code}`" in docs, code


def test_errors_carry_code_and_params_and_pickle():
    err = IllegalMoveError("too_many_tiles", tiles="dutch", count=1, letter="Q")
    assert str(err) == "the dutch set has only 1 Q tile(s)"
    assert err.params == {"tiles": "dutch", "count": 1, "letter": "Q"}
    again = pickle.loads(pickle.dumps(err))
    assert (again.code, again.params, str(again)) == (err.code, err.params, str(err))


@pytest.mark.parametrize(
    "text, move",
    [
        ("8H ZOEN", Play(7, 7, Direction.ACROSS, "ZOEN")),
        ("H8 zoen", Play(7, 7, Direction.DOWN, "zoen")),
        ("8H ZO..N", Play(7, 7, Direction.ACROSS, "ZO..N")),
        ("8H ZO(en)N", Play(7, 7, Direction.ACROSS, "ZO(EN)N")),
        ("-ABC?", Exchange(tiles="ABC?")),
        ("-3", Exchange(count=3)),
        ("-", Pass()),
        ("swap H8 K5", BlankSwap(((7, 7), (4, 10)))),
        ("(challenge)", Challenge(valid=True)),
        ("--", Challenge(valid=False)),
        ("(time 2)", TimePenalty(0, 2)),
        ("(flagfall)", FlagFall()),
        ("(annulled)", Annul()),
        ("(ABC)", EndRack(0, "ABC")),
    ],
)
def test_parse_and_format(text, move):
    parsed = parse_move(text)
    assert parsed == move and hash(parsed) == hash(move)
    assert parse_move(parsed.notation()) == parsed
    assert len({parsed, move}) == 1


def test_play_parts():
    move = parse_move("8h JAVE(LI)n")
    assert move.placed == ((0, "J"), (1, "A"), (2, "V"), (3, "E"), (6, "n"))
    assert move.through == ((4, "L"), (5, "I"))
    assert move.length == 7 and move.position == "8H" and str(move) == "8H JAVE(LI)n"
    assert Play.parse("H8", "ab") == parse_move("H8 ab")
    assert parse_move("swap H8,K5") == parse_move("swap H8 K5")
    assert Exchange(tiles="cba").tiles == "ABC"


@pytest.mark.parametrize(
    "module", ["rules", "board", "errors", "game", "gcg", "move", "ruleset", "tiles"]
)
def test_doctests(module):
    import doctest
    import importlib

    mod = importlib.import_module("rules" if module == "rules" else f"rules.{module}")
    if not str(mod.__file__).endswith(".py"):
        pytest.skip(
            "compiled engine: doctest finds no examples in compiled code; pure run has them"
        )
    failures, tried = doctest.testmod(mod)
    assert failures == 0 and tried > 0


@pytest.mark.parametrize("notation", ["-²", "-٣", "-3²", "(time ²)", "(time ٣)"])
def test_digits_of_other_scripts_are_refused_not_crashed(notation):
    """`str.isdigit()` accepts "²", which `int()` refuses: the notation is ASCII digits."""
    with pytest.raises(rules.RulesError):
        rules.parse_move(notation)


@pytest.mark.parametrize(
    "typed, long_form",
    [
        ("*H8", "swap H8"),
        ("*h8 k5", "swap H8 K5"),
        ("* H8,K5", "swap H8 K5"),
        ("?+", "(challenge)"),
        ("?-", "--"),
        ("!", "(flagfall)"),
    ],
)
def test_short_forms_read_as_the_long_form_and_are_written_long(typed, long_form):
    """The board's typing shortcuts: the same move as the long form, and its notation (what
    is stored and exported) is the long form."""
    move = parse_move(typed)
    assert move == parse_move(long_form)
    assert move.notation() == long_form


@pytest.mark.parametrize(
    "typed, code, detail",
    [
        ("?", "bad_notation", "challenge_form"),
        ("?x", "bad_notation", "challenge_form"),
        ("?++", "bad_notation", "challenge_form"),
        ("*", "bad_notation", "swap_no_squares"),
        ("* ,", "bad_notation", "swap_no_squares"),
        ("*Z9", "bad_square", None),
        ("*H8 K5 A1", "bad_notation", "swap_squares"),
        ("!x", "bad_notation", "play_form"),
        ("!!", "bad_notation", "play_form"),
        ("-*", "bad_notation", "exchange_form"),
    ],
)
def test_garbage_short_forms_are_refused_with_a_code(typed, code, detail):
    with pytest.raises(rules.InvalidMoveError) as refused:
        parse_move(typed)
    assert refused.value.code == code
    assert refused.value.params.get("detail") == detail
    if code == "bad_notation":
        assert refused.value.params["notation"] == typed
