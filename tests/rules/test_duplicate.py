"""The duplicate master game (rules.duplicate): a hand-worked game, the draw rules, and
the tops against the slow reference generator."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import DUTCH, SBNL_WEDSTRIJD, STANDARD, TileSet
from rules.dawg import build
from rules.duplicate import (
    NTSV,
    DrawRules,
    DuplicateError,
    DuplicateGame,
    bag_order,
    play_bag,
    score_slip,
    scores_top,
)

from .test_movegen import placed_tiles, reference_plays, small_dawg, small_word_list

#: 45 tiles and 18 words: small enough to work every turn out by hand.
HAND = TileSet(
    "hand",
    {"A": (8, 1), "E": (10, 1), "N": (7, 1), "T": (5, 2), "K": (3, 3), "S": (4, 2), "R": (4, 2)},
    blanks=2,
)
HAND_WORDS = [
    "AAN",
    "ARENA",
    "EN",
    "ER",
    "KAN",
    "KANTEN",
    "KAT",
    "NA",
    "NET",
    "RAKEN",
    "RAT",
    "RENTE",
    "STAAN",
    "STER",
    "TAK",
    "TE",
    "TEKEN",
    "TREK",
]
HAND_BAG = "KANTE?RSTREKAAEN?ARENATEKENRENTESTAAN"


def hand_game(draw_rules: DrawRules = NTSV) -> DuplicateGame:
    return play_bag(bag_order(HAND_BAG, HAND), STANDARD, HAND, draw_rules, build(HAND_WORDS))


def test_a_hand_worked_master_game_of_ten_turns():
    game = hand_game()
    rows = [
        (t.rack, t.chosen.notation, t.score, t.total, t.returned, t.replaced) for t in game.turns
    ]
    assert rows == [
        # 8D: K on D8 (DL) 3x2=6, A1 N1 T2, E on H8 (DW) 1, n 0: 11 x 2 = 22.
        # The blank's N is still in the bag: it replaces the blank on I8.
        ("AEKNRT?", "8D KANTEn", 22, 22, "R", ((7, 8, "N"),)),
        # F4 down to the N of KANTEN: R2 A1 K on F6 (TL) 9 E1 N1 = 14.
        ("AAEKRST", "F4 RAKE.", 14, 36, "AST", ()),
        # E1 down: R2 A1 k0 E1 N on E5 (DW) 1 = 5 x 2 = 10; NA across 2 x 2 = 4; ER 3.
        ("AAEENR?", "E1 RAkEN", 17, 53, "AE", ((2, 4, "K"),)),
        # Row 1 from the R: R2 E1 N1 T2 E on H1 (TW) 1 = 7 x 3 = 21.
        ("EEENNRT", "1E .ENTE", 21, 74, "ENR", ()),
        # Row 2: S on B2 (DW) 2, T2, A1, A1, N on F2 (TL) 3 = 9 x 2 = 18; EN down 1 + 3 = 4.
        ("AAENSTT", "2B STA.N", 22, 96, "AET", ()),
        # Column C through the T: S2 T2 E on C3 (DW) 1 R2 = 7 x 2 = 14.
        ("AEENRSS", "C1 S.ER", 14, 110, "AENS", ()),
        # Column D from the K: K3 A1 n0 T2 E on D12 (DW) 1 n0 = 7 x 2 = 14; both N's are
        # still in the bag, so both blanks are replaced.
        ("AAEST??", "D8 .AnTEn", 14, 124, "AS", ((9, 3, "N"), (12, 3, "N"))),
        # E on E11 (DW): ER 3 x 2 = 6; TE across (2 + 1) x 2 = 6; ER across 1 + 2 = 3.
        ("AAEEERT", "E11 ER", 15, 139, "AAEET", ()),
        # Five tops of 6; the one without a blank is put on the board:
        # A1, A on C13 (DW) 1, N1 = 3 x 2 = 6.
        ("AAASS??", "13B AA.", 6, 145, "ASS??", ()),
        # S on B10 (TL) 6, T2, A1, A1, n on B14 (DW) 0 = 10 x 2 = 20.
        ("AEESST?", "B10 STA.n", 20, 165, "EES", ()),
    ]
    assert [p.notation for p in game.turns[8].tops] == [
        "9H nA",
        "9H rAt",
        "9I AAn",
        "13B AA.",
        "I4 StAA.",
    ]
    assert [p.notation for p in game.turns[0].tops][:2] == ["8D KANTEn", "8D KAnTEN"]
    # 45 tiles, 39 on the board: 6 left, fewer than a rack.
    assert game.ending == "too_few_tiles"
    assert game.total == sum(t.score for t in game.turns) == 165
    with pytest.raises(DuplicateError) as info:
        game.draw("EES")
    assert info.value.code == "duplicate_over"


def test_leftovers_kept_are_completed_to_a_full_rack():
    game = DuplicateGame(
        STANDARD, HAND, DrawRules(name="keep", leftovers="keep"), build(HAND_WORDS)
    )
    assert game.draw("KANTER?") == "AEKNRT?"
    turn = game.play()
    assert turn.chosen.notation == "8D KANTEn" and turn.returned == ""
    assert game.kept == "R" and game.needed() == 6
    with pytest.raises(DuplicateError) as info:
        game.draw("KKKSTR")  # the set has 3 K, one is on the board
    assert info.value.code == "duplicate_not_in_bag"
    assert game.draw("STREEA") == "AEERRST"


def test_a_cancelled_turn_sends_the_whole_rack_back_and_needs_another_draw():
    # FISF §3.6: "toutes les lettres qui s'y rapportent (y compris le reliquat du coup
    # précédent) sont remises dans le sac et de nouvelles lettres sont tirées. Si les
    # lettres du tirage sont identiques à celles du coup annulé, le juge-arbitre rejette
    # de nouveau les lettres". Turn 1 leaves R kept; turn 2 draws STREEA: AEERRST.
    game = DuplicateGame(
        STANDARD, HAND, DrawRules(name="keep", leftovers="keep"), build(HAND_WORDS)
    )
    game.draw("KANTER?")
    game.play()
    assert sum(game.bag.values()) == 36  # 41 letters + 2 blanks - the 7 of turn 1
    game.draw("STREEA")
    game.cancel("AEERRST")
    # Everything back: 36 - 6 drawn + the 6 and the R kept = 37; a full rack is drawn now.
    assert (game.kept, game.rack, game.needed(), sum(game.bag.values())) == ("", None, 7, 37)
    with pytest.raises(DuplicateError) as info:
        game.draw("RSTREEA")  # the same seven tiles
    assert info.value.code == "duplicate_draw_as_cancelled"
    assert game.as_cancelled("EEARRTS") and not game.as_cancelled("EEARRTN")
    assert game.draw("NSTREEA") == "AEENRST"
    # The same cancel on the game as it was before the draw (a master game rebuilt from
    # the turns before it, as the app replays a turn played again) ends the same way.
    replayed = DuplicateGame(
        STANDARD, HAND, DrawRules(name="keep", leftovers="keep"), build(HAND_WORDS)
    )
    replayed.draw("KANTER?")
    replayed.play()
    replayed.cancel("AEERRST")
    assert replayed.draw("NSTREEA") == "AEENRST" and replayed.bag == game.bag


def test_a_cancel_with_no_other_draw_possible_is_refused():
    # FISF §3.6 / §3.7: the game ends "si le coup est annulé ... et qu'il n'est pas possible
    # d'obtenir un tirage différent (reliquat de 7 lettres ou moins)". Seven tiles left:
    # every draw takes them all. The engine refuses and changes nothing.
    game = DuplicateGame(
        STANDARD, HAND, DrawRules(name="keep", leftovers="keep"), build(HAND_WORDS)
    )
    game.bag = Counter("AEKNRST")  # (a test shortcut: the end of a game)
    game.draw("AEKNRST")
    with pytest.raises(DuplicateError) as info:
        game.cancel("AEKNRST")
    assert info.value.code == "duplicate_no_different_draw"
    assert game.rack == "AEKNRST" and not game.bag
    with pytest.raises(DuplicateError) as info:  # four K: the set has three
        DuplicateGame(STANDARD, HAND, NTSV, build(HAND_WORDS)).cancel("KKKKAAA")
    assert info.value.code == "duplicate_not_in_bag"


def test_a_draw_that_breaks_the_minimum_is_refused_then_thrown_back_from_a_bag_order():
    rules = DrawRules(name="two-two", min_vowels=2, min_consonants=2)
    game = DuplicateGame(STANDARD, HAND, rules, build(HAND_WORDS))
    with pytest.raises(DuplicateError) as info:
        game.draw("KNTSRST")
    assert info.value.code == "duplicate_draw_minimum"
    assert game.rack is None and sum(game.bag.values()) == HAND.total  # nothing changed
    with pytest.raises(DuplicateError) as info:
        game.draw("KAN")
    assert info.value.code == "duplicate_draw_size"
    # From a bag order: the seven consonants go to the back, the next seven are drawn.
    played = play_bag(bag_order("KNTSRSTAAEENNE", HAND), STANDARD, HAND, rules, build(HAND_WORDS))
    first = played.turns[0]
    assert first.thrown_back == ("KNRSSTT",)
    assert first.rack == "AAEEENN"


def test_draw_rules_round_trip_and_refuse_bad_values():
    rules = DrawRules(name="x", leftovers="keep", min_vowels=2, minimum_until_turn=15)
    assert DrawRules.from_dict(rules.to_dict()) == rules
    assert rules.minimum(15) == (2, 0) and rules.minimum(16) == (0, 0)
    for bad in ({"leftovers": "burn"}, {"min_vowels": 9}, {"colour": 1}, {"end_below_tiles": 0}):
        with pytest.raises(DuplicateError) as info:
            DrawRules.from_dict({"name": "x", **bad})
        assert info.value.code == "invalid_draw_rules"
    either = DrawRules(name="e", min_vowels=2, min_consonants=2, blank_counts="either")
    assert either.meets_minimum("AKNT??E", 1) and either.meets_minimum("KNTS?A?", 1)
    assert not DrawRules(name="n", min_vowels=2).meets_minimum("KNTS?A?", 1)


def test_bag_orders_are_checked():
    assert len(bag_order("", DUTCH)) == DUTCH.total
    for text, code in (("QQ", "too_many_tiles"), ("A1", "unknown_letter")):
        with pytest.raises(DuplicateError) as info:
            bag_order(text, DUTCH)
        assert info.value.code == code
    with pytest.raises(DuplicateError) as info:
        play_bag(list("KAAS"), STANDARD, DUTCH)
    assert info.value.code == "duplicate_bag_order"


def test_a_play_that_is_not_a_top_is_refused():
    game = DuplicateGame(STANDARD, HAND, NTSV, build(HAND_WORDS))
    game.draw("AEKNRT?")
    tops = game.tops()
    not_top = game.generator.plays(game.game, game.rack)[-1]
    with pytest.raises(DuplicateError) as info:
        game.play(not_top)
    assert info.value.code == "duplicate_not_a_top"
    assert game.play(tops[-1]).chosen == tops[-1]  # the spelleider may pick any top


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), rules=st.sampled_from([STANDARD, SBNL_WEDSTRIJD]))
def test_every_top_agrees_with_the_reference_generator(seed, rules):
    """A master game from a random bag: each turn's tops are exactly the plays the slow
    reference generator scores highest."""
    order = list(DUTCH.bag().elements())
    random.Random(seed).shuffle(order)
    dawg = small_dawg()
    game = DuplicateGame(rules, DUTCH, NTSV, dawg)
    words = list(small_word_list())
    while game.ending is None and len(game.turns) < 5:
        game.draw("".join(order[: game.needed()]))
        order = order[len(game.drawn) :]
        expected = reference_plays(game.game, game.rack, words)
        tops = game.tops()
        if not expected:
            assert tops == [] and game.ending == "no_play"
            break
        best = max(expected.values())
        assert {placed_tiles(p) for p in tops} == {k for k, v in expected.items() if v == best}
        assert all(p.score == best for p in tops)
        turn = game.play()
        order.extend(turn.returned)
        for _, _, letter in turn.replaced:
            order.remove(letter)
            order.append("?")


def test_the_top_search_finds_exactly_the_highest_plays_of_the_full_search():
    """The bounded search against every play, on the boards of a master game with the
    real word list and racks with no, one and two blanks."""
    rng = random.Random(22)
    game = play_bag(bag_order("", DUTCH, seed=22), STANDARD, DUTCH)
    generator = game.generator
    checked = 0
    for position in game.positions[::2]:
        unseen = position.unseen_tiles()
        letters = [t for t in unseen if t != "?"]
        for blanks in range(min(2, unseen.count("?")) + 1):
            rng.shuffle(letters)
            rack = "".join(letters[: 7 - blanks]) + "?" * blanks
            plays = generator.plays(position, rack)
            best = [p for p in plays if p.score == plays[0].score] if plays else []
            assert generator.tops(position, rack) == best, rack
            checked += 1
    assert checked >= 20


def test_slips_are_scored_against_the_board_and_rack_of_their_turn():
    game = DuplicateGame(STANDARD, HAND, NTSV, build(HAND_WORDS))
    game.draw("AEKNRT?")
    # The top, written as a player writes it, with a wrong total: corrected to 22.
    slip = game.score_slip("8D KANTEn", claimed=24)
    assert (slip.score, slip.corrected, slip.is_top, slip.reason) == (22, True, True, None)
    # KAT on H8 (DW): K3 A1 T2 = 6 x 2 = 12, claimed right; a play, not a top.
    slip = game.score_slip("8h kat", claimed=12)
    assert (slip.score, slip.reason) == (0, "too_many_tiles")  # three blanks: the set has two
    slip = game.score_slip("8H KAT", claimed=12)
    assert (slip.score, slip.corrected, slip.is_top, slip.reason) == (12, False, False, None)
    assert slip.words == (("KAT", 12),)
    for text, reason in (
        ("8H KAST", "not_in_rack"),  # no S on the rack
        ("8H KNAT", "not_in_lexicon"),
        ("8A KAT", "first_not_centre"),
        ("8Z KAT", "bad_notation"),
        ("-KAT", "duplicate_not_a_play"),
        ("", "bad_notation"),
        ("8H " + "K" * 40, "off_board"),
    ):
        slip = game.score_slip(text, claimed=30)
        assert (slip.score, slip.reason, slip.corrected) == (0, reason, False), text
    game.play()
    game.draw("AAEKRST")
    # Turn 2 is open; a late slip for turn 1 is scored on turn 1's board and rack.
    assert game.score_slip("8D KANTEn", turn=1).score == 22
    # On turn 2's board the whole word may be written through the tiles on the board:
    # F4 down R2 A1 K on F6 (TL) 9 E1, N on the board 1 = 14.
    slip = game.score_slip("F4 RAKEN")
    assert (slip.score, slip.is_top, slip.notation) == (14, True, "F4 RAKE.")
    assert game.score_slip("F4 RAKE.").score == 14
    # A letter written where the board holds another one.
    assert game.score_slip("F4 RAKET").reason == "square_occupied"


def test_a_top_of_0_is_found_by_nobody():
    """Issue 39: the top was defined twice. The slip said a play of 0 finds a top of 0;
    the evening's ranking said no top scores 0. One definition now, `scores_top`, which
    the ranking asks too (tests/duplicate/test_ranking.py)."""
    game = DuplicateGame(STANDARD, HAND, NTSV, build(HAND_WORDS))
    # EN of two blanks on H8 (DW): (0 + 0) x 2 = 0, a play that counts; the best there is
    # with a rack of two blanks, so the turn's top is 0.
    slip = score_slip(game.game, "??", "8H en", top=0)
    assert (slip.score, slip.reason, slip.is_top) == (0, None, False)
    # A top that scores is found by the slip that scores it, and only by that one.
    assert [scores_top(score, 22) for score in (22, 21, 0)] == [True, False, False]
    assert not scores_top(22, None)  # the top not known yet
