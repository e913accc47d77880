"""Benchmarks for the rules engine: replay speed and word-list figures.

Run as ``.venv/bin/python benchmarks/rules.py``; prints figures, asserts nothing.
Targets: >= 20,000 moves/s replayed and scored (with and without a word list),
>= 1,000,000 word lookups/s. Imports nothing from Django.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# This file is called rules.py: make sure `import rules` finds the package, not us.
sys.path[:] = [str(REPO)] + [p for p in sys.path if Path(p or ".").resolve() != REPO / "benchmarks"]

from benchmarks import lexicon as lexicon_benchmark  # noqa: E402
from rules import DUTCH, ENGLISH, NASPA, STANDARD, Game, gcg  # noqa: E402
from tests.rules.helpers import random_game  # noqa: E402

GCG_DIR = (REPO / "../shared/gcg").resolve()


def replay_rate(games: list[tuple[dict, list]], lexicon=None, repeat: int = 3) -> float:
    best = 0.0
    total_moves = sum(len(moves) for _, moves in games)
    for _ in range(repeat):
        start = time.perf_counter()
        for kwargs, moves in games:
            game = Game(lexicon=lexicon, **kwargs)
            push = game.push
            for move in moves:
                push(move)
        elapsed = time.perf_counter() - start
        best = max(best, total_moves / elapsed)
    return best


def corpus() -> list[tuple[dict, list]]:
    games = []
    for seed in range(300):
        kwargs = {"rules": STANDARD, "tiles": DUTCH, "players": ("A", "B")}
        game = random_game(seed, game=Game(**kwargs), max_moves=40)
        games.append((kwargs, game.moves))
    for path in sorted(GCG_DIR.glob("*.gcg")):
        record = gcg.load(path)
        kwargs = {
            "rules": NASPA,
            "tiles": ENGLISH,
            "players": record.game.players,
            "first_player": record.game.first_player,
        }
        games.extend([(kwargs, record.game.moves)] * 20)
    return games


def lexicon_figures(kind: str) -> str:
    """The word-list figures of benchmarks/lexicon.py: fresh processes, whole load."""
    figures = lexicon_benchmark.measure(kind, runs=5)
    return (
        f"  {kind:8} {figures['words']:>9,} words  load {figures['total_ms']:5.1f} ms  "
        f"RSS +{figures['total_rss_mb']:4.1f} MB  lookups {figures['lookups_per_s']:>10,.0f}/s "
        f"(best {figures['lookups_per_s_best']:,.0f}/s)"
    )


def main() -> None:
    games = corpus()
    n_moves = sum(len(m) for _, m in games)
    print(f"Replay corpus: {len(games)} games, {n_moves:,} moves (random Dutch + real GCG)")
    print(f"  no lexicon:   {replay_rate(games):>10,.0f} moves/s")
    try:
        from rules.lexicon import Lexicon

        lexicon = Lexicon.default("standard")
    except Exception as exc:  # the benchmark reports, it does not fail
        print(f"  with lexicon: not available ({exc})")
    else:
        print(f"  with lexicon: {replay_rate(games, lexicon):>10,.0f} moves/s")
    texts = [gcg.write(Game.replay(m, **kw)) for kw, m in games[:300]]
    start = time.perf_counter()
    for text in texts:
        gcg.read(text)
    elapsed = time.perf_counter() - start
    moves = sum(len(m) for _, m in games[:300])
    print(f"  GCG read (parse + replay + checks): {moves / elapsed:>10,.0f} moves/s")
    print("Word lists (import rules + load in a fresh process; lookups mixed hits/misses):")
    for kind in ("gouds8", "standard"):
        print(lexicon_figures(kind))


if __name__ == "__main__":
    main()
