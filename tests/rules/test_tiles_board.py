from collections import Counter

import pytest

from rules import DUTCH, ENGLISH, InvalidMoveError, RulesError, TileSet, tile_set
from rules.board import (
    PREMIUMS,
    Direction,
    format_position,
    parse_position,
    parse_square,
    premium,
    square_name,
)
from rules.tiles import parse_rack

DUTCH_TABLE = (
    "A6/1 B2/3 C2/5 D5/2 E18/1 F2/4 G3/3 H2/4 I4/1 J2/4 K3/3 L3/3 M3/3 N10/1 "
    "O6/1 P2/3 Q1/10 R5/2 S5/2 T5/2 U3/4 V2/4 W2/5 X1/8 Y1/8 Z2/4"
)


def test_dutch_set_matches_the_table():
    for item in DUTCH_TABLE.split():
        letter, (count, value) = item[0], map(int, item[1:].split("/"))
        assert DUTCH.count(letter) == count
        assert DUTCH.value(letter) == value
    assert DUTCH.count("?") == 2
    assert DUTCH.total == 102
    assert sum(DUTCH.count(letter) for letter in DUTCH.letters) == 100


def test_english_set_is_the_standard_100():
    assert ENGLISH.total == 100
    assert (ENGLISH.count("E"), ENGLISH.value("Q"), ENGLISH.value("Z")) == (12, 10, 10)
    assert ENGLISH.count("?") == 2


def test_blank_is_worth_nothing_and_rack_value_sums():
    assert DUTCH.value("q") == 0
    assert DUTCH.value("?") == 0
    assert DUTCH.rack_value("QX?") == 18


def test_tile_set_round_trips_as_dict():
    assert TileSet.from_dict(DUTCH.to_dict()) == DUTCH
    assert tile_set("English") is ENGLISH
    with pytest.raises(RulesError) as err:
        tile_set("klingon")
    assert err.value.code == "unknown_tile_set"
    with pytest.raises(RulesError):
        TileSet.from_dict({"name": "x"})
    with pytest.raises(RulesError):
        TileSet("bad", {"é": (1, 1)})


def test_parse_rack_sorts_with_blanks_last():
    assert parse_rack("?zab", DUTCH) == "ABZ?"
    with pytest.raises(RulesError) as err:
        parse_rack("A1", DUTCH)
    assert err.value.code == "unknown_letter"


def test_premium_squares():
    counts = Counter(p for p in PREMIUMS if p)
    assert counts == {"TW": 8, "DW": 17, "TL": 12, "DL": 24}
    assert premium(7, 7) == "DW"  # centre H8
    assert premium(0, 0) == premium(14, 14) == premium(0, 7) == "TW"
    assert premium(0, 3) == "DL"  # D1
    assert premium(1, 5) == "TL"  # F2
    # The board is symmetric under transposition and both mirrors.
    for r in range(15):
        for c in range(15):
            assert premium(r, c) == premium(c, r) == premium(14 - r, c) == premium(r, 14 - c)


def test_coordinates():
    assert parse_square("H8") == (7, 7) == parse_square("8h")
    assert parse_square("O15") == (14, 14)
    assert square_name(0, 0) == "A1"
    assert parse_position("8H") == (7, 7, Direction.ACROSS)
    assert parse_position("H8") == (7, 7, Direction.DOWN)
    assert parse_position("10B") == (9, 1, Direction.ACROSS)
    assert format_position(9, 1, Direction.ACROSS) == "10B"
    assert format_position(9, 1, Direction.DOWN) == "B10"
    for bad in ("P1", "H16", "H0", "", "8"):
        with pytest.raises(InvalidMoveError) as err:
            parse_square(bad)
        assert err.value.code == "bad_square"
