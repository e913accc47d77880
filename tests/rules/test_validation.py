"""Every refusal has a code; the game is unchanged after a refused move."""

import dataclasses

import pytest

from rules import (
    DUTCH,
    GOUDS_8,
    MESSAGES,
    SBNL_WEDSTRIJD,
    STANDARD,
    BlankSwap,
    Challenge,
    EndRack,
    Exchange,
    FlagFall,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Pass,
    TimePenalty,
    parse_move,
)

from .helpers import MINI, play


def refused(game, notation_or_move, code, **kwargs):
    move = parse_move(notation_or_move) if isinstance(notation_or_move, str) else notation_or_move
    before = (game.scores, list(game.board), len(game.history), game.bag_size)
    with pytest.raises(IllegalMoveError) as err:
        game.push(move, **kwargs)
    assert err.value.code == code, str(err.value)
    assert err.value.code in MESSAGES
    assert isinstance(err.value, ValueError)
    assert (game.scores, list(game.board), len(game.history), game.bag_size) == before
    return err.value


def std():
    game = Game(rules=STANDARD, tiles=DUTCH, players=("Ans", "Bert"))
    return game


def test_off_board():
    err = refused(std(), "8L KAARSEN", "off_board")
    assert err.params["square"] == "L8"


def test_square_occupied_and_empty_and_mismatch():
    game = std()
    play(game, "8G ZOEN")
    err = refused(game, "H7 KOP", "square_occupied")
    assert "write it as '.' or '(O)'" in str(err)
    refused(game, "H9 .P", "square_empty")
    refused(game, "H7 K(A)P", "through_mismatch")


def test_no_tiles():
    game = std()
    play(game, "8G ZOEN")
    refused(game, "8G ....", "no_tiles")


def test_word_must_be_whole():
    game = std()
    play(game, "8G ZOEN")
    refused(game, "8J .S", "word_extends")  # ZOEN continues to the left of J8
    refused(game, "8E AA", "word_extends")  # would run into ZOEN


def test_not_connected():
    game = std()
    play(game, "8G ZOEN")
    err = refused(game, "3A KAT", "not_connected")
    assert str(err) == "the word does not touch any tile already on the board"


def test_first_play_rules():
    refused(std(), "7G ZOEN", "first_not_centre")
    refused(std(), "H1 ZOEN", "first_not_centre")
    refused(std(), "8H Z", "first_too_short")


def test_one_line_and_no_gaps_from_placed_tiles():
    game = std()
    play(game, "8G ZOEN")
    with pytest.raises(IllegalMoveError) as err:
        game.make_play([(6, 6, "A"), (8, 7, "B")])
    assert err.value.code == "not_in_line"
    with pytest.raises(IllegalMoveError) as err:
        game.make_play([(5, 7, "A"), (8, 7, "B")])  # H6 and H9: H7 is empty
    assert err.value.code == "gap"
    assert game.make_play([(6, 7, "K"), (8, 7, "P")]).notation() == "H7 K.P"
    assert game.make_play([(7, 10, "S")]).notation() == "8G ....S"
    with pytest.raises(IllegalMoveError) as err:
        game.make_play([(7, 7, "S")])
    assert err.value.code == "square_occupied"


def test_tile_set_limits_count_blanks():
    refused(std(), "8G QUIQ", "too_many_tiles")  # one Q in the Dutch set
    game = std()
    play(game, "8G aBc")
    refused(game, "G8 .e", "too_many_tiles")  # a third blank
    refused(Game(rules=STANDARD, tiles=MINI), "8H QA", "unknown_letter")


def test_rack_checks_when_racks_are_known():
    refused(std(), "8G ZOEN", "not_in_rack", rack="ZOETAAP")
    refused(std(), "8G ZOEN", "rack_too_large", rack="ZOENAAPK")
    # More of a letter than the set holds names the set (the Dutch set has one Q) ...
    refused(std(), "8G ZOEN", "too_many_tiles", rack="QQZOEN")
    assert play(std(), "8G ZOEn", rack="ZOE?AAP").score == 12
    refused(std(), "-QQ", "too_many_tiles")
    # ... and tiles the board already holds name the board (two Z in the set, one played).
    game = std()
    play(game, "8G ZOEN")
    refused(game, "-ZZ", "tiles_on_board")


def test_not_enough_tiles_when_racks_are_unknown():
    game = Game(rules=STANDARD, tiles=MINI)
    play(game, "8G CAB")  # draws the last 2 tiles: 6 left
    play(game, "H7 A.A")  # 5 left for player 2
    refused(game, "10C CCBBAAA", "not_enough_tiles")
    play(game, "10C CCBBAA")
    assert game.is_over


