"""The move generator against a slow reference generator, the engine and real games."""

from __future__ import annotations

import re
import zlib
from array import array
from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import DUTCH, GOUDS_8, STANDARD, Game, IllegalMoveError, Play, gcg
from rules.board import SIZE, Direction
from rules.dawg import Dawg, build
from rules.lexicon import Lexicon
from rules.movegen import MoveGenerator, exchanges, generate_plays
from rules.tiles import parse_rack

from .helpers import GCG_DIR, REPO, random_game

GCG_FILES = sorted(GCG_DIR.glob("*.gcg")) if GCG_DIR.is_dir() else []
DEMO_FILES = sorted((REPO / "games" / "demo").glob("*.gcg"))


# -- the reference: every line segment matched against the word list ------------------


def reference_plays(game: Game, rack: str, words: list[str]) -> dict[frozenset, int]:
    """Every legal play as {placed tiles: score}, found the slow, obvious way: for each
    segment of a row or column that has an empty square, touches a tile (or covers the
    centre on an empty board) and has nothing just before or after it, each listed word
    that fits the letters already there, each way the rack can supply the rest (any of
    the new tiles may be a blank); the engine then checks and scores the play, and every
    word it forms must be listed."""
    listed = set(words)
    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    joined = {n: "\n".join(ws) for n, ws in by_length.items()}
    board = game.board
    empty_board = not any(board.letter(r, c) for r in range(SIZE) for c in range(SIZE))
    blank_count = rack.count("?")
    real = Counter(rack.replace("?", ""))
    # what an empty square may take: a letter of the rack, or any letter with a blank
    free = "." if blank_count or not real else f"[{''.join(sorted(real))}]"
    found: dict[frozenset, int] = {}

    def touches(r: int, c: int) -> bool:
        return any(
            0 <= r + dr < SIZE and 0 <= c + dc < SIZE and board.letter(r + dr, c + dc)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        )

    for direction in (Direction.ACROSS, Direction.DOWN):
        for line in range(SIZE):
            squares = [
                (line, i) if direction is Direction.ACROSS else (i, line) for i in range(SIZE)
            ]
            tiles = [board.letter(r, c) for r, c in squares]
            for start in range(SIZE):
                if start > 0 and tiles[start - 1]:
                    continue
                for end in range(start + 2, SIZE + 1):
                    if end < SIZE and tiles[end]:
                        continue
                    empty = [i for i in range(start, end) if not tiles[i]]
                    if not empty or len(empty) > len(rack):
                        continue
                    if empty_board:
                        if (7, 7) not in squares[start:end]:
                            continue
                    elif not any(touches(*squares[i]) for i in empty):
                        continue
                    pattern = "".join(t.upper() if t else free for t in tiles[start:end])
                    for word in re.findall(f"^{pattern}$", joined.get(end - start, ""), re.M):
                        # each blank stands in for one letter the rack lacks: a word that
                        # lacks more has no way below, so skip trying them all
                        lacking = Counter(word[i - start] for i in empty) - real
                        if lacking.total() > blank_count:
                            continue
                        for n_blanks in range(min(blank_count, len(empty)) + 1):
                            for as_blank in combinations(empty, n_blanks):
                                if (
                                    Counter(word[i - start] for i in empty if i not in as_blank)
                                    - real
                                ):
                                    continue
                                text = "".join(
                                    "."
                                    if tiles[i]
                                    else (
                                        word[i - start].lower()
                                        if i in as_blank
                                        else word[i - start]
                                    )
                                    for i in range(start, end)
                                )
                                r0, c0 = squares[start]
                                try:
                                    result = game.preview(Play(r0, c0, direction, text), rack=rack)
                                except IllegalMoveError:
                                    continue
                                if all(w.upper() in listed for w, _ in result.words):
                                    found[frozenset(result.placed)] = result.score
    return found


def placed_tiles(play) -> frozenset:
    out = []
    for i, ch in enumerate(play.word):
        if ch != ".":
            r, c = (play.row + i, play.col) if play.down else (play.row, play.col + i)
            out.append((r, c, ch))
    return frozenset(out)


