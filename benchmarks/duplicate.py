"""Benchmarks for duplicate (rules.duplicate): the top of one turn, a whole master game.

Run as ``.venv/bin/python benchmarks/duplicate.py [--games N] [--seed S]``; prints
figures, asserts nothing. Imports nothing from Django.

Targets (issue 22): the top of one turn with two blanks in the rack, p95 < 150 ms
(finding every play and keeping the best took 187 ms at p95: the top search bounds every
branch instead); a whole master game < 5 s.

Positions: the boards before each turn of master games played from random bag orders
(standard rules, NTSV draw rules), each given a rack of five letters from what the bag
held then and two blanks (boards that keep a blank are skipped). Each is timed three
ways: ``tops`` (the top search),
``best`` (the same search, first play only) and ``plays`` (every play, then the best).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:] = [str(REPO)] + [p for p in sys.path if Path(p or ".").resolve() != REPO / "benchmarks"]

from benchmarks.movegen import timing  # noqa: E402
from rules import DUTCH, STANDARD  # noqa: E402
from rules.dawg import Dawg  # noqa: E402
from rules.duplicate import bag_order, play_bag  # noqa: E402
from rules.movegen import MoveGenerator  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5, help="master games to play")
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    dawg = Dawg.default(STANDARD.lexicon)
    start = time.perf_counter()
    dawg.heights()
    print(f"DAWG word heights (read with the file): {(time.perf_counter() - start) * 1000:.0f} ms")

    print(f"Whole master games (standard rules, NTSV draws, {args.games} random bags):")
    games = []
    for n in range(args.games):
        start = time.perf_counter()
        game = play_bag(bag_order("", DUTCH, seed=args.seed + n), STANDARD, DUTCH, dawg=dawg)
        elapsed = time.perf_counter() - start
        games.append(game)
        print(
            f"  bag {args.seed + n}: {len(game.turns)} turns, sum of the tops {game.total}, "
            f"ended {game.ending}, {elapsed:.2f} s (target < 5 s: "
            f"{'ok' if elapsed < 5 else 'MISSES'})"
        )

    generator = MoveGenerator(dawg)
    timings: dict[str, list[float]] = {"tops": [], "best": [], "plays": []}
    ties = []
    for game in games:
        for position in game.positions:
            if position.unseen_tiles().count("?") < 2:
                continue  # a blank stayed on the board (its letter was gone)
            letters = [t for t in position.unseen_tiles() if t != "?"]
            rng.shuffle(letters)
            rack = "".join(letters[:5]) + "??"
            for name, method in (
                ("tops", generator.tops),
                ("best", generator.best),
                ("plays", generator.plays),
            ):
                start = time.perf_counter()
                found = method(position, rack)
                timings[name].append(time.perf_counter() - start)
                if name == "tops":
                    ties.append(len(found))
    print(
        f"The top of one turn, five letters and two blanks ({len(ties)} positions, "
        f"median {statistics.median(ties):.0f} tops per turn):"
    )
    timing("tops (every play of the top score)", timings["tops"], 150)
    timing("best (the first top)", timings["best"])
    timing("plays (every play, for comparison)", timings["plays"])


if __name__ == "__main__":
    main()
