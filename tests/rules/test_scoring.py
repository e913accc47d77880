"""Hand-computed scores on the Dutch set (values: A1 E1 K3 O1 P3 R2 S2 T2 Z4 ...)."""

from rules import DUTCH, GOUDS_8, STANDARD, BlankSwap, Game, parse_move

from .helpers import play


def standard():
    return Game(rules=STANDARD, tiles=DUTCH, players=("Ans", "Bert"))


def test_first_word_on_centre_doubles():
    game = standard()
    result = play(game, "8G ZOEN")  # Z4 O1(H8 DW) E1 N1 = 7 x 2
    assert result.score == 14
    assert result.words == (("ZOEN", 14),)
    assert result.placed == ((7, 6, "Z"), (7, 7, "O"), (7, 8, "E"), (7, 9, "N"))
    assert result.player == 0 and result.total == 14 and result.notation == "8G ZOEN"


def test_letter_premium_before_word_premium():
    # K on D8 (DL) = 6, A A R, S on H8 (DW): (6+1+1+2+2) x 2 = 24, not (3+1+1+2+2) x 2 + 3.
    assert play(standard(), "8D KAARS").score == 24


def test_blank_scores_zero_but_keeps_the_word_premium():
    result = play(standard(), "8D KAARs")  # blank s on H8: (6+1+1+2+0) x 2
    assert result.score == 20
    assert result.words == (("KAARs", 20),)


def test_premium_counts_only_when_first_covered():
    game = standard()
    play(game, "8D KAARS")
    # ZOE down onto the S at H8: the DW under S no longer counts: 4+1+1+2.
    result = play(game, "H5 ZOE.")
    assert result.score == 8
    assert result.words == (("ZOES", 8),)
    assert result.notation == "H5 ZOE."


def test_cross_words_all_score():
    game = standard()
    play(game, "8G ZOEN")
    assert play(game, "H7 K.P").score == 7  # K3 O1 P3, no premiums
    # PET along row 9 from the P: I9 is DL: P3 + E1x2 + T2 = 7;
    # cross-words EE (I8 E + I9 E x2 = 3) and NT (1 + 2 = 3).
    result = play(game, "9H .ET")
    assert result.words == (("PET", 7), ("EE", 3), ("NT", 3))
    assert result.score == 13
    assert game.scores == (27, 7)


def test_parenthesised_letters_are_checked():
    game = standard()
    play(game, "8G ZOEN")
    assert play(game, "H7 K(O)P").score == 7


def test_single_tile_scores_its_cross_word():
    game = standard()
    play(game, "8G ZOEN")
    play(game, "H7 K.P")
    assert game.make_play([(6, 8, "S")]).notation() == "7H .S"
    # S on I7 (DL) next to K and above E: KS = 3 + 2x2 = 7, SE = 2x2 + 1 = 5.
    result = play(game, "7H .S")
    assert result.words == (("KS", 7), ("SE", 5))
    assert result.score == 12


def test_bingo_standard_adds_50():
    # V4 E1 R2x2 H4 A1 A1 L3(H8 DW): 18 x 2 = 36, + 50 for all 7 tiles.
    result = play(standard(), "8B VERHAAL")
    assert result.bingo and result.score == 86
    assert result.words == (("VERHAAL", 36),)


def test_gouds8_has_no_bingo_bonus():
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    assert play(game, "8B VERHAAL").score == 36  # 7 tiles of 8: no bingo anyway
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    # Z on A8 (TW) ... S on H8 (DW), M on D8 (DL): (4+5+1+6+3+1+2+2) x 3 x 2 = 144.
    result = play(game, "8A ZWEMBADS")
    assert result.bingo and result.score == 144


def test_blank_swap_scores_face_values():
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    play(game, "8D KAARs")
    result = game.push(BlankSwap(((7, 7),)))
    assert result.score == 2 and result.player == 1
    assert result.placed == ((7, 7, "S"),)
    assert game.board.square(7, 7).letter == "S" and not game.board.square(7, 7).is_blank
    assert result.notation == "swap H8"
    # Both blanks at once: the face values of both letters.
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    play(game, "8D kAARs")
    assert game.push(parse_move("swap D8 H8")).score == 3 + 2


def test_board_view_for_templates():
    game = standard()
    play(game, "8D KAARs")
    square = game.board.square(7, 7)
    assert (square.letter, square.is_blank, square.premium, square.name) == ("S", True, "DW", "H8")
    assert game.board.square(0, 0).letter is None
    rows = game.board.rows()
    assert len(rows) == 15 and all(len(r) == 15 for r in rows)
    assert rows[7][3].letter == "K" and rows[7][3].premium == "DL"