@cache
def small_word_list() -> tuple[str, ...]:
    """Every Dutch word of 2-3 letters and a spread of longer ones: small enough for
    the reference generator, dense enough that random boards offer plays."""
    lexicon = Lexicon.default("standard")
    short = [w for w in lexicon.iterkeys() if len(w) <= 3]
    longer = [w for w in lexicon.iterkeys() if 4 <= len(w) <= 9]
    return tuple(sorted(set(short + longer[::60])))


@cache
def small_dawg() -> Dawg:
    return build(small_word_list())


RACK_LETTERS = "AAAEEEEIIONNRSTDLKGM"


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 14),
    rules=st.sampled_from([GOUDS_8, STANDARD]),
    letters=st.lists(st.sampled_from(RACK_LETTERS), min_size=6, max_size=8),
    blanks=st.integers(0, 2),
)
def test_generator_matches_reference(seed, moves, rules, letters, blanks):
    game = random_game(seed, game=Game(rules=rules, tiles=DUTCH), max_moves=moves)
    if game.is_over:
        return
    size = min(rules.rack_size, game.rack_sizes[game.to_move])
    rack = "".join(letters)[: max(0, size - blanks)] + "?" * min(blanks, size)
    try:
        plays = MoveGenerator(small_dawg()).plays(game, rack)
    except IllegalMoveError as exc:  # the set, or what is left of it, cannot give this rack
        assert exc.code in ("rack_exceeds_set", "rack_impossible")
        return
    generated = {placed_tiles(p): p.score for p in plays}
    assert len(generated) == len(plays), "a play was generated twice"
    assert MoveGenerator(small_dawg()).best(game, rack) == (plays[0] if plays else None)
    expected = reference_plays(game, parse_rack(rack, DUTCH), list(small_word_list()))
    assert generated == expected


