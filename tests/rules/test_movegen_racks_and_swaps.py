"""The move generator's rack checks and blank swaps, and the analysis weighing swaps.

Hand-worked positions use a tiny word list (``build([...])``), so that every play the
rack allows can be listed by hand; the property test checks every generated move
against :meth:`rules.Game.push` on positions of real recorded games.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import DUTCH, GOUDS_8, STANDARD, BlankSwap, Game, IllegalMoveError, gcg, parse_move
from rules.analysis import analyse
from rules.dawg import Dawg, build
from rules.lexicon import Lexicon
from rules.movegen import GeneratedSwap, MoveGenerator, blank_swaps, exchanges, generate_plays
from rules.ruleset import NASPA

from .helpers import MINI, REPO, gcg_files, needs_gcg_files


def refusal(game: Game, rack: str, dawg: Dawg) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        MoveGenerator(dawg).plays(game, rack)
    return info.value


# -- 1. a rack longer than the rule set's ----------------------------------------------


def test_a_rack_longer_than_the_rule_sets_is_refused_with_a_code():
    """Standard rules, empty board, word list KAAS and AS.

    Rack AAKSEEE (7 tiles): KAAS across or down must cover H8 (DW) and, being 4 long,
    starts on E..H (across) or row 5..8 (down), so it never reaches a DL square (D8,
    L8, H4, H12). Every such play scores (K3 + A1 + A1 + S2) x 2 = 14; AS scores
    (1 + 2) x 2 = 6. Ties go across first, then by square: the best is 8E KAAS 14.
    Rack AAKSEEEE (8 tiles) is one more than the standard rack of 7: refused with
    ``rack_too_large`` (size 7, count 8), by every entry point; under Gouds 8 (rack 8)
    the same 8 tiles are a rack and give the same best play.
    """
    dawg = build(["AS", "KAAS"])
    game = Game(rules=STANDARD, tiles=DUTCH)
    generator = MoveGenerator(dawg)
    best = generator.best(game, "AAKSEEE")
    assert best is not None and (best.notation, best.score) == ("8E KAAS", 14)
    assert game.push(best.move, rack="AAKSEEE").score == 14
    game.pop()

    err = refusal(game, "AAKSEEEE", dawg)
    assert err.code == "rack_too_large" and err.params == {"size": 7, "count": 8}
    assert str(err) == "a rack holds at most 7 tiles, not 8"
    for entry in (generator.best, generator.best_move, exchanges, blank_swaps):
        with pytest.raises(IllegalMoveError) as info:
            entry(game, "AAKSEEEE")
        assert info.value.code == "rack_too_large"
    with pytest.raises(IllegalMoveError) as info:
        generate_plays(game, "AEKLNRTS")  # the reviewer's rack, with the shipped list
    assert info.value.code == "rack_too_large"

    gouds = Game(rules=GOUDS_8, tiles=DUTCH)
    best8 = MoveGenerator(dawg).best(gouds, "AAKSEEEE")
    assert best8 is not None and (best8.notation, best8.score) == ("8E KAAS", 14)


def test_a_rack_longer_than_the_player_holds_is_refused():
    """The 16-tile MINI set under the standard rules: both draw 7, the bag keeps 2. A
    plays 3 tiles and draws the last 2, so holds 6: a 7-tile rack is refused
    (``not_enough_tiles``), a 6-tile one is not."""
    game = Game(rules=STANDARD, tiles=MINI, players=("Ans", "Bert"))
    game.push(parse_move("8G ABC"))
    game.push(parse_move("-"))
    assert game.rack_sizes[0] == 6 and game.bag_size == 0
    err = refusal(game, "AAAAAAB", build(["AB", "BA"]))
    assert err.code == "not_enough_tiles" and err.params == {"player": "Ans", "count": 6}
    assert str(err) == "Ans holds only 6 tile(s)"
    for play in MoveGenerator(build(["AB", "BA"])).plays(game, "AAAAAB"):
        assert game.preview(play.move, rack="AAAAAB").score == play.score


# -- 2. tiles counted against the set and the board ------------------------------------


def test_tile_counts_name_the_set_and_the_board():
    """Gouds 8, Dutch set (1 Q, 2 Z, 3 U, 2 blanks); the board holds 8G QuIZ, the u a
    blank. Only the board and the rack count (the other rack is unknown):

    * QQ: 2 Q asked, the set has 1 -> ``rack_exceeds_set`` (wanted 2, count 1);
    * Q: 1 asked, the set has 1 and 1 is on the board -> ``rack_impossible``;
    * ZZ: 2 asked, the set has 2 and 1 is on the board -> ``rack_impossible``;
    * ???: 3 blanks asked, the set has 2 -> ``rack_exceeds_set``;
    * ??: 2 asked, the set has 2 and the u on the board is one -> ``rack_impossible``;
    * EUUU is fine: the u on H8 is a blank, not a U, so all 3 U are off the board.

    With the word list QUIZ and ZE, rack EUUU has one play: E below the Z, J8 .E down,
    forming ZE = Z 4 + E 1 = 5 (J9 has no premium; I9 and K9 are empty, so no
    cross-word). E right of the Z would make QUIZE, which is no word.
    """
    dawg = build(["QUIZ", "ZE"])
    game = Game(rules=GOUDS_8, tiles=DUTCH)
    game.push(parse_move("8G QuIZ"))
    cases = {
        "QQ": ("rack_exceeds_set", {"letter": "Q", "wanted": 2, "count": 1}),
        "Q": ("rack_impossible", {"letter": "Q", "wanted": 1, "count": 1, "on_board": 1}),
        "ZZ": ("rack_impossible", {"letter": "Z", "wanted": 2, "count": 2, "on_board": 1}),
        "???": ("rack_exceeds_set", {"letter": "blank", "wanted": 3, "count": 2}),
        "??": ("rack_impossible", {"letter": "blank", "wanted": 2, "count": 2, "on_board": 1}),
    }
    for rack, (code, params) in cases.items():
        err = refusal(game, rack, dawg)
        assert err.code == code, rack
        assert err.params == {"rack": rack, "tiles": "dutch", **params}, rack
    assert str(refusal(game, "QQ", dawg)) == (
        "the rack QQ asks for 2 x Q, but the dutch set has only 1"
    )
    assert str(refusal(game, "Q", dawg)) == (
        "the rack Q asks for 1 x Q, but the dutch set has 1 and 1 are already on the board"
    )
    plays = MoveGenerator(dawg).plays(game, "EUUU")
    assert [(p.notation, p.score) for p in plays] == [("J8 .E", 5)]
    assert game.preview(plays[0].move, rack="EUUU").words == (("ZE", 5),)


# -- 3. blank swaps: generated, and weighed by the analysis -----------------------------


def swap_position() -> Game:
    """Gouds 8, Dutch: A played 8G zOeN (z and e blanks; rack not recorded)."""
    game = Game(rules=GOUDS_8, tiles=DUTCH, players=("Ans", "Bert"))
    game.push(parse_move("8G zOeN"))
    return game


def test_a_blank_swap_is_the_best_move_when_it_outscores_every_play():
    """Gouds 8, word list EN and ZOEN; the board holds 8G zOeN (z on G8, e on I8
    blanks); Bert's rack EZQXYIIU.

    Plays: EN needs an N, and the only N is on J8; its E must go on J7 (I8 is taken),
    so J7 E. scores E 1 + N 1 = 2 (no premium on J7, no cross-word). ZOEN is out: Bert
    has no O or N for a line through the O or the N. So the best play is 2.
    Swaps: the z for a Z scores 4, the e for an E 1, both 4 + 1 = 5. The best move is
    swap G8 I8 for 5; under the standard rules there is no swap and the play is best.
    """
    dawg = build(["EN", "ZOEN"])
    game = swap_position()
    rack = "EZQXYIIU"
    generator = MoveGenerator(dawg)
    assert [(p.notation, p.score) for p in generator.plays(game, rack)] == [("J7 E.", 2)]
    swaps = blank_swaps(game, rack)
    assert [(s.notation, s.score, s.letters) for s in swaps] == [
        ("swap G8 I8", 5, "ZE"),
        ("swap G8", 4, "Z"),
        ("swap I8", 1, "E"),
    ]
    best = generator.best_move(game, rack)
    assert best == GeneratedSwap(5, ((7, 6), (7, 8)), "ZE")
    assert best.placed == ((7, 6, "Z"), (7, 8, "E"))
    result = game.push(best.move, rack=rack)
    assert (result.kind, result.score) == ("blank_swap", 5)
    # Without a Z on the rack only the e can be swapped: 1 point, less than the play.
    game.pop()
    assert [s.notation for s in blank_swaps(game, "EQXYIIUA")] == ["swap I8"]
    assert generator.best_move(game, "EQXYIIUA") == generator.best(game, "EQXYIIUA")

    standard = Game(rules=STANDARD, tiles=DUTCH)
    standard.push(parse_move("8G zOeN"))
    assert blank_swaps(standard, "EZQXYII") == []
    best_std = MoveGenerator(dawg).best_move(standard, "EZQXYII")
    assert best_std is not None and best_std.notation == "J7 E."


def test_the_analysis_counts_a_skipped_swap_as_missed():
    """The position above: Bert plays J7 E. for 2 although swap G8 I8 scores 5, so he
    leaves 5 - 2 = 3 on the table. Had he exchanged (0 points) he would have left 5.
    Ans's move has no recorded rack and is not analysed."""
    dawg = build(["EN", "ZOEN"])
    game = swap_position()
    game.push(parse_move("J7 E."), rack="EZQXYIIU")
    report = analyse(game, MoveGenerator(dawg))
    (turn,) = report.turns
    assert (turn.index, turn.player, turn.played, turn.played_score) == (1, 1, "J7 E.", 2)
    assert turn.best is not None and turn.best.notation == "swap G8 I8"
    assert (turn.best_score, turn.missed, turn.best_word, turn.best_words) == (5, 3, "ZE", ())
    assert report.missed == (0, 3)

    exchanged = swap_position()
    exchanged.push(parse_move("-QXY"), rack="EZQXYIIU")
    (turn,) = analyse(exchanged, MoveGenerator(dawg)).turns
    assert (turn.played_score, turn.best_score, turn.missed) == (0, 5, 5)


