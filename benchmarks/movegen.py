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

When the compiled engine is built (``make compiled``, build/compiled), the last section
times the same positions and racks with the pure and the compiled engine, each in a
process of its own, and prints the median of the per-position ratios compiled ÷ pure per
blank count, for all plays and for the best play; both must find the same plays.

Positions: every turn of the Dutch demo games (``games/demo/*.gcg``, Gouds 8) and of
games generated here (each turn a random one of the ten best plays for a random rack
from the unseen tiles), under Gouds 8 and the standard rules. Racks are drawn from each
position's unseen tiles: letters only, one blank, two blanks.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMPILED = REPO / "build" / "compiled"
# --engine compiled (the side-by-side section's own processes): build/compiled first.
_FIRST = [str(COMPILED)] if sys.argv[1:3] == ["--engine", "compiled"] else []
sys.path[:] = [*_FIRST, str(REPO)] + [
    p for p in sys.path if Path(p or ".").resolve() != REPO / "benchmarks"
]

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


def side_by_side_positions(count: int, seed: int) -> list[tuple[Game, str, int]]:
    """Positions and racks, the same in every process: Gouds 8 demo turns and generated
    standard games, each with a rack of 0, 1 and 2 blanks where the bag allows."""
    rng = random.Random(seed)
    games = (
        demo_positions()[:count]
        + [p for s in range(2) for p in generated_positions(STANDARD, seed + s, 20)][:count]
    )
    out = []
    for game in games:
        for blanks in (0, 1, 2):
            rack = rack_for(game, blanks, rng)
            if rack is not None:
                out.append((game, rack, blanks))
    return out


def engine_timings(count: int, seed: int) -> None:
    """One engine's times, as JSON on stdout: per position and rack, the best of three
    runs of plays() and of best(), and the number of plays."""
    rows = []
    for game, rack, blanks in side_by_side_positions(count, seed):
        generator = MoveGenerator.for_game(game)
        generator.best(game, rack)  # the word list loaded and warm for both engines
        all_times, best_times = [], []
        for _ in range(3):
            start = time.perf_counter()
            plays = generator.plays(game, rack)
            all_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            generator.best(game, rack)
            best_times.append(time.perf_counter() - start)
        rows.append(
            {
                "blanks": blanks,
                "all": min(all_times),
                "best": min(best_times),
                "plays": [list(p) for p in plays],
            }
        )
    print(json.dumps(rows))


def side_by_side(count: int, seed: int) -> None:
    """Pure and compiled on the same positions, each engine in a process of its own."""
    if not COMPILED.exists():
        print("Pure and compiled side by side: no compiled engine (make compiled), skipped")
        return
    runs = {}
    for engine in ("pure", "compiled"):
        output = subprocess.run(
            [
                sys.executable,
                __file__,
                "--engine",
                engine,
                "--positions",
                str(count),
                "--seed",
                str(seed),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        runs[engine] = json.loads(output)
    pure, compiled = runs["pure"], runs["compiled"]
    same = all(p["plays"] == c["plays"] for p, c in zip(pure, compiled, strict=True))
    print(
        f"Pure and compiled side by side ({len(pure)} racks, best of 3 each, median of the "
        f"per-position ratios compiled ÷ pure; same plays: {'yes' if same else 'NO'}):"
    )
    for blanks in (0, 1, 2):
        pairs = [(p, c) for p, c in zip(pure, compiled, strict=True) if p["blanks"] == blanks]
        if not pairs:
            continue
        line = f"  {blanks} blank{'s' if blanks != 1 else ' '} n={len(pairs):3d}"
        for kind in ("all", "best"):
            ms_pure = statistics.median(p[kind] for p, _ in pairs) * 1000
            ms_compiled = statistics.median(c[kind] for _, c in pairs) * 1000
            ratio = statistics.median(c[kind] / p[kind] for p, c in pairs)
            line += (
                f"  {kind:>4}: pure {ms_pure:6.1f} ms, compiled {ms_compiled:6.1f} ms, "
                f"ratio {ratio:4.2f}"
            )
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=24, help="positions per rule set")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--engine", choices=("pure", "compiled"), help="(internal) one engine's times as JSON"
    )
    parser.add_argument("--side-by-side", action="store_true", help="only pure and compiled")
    args = parser.parse_args()
    if args.engine:
        engine_timings(args.positions, args.seed)
        return
    if args.side_by_side:
        side_by_side(args.positions, args.seed)
        return
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

    side_by_side(args.positions, args.seed)


if __name__ == "__main__":
    main()
