"""Benchmarks for the move generator (rules.movegen): plays per rack, game analysis, load.

Run as ``.venv/bin/python benchmarks/movegen.py [--positions N] [--seed S]``; prints
figures, asserts nothing. Imports nothing from Django.

Targets (issue 13), median and p95 over positions from real and generated games:

* all plays for a 7- (standard) or 8-tile (Gouds 8) rack without blanks < 25 ms,
  with one blank < 150 ms, with two blanks < 600 ms;
* a whole 16-turn Gouds 8 game analysed < 3 s;
* the DAWG loads in < 300 ms and adds < 60 MB;
* the first best play of a process costs no more than the DAWG's load over the second
  (issue 55: nothing derived from the word list is worked out on first use).

Positions: every turn of the Dutch demo games (``games/demo/*.gcg``, Gouds 8) and of
games generated here (each turn a random one of the ten best plays for a random rack
from the unseen tiles), under Gouds 8 and the standard rules. Racks are drawn from each
position's unseen tiles: letters only, one blank, two blanks.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:] = [str(REPO)] + [p for p in sys.path if Path(p or ".").resolve() != REPO / "benchmarks"]

from rules import DUTCH, GOUDS_8, STANDARD, Game, Pass, RuleSet, gcg  # noqa: E402
from rules.analysis import analyse  # noqa: E402
from rules.movegen import MoveGenerator  # noqa: E402

DEMO_DIR = REPO / "games" / "demo"

LOAD_SCRIPT = """
import resource, sys, time
sys.path.insert(0, {repo!r})
def rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * resource.getpagesize()
import rules.dawg
before = rss()
start = time.perf_counter()
dawg = rules.dawg.Dawg.default({kind!r})
elapsed = time.perf_counter() - start
print(elapsed, rss() - before)
"""

FIRST_SCRIPT = """
import sys, time
sys.path.insert(0, {repo!r})
from rules import gcg
from rules.movegen import MoveGenerator
game = gcg.load({path!r}).game
while len(game.history) > 8:
    game.pop()
times = []
for _ in range(2):
    start = time.perf_counter()
    MoveGenerator.for_game(game).best(game, "ENNORSA?")
    times.append(time.perf_counter() - start)
print(*times)
"""


def generated_positions(rules: RuleSet, seed: int, turns: int) -> list[Game]:
    """Positions of a game played by the generator: a random top-10 play per turn."""
    rng = random.Random(seed)
    game = Game(rules=rules, tiles=DUTCH)
    generator = MoveGenerator.for_game(game)
    positions = []
    for _ in range(turns):
        if game.is_over:
            break
        unseen = list(game.unseen_tiles())
        rng.shuffle(unseen)
        rack = "".join(unseen[: min(rules.rack_size, game.rack_sizes[game.to_move])])
        plays = generator.plays(game, rack)
        positions.append(game.copy())
        if not plays:
            game.push(Pass())
            continue
        game.push(rng.choice(plays[:10]).play, rack=rack)
    return positions


def demo_positions() -> list[Game]:
    positions = []
    for path in sorted(DEMO_DIR.glob("*.gcg")):
        game = gcg.load(path).game
        while game.history:
            game.pop()
            if game.to_move is not None:
                positions.append(game.copy())
    return positions


def rack_for(game: Game, blanks: int, rng: random.Random) -> str | None:
    unseen = game.unseen_tiles()
    if unseen.count("?") < blanks:
        return None
    letters = [t for t in unseen if t != "?"]
    rng.shuffle(letters)
    size = game.rules.rack_size
    if len(letters) < size - blanks:
        return None
    return "".join(letters[: size - blanks]) + "?" * blanks


def timing(label: str, samples: list[float], target_ms: float | None = None) -> None:
    """One line of figures: count, median, p95 and max in ms, and the target's verdict."""
    if not samples:
        print(f"  {label}: no positions")
        return
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    verdict = ""
    if target_ms is not None:
        verdict = f"  (target < {target_ms:.0f} ms: {'ok' if p95 < target_ms else 'MISSES'})"
    print(
        f"  {label:<34} n={len(ms):3d}  median {statistics.median(ms):7.1f} ms  "
        f"p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms{verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=24, help="positions per rule set")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print("Load (fresh process, import rules.dawg first):")
    for kind in ("gouds8", "standard"):
        output = subprocess.run(
            [sys.executable, "-c", LOAD_SCRIPT.format(repo=str(REPO), kind=kind)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        seconds, rss = float(output[0]), int(output[1])
        print(
            f"  {kind:<9} load {seconds * 1000:6.1f} ms (target < 300)  "
            f"RSS + {rss / 2**20:5.1f} MB (target < 60)"
        )

    print("First best play in a fresh process (Gouds 8 demo game, turn 9, ENNORSA?):")
    demo = sorted(DEMO_DIR.glob("*.gcg"))[0]
    output = subprocess.run(
        [sys.executable, "-c", FIRST_SCRIPT.format(repo=str(REPO), path=str(demo))],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    first, second = float(output[0]), float(output[1])
    print(
        f"  first {first * 1000:6.1f} ms (the DAWG's load included), second {second * 1000:6.1f} ms"
    )

    sets = {
        "gouds8": demo_positions()[: args.positions // 2]
        + [p for s in range(3) for p in generated_positions(GOUDS_8, args.seed + s, 16)],
        "standard": [p for s in range(3) for p in generated_positions(STANDARD, args.seed + s, 20)],
    }
    for name, positions in sets.items():
        rng.shuffle(positions)
        positions = positions[: args.positions]
        print(f"All plays per rack, {name} ({len(positions)} positions, real and generated):")
        for blanks, target in ((0, 25), (1, 150), (2, 600)):
            samples = []
            counts = []
            for game in positions:
                rack = rack_for(game, blanks, rng)
                if rack is None:
                    continue
                generator = MoveGenerator.for_game(game)
                start = time.perf_counter()
                plays = generator.plays(game, rack)
                samples.append(time.perf_counter() - start)
                counts.append(len(plays))
            plural = "s" if blanks != 1 else ""
            median_plays = statistics.median(counts or [0])
            label = f"{blanks} blank{plural} (median {median_plays:.0f} plays)"
            timing(label, samples, target)

    print("Whole 16-turn Gouds 8 games analysed (demo games, every rack known):")
    for path in sorted(DEMO_DIR.glob("*.gcg")):
        game = gcg.load(path).game
        start = time.perf_counter()
        report = analyse(game)
        elapsed = time.perf_counter() - start
        print(
            f"  {path.name}: {len(report.turns)} turns in {elapsed:5.2f} s (target < 3 s: "
            f"{'ok' if elapsed < 3 else 'MISSES'})"
        )


if __name__ == "__main__":
    main()