# -- property: every generated move is one Game.push accepts, with the same score -------

#: NASPA with blank swaps allowed, so the real English games' blanks can be swapped.
NASPA_SWAPS = replace(NASPA, name="naspa-swaps", blank_swap_allowed=True)
DEMO_FILES = sorted((REPO / "games" / "demo").glob("*.gcg"))


@cache
def real_dawg(path: Path) -> Dawg:
    """The words a real game formed (no English list ships)."""
    record = gcg.load(path, rules=NASPA_SWAPS)
    return build({w.upper() for r in record.game.history for w, _ in r.words})


def random_rack(game: Game, rng: random.Random) -> str:
    """A rack the player to move could hold: unseen tiles, with the letters the blanks
    on the board stand for put in first now and then (so that swaps come up)."""
    unseen = list(game.unseen_tiles())
    rng.shuffle(unseen)
    wanted = [game.board[i].upper() for i in range(225) if game.board[i].islower()]
    rack: list[str] = []
    for letter in wanted:
        if letter in unseen and rng.random() < 0.7:
            unseen.remove(letter)
            rack.append(letter)
    size = min(game.rules.rack_size, game.rack_sizes[game.to_move or 0])
    rack += unseen[: max(0, size - len(rack))]
    return "".join(rack[:size])


def check_every_move(game: Game, rack: str, generator: MoveGenerator) -> int:
    """Push every generated play and swap; return how many swaps there were."""
    for play in generator.plays(game, rack):
        result = game.push(play.move, rack=rack)
        assert (result.score, result.bingo) == (play.score, play.bingo), play.notation
        game.pop()
    swaps = blank_swaps(game, rack)
    for swap in swaps:
        result = game.push(swap.move, rack=rack)
        assert (result.kind, result.score) == ("blank_swap", swap.score), swap.notation
        game.pop()
    # And no legal swap is missing.
    blanks = [divmod(i, 15) for i in range(225) if game.board[i].islower()]
    legal = {
        frozenset(squares)
        for n in (1, 2)
        for squares in combinations(blanks, n)
        if game.is_legal(BlankSwap(squares), rack=rack)
    }
    assert {frozenset(s.squares) for s in swaps} == legal
    best = generator.best_move(game, rack)
    top = max([m.score for m in generator.plays(game, rack)] + [s.score for s in swaps] or [0])
    assert (best.score if best is not None else 0) == top
    return len(swaps)


