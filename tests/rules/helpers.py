"""Shared helpers for the rules tests (no Django)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from rules import BlankSwap, Challenge, Game, Play, TileSet, parse_move
from rules.board import Direction

REPO = Path(__file__).resolve().parents[2]
GCG_DIR = Path(os.environ.get("BORDPUNT_GCG_DIR", REPO / "../shared/gcg")).resolve()
IN_CI = os.environ.get("CI", "").lower() == "true"

#: The conformance tests read real recorded games. Without them they skip on a developer
#: machine, and in CI (CI=true) they run and fail: a CI run must never pass untested.
needs_gcg_files = pytest.mark.skipif(
    not GCG_DIR.is_dir() and not IN_CI, reason=f"{GCG_DIR} is missing"
)


def gcg_files() -> list[Path]:
    """The recorded games; in CI a missing folder gives one path that fails when read."""
    files = sorted(GCG_DIR.glob("*.gcg")) if GCG_DIR.is_dir() else []
    return files or ([GCG_DIR / "missing.gcg"] if IN_CI else [])


#: A tiny set (16 tiles, no blanks) so the bag runs out within a few moves.
MINI = TileSet("mini", {"A": (8, 1), "B": (4, 3), "C": (4, 5)}, blanks=0)


def play(game: Game, notation: str, **kwargs):
    return game.push(parse_move(notation), **kwargs)


def random_game(seed: int, *, game: Game | None = None, max_moves: int = 30) -> Game:
    """A random legal game (no lexicon): plays of 1-4 letters next to existing tiles,
    with the odd exchange or pass. Good enough for property tests."""
    rng = random.Random(seed)
    game = game or Game()
    letters = [t for t in game.tiles.bag().elements() if t != "?"]
    attempts = 0
    while len(game.history) < max_moves and not game.is_over and attempts < 2000:
        attempts += 1
        roll = rng.random()
        if roll < 0.05:
            move = parse_move("-")
        elif roll < 0.08:
            move = parse_move(f"-{rng.randint(1, 3)}")
        else:
            move = _random_play(game, rng, letters)
            if move is None:
                continue
        if game.is_legal(move):
            game.push(move)
            if isinstance(move, Play) and rng.random() < 0.1:
                challenge = Challenge(valid=rng.random() < 0.5)
                if game.is_legal(challenge):
                    game.push(challenge)
            if game.rules.blank_swap_allowed and rng.random() < 0.1:
                blanks = [i for i in range(225) if game.board[i].islower()]
                if blanks:
                    swap = BlankSwap((divmod(rng.choice(blanks), 15),))
                    if game.is_legal(swap):
                        game.push(swap)
    return game


def _random_play(game: Game, rng: random.Random, letters: list[str]) -> Play | None:
    cells = game.board
    occupied = [i for i in range(225) if cells[i]]
    if not occupied:
        row, col = 7, rng.randint(4, 7)
        direction = Direction.ACROSS
    else:
        anchor = rng.choice(occupied)
        row, col = divmod(anchor, 15)
        row += rng.randint(-2, 2)
        col += rng.randint(-2, 2)
        direction = rng.choice([Direction.ACROSS, Direction.DOWN])
    length = rng.randint(2, 5)
    word = []
    r, c = row, col
    for _ in range(length):
        if not (0 <= r < 15 and 0 <= c < 15):
            return None
        if cells[r * 15 + c]:
            word.append(".")
        else:
            letter = rng.choice(letters)
            word.append(letter.lower() if rng.random() < 0.04 else letter)
        if direction is Direction.ACROSS:
            c += 1
        else:
            r += 1
    if not (0 <= row < 15 and 0 <= col < 15):
        return None
    try:
        return Play(row, col, direction, "".join(word))
    except ValueError:
        return None