def test_exchange_rules():
    game = Game(rules=STANDARD, tiles=MINI)  # bag holds 2
    refused(game, "-1", "exchange_bag_too_small")
    game = std()
    refused(game, "-8", "not_enough_tiles")
    no_first = Game(rules=dataclasses.replace(STANDARD, exchange_first_turn_allowed=False))
    refused(no_first, Exchange(count=3), "exchange_first_turn")
    no_exchange = Game(rules=dataclasses.replace(STANDARD, exchange_allowed=False))
    refused(no_exchange, "-3", "exchange_not_allowed")
    gouds = Game(rules=GOUDS_8, tiles=DUTCH)
    assert gouds.push(parse_move("-8")).score == 0  # Gouds: any number of tiles
    capped = Game(rules=dataclasses.replace(STANDARD, rack_size=8))
    refused(capped, "-8", "exchange_too_many")


def test_sbnl_exchange_needs_previous_play_and_16_in_bag():
    game = Game(rules=SBNL_WEDSTRIJD, tiles=DUTCH)
    game.push(parse_move("-3"))  # first turn: allowed
    play(game, "8G ZOEN")
    refused(game, "-2", "exchange_needs_previous_play")  # player 1's last turn exchanged
    play(game, "H7 K.P")  # player 1 places
    game.push(parse_move("-2"))  # player 2's previous turn placed
    small = Game(rules=SBNL_WEDSTRIJD, tiles=MINI)
    play(small, "8G CAB")
    play(small, "H7 A.A")
    err = refused(small, "-1", "exchange_bag_too_small")
    assert err.params["needed"] == 16


def test_pass_not_allowed_in_sbnl_while_exchange_possible():
    err = refused(Game(rules=SBNL_WEDSTRIJD, tiles=DUTCH), "-", "pass_not_allowed")
    assert "sbnl" in str(err)


def test_blank_swap_refusals():
    game = std()
    play(game, "8D KAARs")
    refused(game, BlankSwap(((7, 7),)), "blank_swap_not_allowed")
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    play(game, "8D KAARs")
    refused(game, "swap D8", "not_a_blank")
    refused(game, "swap A1", "not_a_blank")
    refused(game, "swap H8 H8", "blank_swap_repeated")
    refused(game, "swap H8", "not_in_rack", rack="ABC")


def test_challenge_refusals():
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    refused(game, Challenge(valid=True), "nothing_to_challenge")
    play(game, "8G ZOEN")
    refused(game, Challenge(valid=True, challenger=0), "challenger_not_to_move")
    refused(game, Challenge(valid=True, challenger=5), "bad_player")
    game.push(Challenge(valid=True))
    refused(game, Challenge(valid=False), "nothing_to_challenge")


def test_clock_refusals():
    refused(std(), FlagFall(), "flag_fall_not_in_rules")
    refused(Game(rules=GOUDS_8), TimePenalty(0, 1), "no_time_penalty_in_rules")
    refused(Game(rules=SBNL_WEDSTRIJD), TimePenalty(3, 1), "bad_player")


def test_game_over_turn_limit_and_wrong_player():
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    refused(game, "-", "wrong_player", player=1)
    for _ in range(16):
        game.push(Pass())
    assert game.is_over and game.result.ending == "turn_limit"
    err = refused(game, "-", "turn_limit")
    assert err.params["limit"] == 8
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    game.push(FlagFall())
    refused(game, "8G ZOEN", "game_over")
    refused(game, FlagFall(), "game_over")


def test_end_rack_refusals():
    game = std()
    refused(game, EndRack(0, "A"), "end_rack_not_over")
    for _ in range(4):
        game.push(Pass())
    refused(game, EndRack(0, "AB"), "rack_too_large")
    game.push(EndRack(0, "EEEEEEE"))
    refused(game, EndRack(0, "BBBBBBB"), "end_rack_known")
    refused(game, EndRack(7, "A"), "bad_player")


def test_bad_players():
    with pytest.raises(IllegalMoveError) as err:
        Game(rules=GOUDS_8, players=("A", "B", "C"))
    assert err.value.code == "bad_players"
    with pytest.raises(IllegalMoveError) as err:
        Game(first_player=2)
    assert err.value.code == "bad_player"


@pytest.mark.parametrize(
    "text",
    ["8Z CAT", "8H", "8H C@T", "-1A", "swap", "H8 CAT DOG", "8H ()", "swap Z9", "16A AB"],
)
def test_bad_notation(text):
    with pytest.raises(InvalidMoveError) as err:
        parse_move(text)
    assert err.value.code in ("bad_notation", "bad_square")
    assert isinstance(err.value, ValueError)