@needs_gcg_files
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(file=st.sampled_from(gcg_files()), seed=st.integers(0, 10_000))
def test_every_generated_move_is_accepted_by_push_on_real_positions(file, seed):
    rng = random.Random(seed)
    game = gcg.load(file, rules=NASPA_SWAPS).game
    cut = rng.randrange(len(game.history))
    while len(game.history) > cut:
        game.pop()
    if game.to_move is None:
        return
    check_every_move(game, random_rack(game, rng), MoveGenerator(real_dawg(file)))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(file=st.sampled_from(DEMO_FILES), seed=st.integers(0, 10_000))
def test_every_generated_move_is_accepted_by_push_in_gouds_8_demo_games(file, seed):
    rng = random.Random(seed)
    game = gcg.load(file, lexicon=Lexicon.default("gouds8")).game
    cut = rng.randrange(len(game.history))
    while len(game.history) > cut:
        game.pop()
    if game.to_move is None:
        return
    rack = random_rack(game, rng).replace("?", "E", 1)  # at most one blank: quicker
    check_every_move(game, rack, MoveGenerator.for_game(game))


@needs_gcg_files
def test_swaps_come_up_in_the_real_positions():
    """The property above is not vacuous: over the real games' positions with a blank
    on the board, the racks it draws allow swaps."""
    found = 0
    for file in gcg_files():
        game = gcg.load(file, rules=NASPA_SWAPS).game
        rng = random.Random(file.name)
        while game.history:
            game.pop()
            if game.to_move is not None and any(game.board[i].islower() for i in range(225)):
                found += len(blank_swaps(game, random_rack(game, rng)))
    assert found >= 10
