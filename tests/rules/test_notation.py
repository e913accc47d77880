"""A position in either notation (rules.board.Notation): rows numbered (GCG, the engine's)
and rows lettered (FISF-2023 §1.1, §4.3.1; Eliot game/coord.cpp). Both put the row first for
an across word; they differ in which coordinate is the letter, so one text names different
squares. Every expected value below is worked out by hand from those two rules."""

from __future__ import annotations

import pytest

from rules import STANDARD, Direction, InvalidMoveError, Notation, parse_move
from rules.board import SIZE, format_position, parse_position, parse_square, square_name
from rules.dawg import build
from rules.duplicate import NTSV, DuplicateGame, score_slip
from rules.move import rewrite_position

from .test_duplicate import HAND, HAND_WORDS

NUMBERED, LETTERED = Notation.ROWS_NUMBERED, Notation.ROWS_LETTERED
ACROSS, DOWN = Direction.ACROSS, Direction.DOWN


@pytest.mark.parametrize(
    "row, col, direction, numbered, lettered",
    [
        # Row 8 (H), column 4 (D): rows numbered "8" + "D"; rows lettered "H" + "4".
        (7, 3, ACROSS, "8D", "H4"),
        (7, 3, DOWN, "D8", "4H"),
        # The centre: the letter H and the number 8 either way, in the other order.
        (7, 7, ACROSS, "8H", "H8"),
        (7, 7, DOWN, "H8", "8H"),
        # The four corners: top left (row 1/A, column A/1) ...
        (0, 0, ACROSS, "1A", "A1"),
        (0, 0, DOWN, "A1", "1A"),
        # ... top right (row 1/A, column O/15) ...
        (0, 14, ACROSS, "1O", "A15"),
        (0, 14, DOWN, "O1", "15A"),
        # ... bottom left (row 15/O, column A/1): "A15" is down here, across above ...
        (14, 0, ACROSS, "15A", "O1"),
        (14, 0, DOWN, "A15", "1O"),
        # ... bottom right (row 15/O, column O/15).
        (14, 14, ACROSS, "15O", "O15"),
        (14, 14, DOWN, "O15", "15O"),
    ],
)
def test_the_same_square_in_both_notations(row, col, direction, numbered, lettered):
    assert parse_position(numbered) == (row, col, direction)
    assert parse_position(numbered, NUMBERED) == (row, col, direction)
    assert parse_position(lettered, LETTERED) == (row, col, direction)
    assert parse_position(lettered.lower(), LETTERED) == (row, col, direction)
    assert format_position(row, col, direction) == numbered
    assert format_position(row, col, direction, LETTERED) == lettered
    assert rewrite_position(f"{numbered} WOORD", source=NUMBERED, target=LETTERED) == (
        f"{lettered} WOORD"
    )
    assert rewrite_position(f"{lettered} woord", source=LETTERED, target=NUMBERED) == (
        f"{numbered} woord"
    )


def test_one_text_names_different_squares():
    # "H4": rows numbered, column H row 4, down; rows lettered, row H column 4, across.
    assert parse_position("H4") == (3, 7, DOWN)
    assert parse_position("H4", LETTERED) == (7, 3, ACROSS)
    # "A15": rows numbered, column A row 15, down; rows lettered, row A column 15, across.
    assert parse_position("A15") == (14, 0, DOWN)
    assert parse_position("A15", LETTERED) == (0, 14, ACROSS)


def test_every_position_goes_round_in_both_notations():
    for notation in Notation:
        names = set()
        for row in range(SIZE):
            for col in range(SIZE):
                for direction in Direction:
                    name = format_position(row, col, direction, notation)
                    assert parse_position(name, notation) == (row, col, direction)
                    names.add(name)
                assert parse_square(square_name(row, col, notation), notation) == (row, col)
        assert len(names) == 2 * SIZE * SIZE


def test_squares_name_the_letter_first():
    # FISF-2023 §1.1: "la lettre de la ligne et le numéro de la colonne".
    assert square_name(7, 3) == "D8" and square_name(7, 3, LETTERED) == "H4"
    assert square_name(0, 14) == "O1" and square_name(0, 14, LETTERED) == "A15"
    assert parse_square("4H", LETTERED) == parse_square("H4", LETTERED) == (7, 3)


@pytest.mark.parametrize("notation", list(Notation))
@pytest.mark.parametrize("bad", ["P1", "1P", "H16", "16H", "H0", "0H", "", "8", "H", "8H8", "H 8"])
def test_bad_positions_are_refused_with_the_same_code(bad, notation):
    with pytest.raises(InvalidMoveError) as refused:
        parse_position(bad, notation)
    assert refused.value.code == "bad_square"
    with pytest.raises(InvalidMoveError) as refused:
        parse_square(bad, notation)
    assert refused.value.code == "bad_square"
    with pytest.raises(InvalidMoveError) as refused:
        parse_move(f"{bad} WOORD", notation=notation)
    assert refused.value.code == "bad_notation"
    assert refused.value.params["detail"] in ("bad_position", "play_form")


def test_text_that_is_no_play_is_shown_as_it_is():
    for text in ("-ABC", "-", "WOORD", "P1 WOORD", ""):
        assert rewrite_position(text, source=NUMBERED, target=LETTERED) == text
    assert rewrite_position("8D KAAS", source=LETTERED, target=LETTERED) == "8D KAAS"


def test_a_blank_swap_names_its_squares_in_the_notation():
    assert parse_move("swap D8", notation=NUMBERED) == parse_move("swap H4", notation=LETTERED)


def test_a_slip_is_read_in_the_club_notation():
    """The hand game of test_duplicate.py: turn 1's top KANTEn across from row 8 column D
    (22 points), then RAKEN down column F from row 4 through the N on F8 (14 points)."""
    game = DuplicateGame(STANDARD, HAND, NTSV, build(HAND_WORDS))
    game.draw("AEKNRT?")
    rows_numbered = game.score_slip("8D KANTEn", claimed=22)
    rows_lettered = score_slip(game.game, game.rack or "", "H4 KANTEn", top=22, notation=LETTERED)
    assert (rows_numbered.score, rows_numbered.is_top) == (22, True)
    assert (rows_lettered.score, rows_lettered.is_top, rows_lettered.reason) == (22, True, None)
    # The slip keeps the engine's notation, whatever the club writes.
    assert rows_lettered.notation == rows_numbered.notation == "8D KANTEn"
    game.play()
    game.draw("AAEKRST")
    board, rack = game.game, game.rack or ""
    # Column F is 6, row 4 is D: down from D6 is "6D" rows lettered; the whole word may be
    # written through the N on the board, as rows numbered. R2 A1 K3x3 E1 N1 = 14.
    slip = score_slip(board, rack, "6D RAKEN", top=14, notation=LETTERED)
    assert (slip.score, slip.is_top, slip.notation) == (14, True, "F4 RAKE.")
    # The same text read the other way: "F4" rows lettered is row F from column 4, across,
    # two rows above the tiles: it touches nothing on the board.
    assert score_slip(board, rack, "F4 RAKEN", notation=LETTERED).reason == "not_connected"
    assert score_slip(board, rack, "6D RAKEN").reason == "not_connected"
    # Bad text is refused with the same reasons in either notation.
    for notation in Notation:
        assert score_slip(board, rack, "8Z KAT", notation=notation).reason == "bad_notation"
        assert score_slip(board, rack, "-KAT", notation=notation).reason == ("duplicate_not_a_play")