def test_scores_and_words_agree_with_the_engine_on_a_real_position():
    record = gcg.load(DEMO_FILES[0], lexicon=Lexicon.default("gouds8"))
    game = record.game
    while len(game.history) > 8:
        game.pop()
    plays = generate_plays(game, "DEINORS?")
    assert len(plays) > 1000
    assert [p.score for p in plays] == sorted((p.score for p in plays), reverse=True)
    for play in plays[:: len(plays) // 200]:
        result = game.preview(play.play, rack="DEINORS?")
        assert result.score == play.score
        assert result.warnings == ()
        assert result.bingo == play.bingo


def test_first_move_covers_the_centre_and_bingo_follows_the_rule_set():
    for rules, rack in ((STANDARD, "ABDENST"), (GOUDS_8, "AEIKLNRT")):
        game = Game(rules=rules, tiles=DUTCH)
        plays = generate_plays(game, rack)
        assert plays
        for play in plays:
            squares = {(r, c) for r, c, _ in placed_tiles(play)}
            assert (7, 7) in squares
        full = [p for p in plays if p.tiles_used == rules.rack_size]
        assert full, rules.name
        assert all(p.bingo for p in full)
        best_full = full[0]
        result = game.preview(best_full.play, rack=rack)
        assert result.score == best_full.score
        assert result.bingo
        without_bonus = sum(score for _, score in result.words)
        assert best_full.score == without_bonus + rules.bingo_bonus


def test_a_rack_the_bag_cannot_hold_is_refused():
    game = Game(rules=STANDARD, tiles=DUTCH)
    with pytest.raises(IllegalMoveError) as info:
        generate_plays(game, "QQ")
    assert info.value.code == "rack_exceeds_set"
    with pytest.raises(IllegalMoveError):
        generate_plays(game, "A1")


def test_exchanges_are_distinct_and_follow_the_rule_set():
    game = Game(rules=STANDARD, tiles=DUTCH)
    options = exchanges(game, "AAB")
    assert sorted(e.tiles for e in options) == sorted(["A", "B", "AA", "AB", "AAB"])
    for option in options:
        assert game.is_legal(option, rack="AAB")
    from dataclasses import replace

    no_exchange = replace(STANDARD, name="no-exchange", exchange_allowed=False)
    assert exchanges(Game(rules=no_exchange, tiles=DUTCH), "AAB") == []


def test_shipped_dawgs_hold_exactly_the_shipped_word_lists():
    for kind in ("gouds8", "standard"):
        dawg = Dawg.default(kind)
        assert list(dawg) == sorted(Lexicon.default(kind).iterkeys())
        assert "KAAS" in dawg
        assert "KAASX" not in dawg


def test_dawg_round_trips_and_refuses_bad_input():
    dawg = build(["AB", "ABC", "B", "ZZZ"])
    again = Dawg.from_bytes(dawg.to_bytes())
    assert list(again) == ["AB", "ABC", "B", "ZZZ"]
    # The heights travel in the file: the root takes ZZZ's 3 letters, A then BC's 2.
    assert again.heights()[0] == 3
    assert again.heights()[again.walk("A")] == 2
    assert again.heights()[again.walk("ABC")] == 0
    # A file of the first format (no heights) opens; its heights are worked out.
    raw = b"".join(array("I", arr).tobytes() for arr in (dawg.masks, dawg.bases, dawg.targets))
    header = f"bordpunt-dawg 1\n{len(dawg.masks)} {len(dawg.targets)}\n".encode()
    first = Dawg.from_bytes(header + zlib.compress(raw))
    assert list(first) == list(dawg)
    assert first.heights() == dawg.heights()
    with pytest.raises(ValueError):
        Dawg.from_bytes(b"something else")
    with pytest.raises(ValueError):
        build(["ab"])


# -- real games: the recorded play is generated, with its recorded score ---------------


def _recorded_plays_found(record, dawg_for_game):
    game = record.game
    checked = 0
    for index in range(len(game.history) - 1, -1, -1):
        while len(game.history) > index + 1:
            game.pop()
        result = game.history[index]
        if result.kind != "play" or not result.rack:
            continue
        game.pop()
        plays = MoveGenerator(dawg_for_game).plays(game, result.rack)
        match = [p for p in plays if placed_tiles(p) == frozenset(result.placed)]
        assert match, f"move {index + 1} {result.notation} not generated"
        assert match[0].score == result.score, result.notation
        game.push(result.move, rack=result.rack)
        checked += 1
    return checked


@pytest.mark.parametrize("path", GCG_FILES, ids=lambda p: p.name)
def test_recorded_english_plays_are_generated_with_their_score(path):
    # No English word list ships: the lexicon is the words the game itself formed.
    record = gcg.load(path)
    words = {w.upper() for r in record.game.history for w, _ in r.words}
    checked = _recorded_plays_found(record, build(words))
    assert checked >= 10


@pytest.mark.parametrize("path", DEMO_FILES, ids=lambda p: p.name)
def test_recorded_dutch_demo_plays_are_generated_with_their_score(path):
    record = gcg.load(path, lexicon=Lexicon.default("gouds8"))
    assert _recorded_plays_found(record, Dawg.default(record.game.rules.lexicon)) >= 5


def test_build_lexicon_writes_the_dawg_beside_each_list(tmp_path):
    from rules.lexicon_build import main

    source = tmp_path / "dutch"
    source.write_text("woord\nwoorden\ncafé\nNelis\nenz.\n", encoding="utf-8")
    for name in ("one", "two"):
        assert main(["--source", str(source), "--output-dir", str(tmp_path / name)]) == 0
    for kind in ("gouds8", "standard"):
        dawg = Dawg.open(tmp_path / "one" / f"{kind}.dawg")
        assert list(dawg) == sorted(Lexicon.open(tmp_path / "one" / f"{kind}.marisa"))
        again = (tmp_path / "two" / f"{kind}.dawg").read_bytes()
        assert (tmp_path / "one" / f"{kind}.dawg").read_bytes() == again
    manifest = (tmp_path / "one" / "manifest.json").read_text(encoding="utf-8")
    assert '"gouds8.dawg"' in manifest
