"""Property tests (hypothesis): round trips, replay consistency, order independence."""

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    DUTCH,
    ENGLISH,
    GOUDS_8,
    NASPA,
    SBNL_WEDSTRIJD,
    STANDARD,
    BlankSwap,
    Direction,
    Game,
    Play,
    gcg,
)

from .helpers import random_game
from .test_gcg import same_game

RULES = st.sampled_from([STANDARD, GOUDS_8, SBNL_WEDSTRIJD, NASPA])
TILES = st.sampled_from([DUTCH, ENGLISH])
MODEST = settings(max_examples=25, deadline=None)


def new_game(rules, tiles, first):
    return Game(rules=rules, tiles=tiles, players=("Ans", "Bert"), first_player=first)


@MODEST
@given(seed=st.integers(0, 10**6), rules=RULES, tiles=TILES, first=st.integers(0, 1))
def test_gcg_write_read_round_trip(seed, rules, tiles, first):
    game = random_game(seed, game=new_game(rules, tiles, first))
    again = gcg.read(gcg.write(game)).game
    same_game(game, again)
    assert list(again.board) == list(game.board)


@MODEST
@given(seed=st.integers(0, 10**6), rules=RULES)
def test_replay_step_by_step_equals_all_at_once(seed, rules):
    game = random_game(seed, game=new_game(rules, DUTCH, 0))
    moves = game.moves
    at_once = Game.replay(moves, rules=rules, tiles=DUTCH, players=("Ans", "Bert"))
    assert at_once.scores == game.scores
    stepwise = new_game(rules, DUTCH, 0)
    for move in moves:
        preview = stepwise.preview(move)
        assert stepwise.push(move) == preview
    assert [r.total for r in stepwise.history] == [r.total for r in game.history]
    # Popping everything returns to the start; pushing again gives the same totals.
    while stepwise.history:
        stepwise.pop()
    assert stepwise.board.is_empty() and stepwise.scores == (0, 0)
    assert stepwise.bag_size == DUTCH.total - 2 * rules.rack_size
    for move in moves:
        stepwise.push(move)
    assert stepwise.scores == game.scores


def transpose(move):
    if isinstance(move, Play):
        direction = Direction.DOWN if move.direction is Direction.ACROSS else Direction.ACROSS
        return Play(move.col, move.row, direction, move.word)
    if isinstance(move, BlankSwap):
        return BlankSwap(tuple((c, r) for r, c in move.squares))
    return move


@MODEST
@given(seed=st.integers(0, 10**6))
def test_score_does_not_depend_on_cross_word_order(seed):
    """Mirroring the game on the diagonal swaps main words and cross-words (the
    premium layout is symmetric): every score must stay the same, and each score is
    the sum of its words in any order."""
    rules = dataclasses.replace(GOUDS_8, turn_limit=20)
    game = random_game(seed, game=new_game(rules, DUTCH, 0), max_moves=40)
    mirrored = Game.replay([transpose(m) for m in game.moves], rules=rules, tiles=DUTCH)
    assert [r.score for r in mirrored.history] == [r.score for r in game.history]
    for a, b in zip(game.history, mirrored.history, strict=True):
        assert sorted(a.words) == sorted(b.words)
        if a.kind == "play":
            bonus = rules.bingo_bonus if a.bingo else 0
            assert a.score == sum(s for _, s in reversed(a.words)) + bonus


NAME = (
    st.text(st.characters(categories=("L",)) | st.sampled_from(" -'."), min_size=1, max_size=20)
    .map(lambda s: " ".join(s.split()))
    .filter(bool)
)
NOTE = st.lists(
    st.text(st.characters(categories=("L", "N", "P", "Zs")), max_size=30), min_size=1, max_size=3
).map(lambda lines: "\n".join(line.strip() for line in lines).strip())


@MODEST
@given(
    seed=st.integers(0, 10**6),
    rules=RULES,
    names=st.lists(NAME, min_size=2, max_size=2, unique=True),
    notes=st.dictionaries(st.integers(-1, 5), st.lists(NOTE.filter(bool), max_size=2)),
    title=NAME,
)
def test_gcg_read_write_round_trip(seed, rules, names, notes, title):
    """GCG -> game -> GCG gives the same text: names with spaces and accents, notes of
    several lines and other programs' pragmas included."""
    game = random_game(seed, game=Game(rules=rules, tiles=DUTCH, players=names), max_moves=12)
    notes = {i: texts for i, texts in notes.items() if i < len(game.history) and texts}
    text = gcg.write(game, notes=notes, pragmas={"title": title, "lexicon": "OpenTaal"})
    record = gcg.read(text)
    assert record.game.players == tuple(names)
    again = gcg.write(record.game, notes=record.notes, pragmas=record.pragmas)
    assert again == text
