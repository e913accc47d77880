"""A game's analysis for players: per turn with a known rack, the best play and what the
played move left on the table; per player the total ("punten laten liggen").

The rules engine does the work (rules.analysis, over the move generator); this module
turns the game's Move rows into its input and caches the result. The cache (Django's
cache framework) is keyed by the game and a hash of everything the result depends on:
the rule set and every move's seat, notation and rack. A corrected move changes the
key, so a stale analysis is never shown, and nothing needs a migration or a write: the
analysis is derived data, recomputed on demand in a second or so. A cache, not a model
field, because it may be dropped at any time (locmem per process by default; a shared
cache in production simply shares it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from clubs import word_lists
from games.engine import Replay, names_at_table
from games.models import Game, Move
from rules.analysis import analyse
from rules.movegen import MoveGenerator

#: Bump when the cached shape or the generator's results change (2: a blank swap can be
#: the best move).
VERSION = 4
TIMEOUT = 60 * 60 * 24 * 7


@dataclass(frozen=True)
class TurnReview:
    number: int
    seat: int
    player_name: str
    rack: str
    played: str
    played_score: int
    best: str
    best_word: str
    best_score: int
    missed: int
    #: The best play's new tiles as ``(row, col, letter)`` (lowercase = blank).
    placed: tuple[tuple[int, int, str], ...]
    #: The turn's thinking time on the board's clock (ms), when it was timed.
    think_ms: int | None = None


@dataclass(frozen=True)
class GameReview:
    turns: tuple[TurnReview, ...]
    #: Points left on the table, per seat in table order.
    missed: tuple[int, ...]
    names: tuple[str, ...]

    def turn(self, number: int) -> TurnReview | None:
        return next((t for t in self.turns if t.number == number), None)

    @property
    def timed(self) -> bool:
        """Whether the board's clock timed any turn (the page then shows a time column)."""
        return any(turn.think_ms is not None for turn in self.turns)

    @property
    def totals(self) -> list[tuple[str, int]]:
        return list(zip(self.names, self.missed, strict=True))


def cache_key(game: Game, moves: Sequence[Move]) -> str:
    digest = hashlib.sha256(
        json.dumps(
            [game.rules, game.starter, [(m.seat, m.notation, m.rack, m.think_ms) for m in moves]],
            sort_keys=True,
        ).encode()
    ).hexdigest()
    return f"games:analysis:v{VERSION}:{game.pk}:{digest}"


def game_review(game: Game, moves: Sequence[Move], replayed: Replay) -> GameReview:
    """The analysis of the moves the engine accepted (``replayed``), cached."""
    key = cache_key(game, moves)
    data = cache.get(key)
    if data is None:
        data = _compute(moves, replayed)
        cache.set(key, data, TIMEOUT)
    names = names_at_table(game)
    turns = tuple(
        TurnReview(**{**turn, "placed": tuple(tuple(p) for p in turn["placed"])})
        for turn in data["turns"]
    )
    missed = tuple(data["missed"]) + (0,) * (len(names) - len(data["missed"]))
    return GameReview(turns=turns, missed=missed[: len(names)], names=names)


def _compute(moves: Sequence[Move], replayed: Replay) -> dict[str, Any]:
    engine = replayed.engine
    # The engine's history holds the rows it accepted, in order.
    rows = [row for row, result in zip(moves, replayed.results, strict=False) if result]
    # The best plays from the words the game is played with: the club's list when it has one.
    report = analyse(engine, MoveGenerator(word_lists.dawg(engine.rules)))
    turns: list[dict[str, Any]] = []
    for turn in report.turns:
        row = rows[turn.index]
        best = turn.best
        placed = [list(tile) for tile in best.placed] if best is not None else []
        turns.append(
            {
                "number": row.number,
                "seat": row.seat,
                "player_name": engine.players[turn.player],
                "rack": turn.rack,
                "played": turn.played,
                "played_score": turn.played_score,
                "best": best.notation if best is not None else "",
                "best_word": turn.best_word,
                "best_score": turn.best_score,
                "missed": turn.missed,
                "placed": placed,
                "think_ms": row.think_ms,
            }
        )
    missed = [0] * len(engine.players)
    for entry in turns:
        missed[entry["seat"]] += entry["missed"]
    return {"turns": turns, "missed": missed}
