"""Benchmarks for the move generator (rules.movegen): plays per rack, game analysis, load.

Run as ``.venv/bin/python benchmarks/movegen.py [--positions N] [--seed S]``; prints
figures, asserts nothing. Imports nothing from Django. ``--side-by-side --positions 64``
runs only the last section, on every demo and generated position (docs/rules.md has the
figures).

Targets (issue 13), median and p95 over positions from real and generated games:

* all plays for a 7- (standard) or 8-tile (Gouds 8) rack without blanks < 25 ms,
  with one blank < 150 ms, with two blanks < 600 ms;
* a whole 16-turn Gouds 8 game analysed < 3 s;
* the DAWG loads in < 300 ms and adds < 60 MB;
* the first best play of a process costs no more than the DAWG's load over the second
  (issue 55: nothing derived from the word list is worked out on first use).

The last section times the same positions and racks with every engine at hand, each in
a process of its own, twice (the second time in the opposite order, so a change in the
machine's load weighs on both sides): the pure engine, the compiled one when it is built
(``make compiled``, build/compiled), and the external solver ``scrabble-solver`` when
node and npm are installed (issue 55: its pinned tarball fetched with ``npm pack`` into
build/solver once, its integrity checked, run by ``benchmarks/movegen_solver.cjs`` with
our rule set, tile values, premium squares and word list). Per engine and rack the time
is the best of ``--repeats`` runs (3) after a warm-up, then the lower of the two rounds;
it prints the median of the per-position ratios compiled ÷ pure and ours ÷ the solver's
per blank count, for all plays and for the best play, and whether every engine found the
same plays (the same set of new tiles and score, per position).

Positions: every turn of the Dutch demo games (``games/demo/*.gcg``, Gouds 8) and of
games generated here (each turn a random one of the ten best plays for a random rack
from the unseen tiles), under Gouds 8 and the standard rules. Racks are drawn from each
position's unseen tiles: letters only, one blank, two blanks.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMPILED = REPO / "build" / "compiled"
# --engine compiled (the side-by-side section's own processes): build/compiled first.
_FIRST = [str(COMPILED)] if sys.argv[1:3] == ["--engine", "compiled"] else []
sys.path[:] = [*_FIRST, str(REPO)] + [
    p for p in sys.path if Path(p or ".").resolve() != REPO / "benchmarks"
]

from rules import DUTCH, GOUDS_8, STANDARD, Game, Pass, RuleSet, TileSet, gcg  # noqa: E402
from rules.analysis import analyse  # noqa: E402
from rules.board import LETTER_MULT, SIZE, WORD_MULT  # noqa: E402
from rules.dawg import Dawg  # noqa: E402
from rules.movegen import GeneratedPlay, MoveGenerator  # noqa: E402

DEMO_DIR = REPO / "games" / "demo"
SOLVER_DIR = REPO / "build" / "solver"
SOLVER_RUNNER = Path(__file__).with_name("movegen_solver.cjs")
#: The external solver, pinned: the npm tarball of the whole monorepo (its scoped
#: packages @scrabble-solver/* are not on the registry, so `npm install` cannot work).
SOLVER_SPEC = "scrabble-solver@2.18.4"
SOLVER_INTEGRITY = (
    "sha512-6ZpUW65ibTYTwOADQZ6CLMA0YRo0qmYUPDNQxDsTODVZlxqTlL+sxr5K"
    "FiKNFwGysRkbRmDOms0JLH0g2lQHqQ=="
)
#: The built packages the solver needs, by the names its files require them by.
SOLVER_PACKAGES = {
    "@scrabble-solver/solver": "solver",
    "@scrabble-solver/types": "types",
    "@scrabble-solver/constants": "constants",
    "@kamilmielnik/gaddag": "gaddag/build",
}

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


def play_key(play: GeneratedPlay) -> str:
    """A play as the solver's runner writes one: the score, then each new tile's row,
    column and letter (lowercase = blank) in board order. Direction-free, since a lone
    tile that makes a word both ways is one play, which either side may call across."""
    return f"{play.score}:" + "".join(f"{r:02d}{c:02d}{letter}" for r, c, letter in play.placed)


def plays_digest(keys: list[str]) -> str:
    return hashlib.sha1("\n".join(sorted(keys)).encode()).hexdigest()


def engine_timings(count: int, seed: int, repeats: int) -> None:
    """One engine's times, as JSON on stdout: per position and rack, the best of
    ``repeats`` runs of plays() and of best(), and the plays found (their number, the top
    score and a digest of their keys)."""
    rows = []
    for game, rack, blanks in side_by_side_positions(count, seed):
        generator = MoveGenerator.for_game(game)
        generator.best(game, rack)  # the word list loaded and warm for both engines
        all_times, best_times = [], []
        for _ in range(repeats):
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
                "count": len(plays),
                "top": plays[0].score if plays else None,
                "digest": plays_digest([play_key(p) for p in plays]),
            }
        )
    print(json.dumps(rows))


def solver_setup() -> Path | str:
    """The unpacked solver (its ``package`` folder), fetched and unpacked on first use;
    or why it cannot run."""
    if not (shutil.which("node") and shutil.which("npm")):
        return "node and npm are not both installed"
    package = SOLVER_DIR / "package"
    stamp = package / "integrity"
    if stamp.exists() and stamp.read_text() == SOLVER_INTEGRITY:
        return package
    SOLVER_DIR.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(
            ["npm", "pack", SOLVER_SPEC, "--ignore-scripts", "--pack-destination", str(SOLVER_DIR)],
            capture_output=True,
            check=True,
            timeout=300,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        said = (getattr(exc, "stderr", None) or b"").decode().strip().splitlines()
        return f"npm pack {SOLVER_SPEC} failed ({said[-1] if said else exc})"
    tarball = SOLVER_DIR / (SOLVER_SPEC.replace("@", "-") + ".tgz")
    digest = hashlib.sha512(tarball.read_bytes()).digest()
    if "sha512-" + base64.b64encode(digest).decode() != SOLVER_INTEGRITY:
        return f"{tarball.name} does not match its pinned integrity"
    shutil.rmtree(package, ignore_errors=True)
    # Only the built packages the solver runs on (the tarball unpacks to 100 MB).
    wanted = {f"package/packages/{folder.split('/')[0]}/" for folder in SOLVER_PACKAGES.values()}
    with tarfile.open(tarball) as archive:
        members = [m for m in archive.getmembers() if m.name.startswith(tuple(wanted))]
        archive.extractall(SOLVER_DIR, members=members, filter="data")
    # The packages require each other by name: a node_modules beside them resolves it.
    for name, folder in SOLVER_PACKAGES.items():
        link = package / "node_modules" / name
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(package / "packages" / folder, target_is_directory=True)
    stamp.write_text(SOLVER_INTEGRITY)
    return package


def solver_config(rules: RuleSet, tiles: TileSet) -> dict[str, object]:
    """Our rule set, tile values and premium squares as the solver's config (its own
    configs have no Dutch one, and none without a bingo bonus as Gouds 8 has)."""
    bonuses = []
    for index in range(SIZE * SIZE):
        y, x = divmod(index, SIZE)
        if LETTER_MULT[index] > 1:
            bonuses.append(
                {"type": "BONUS_CHARACTER", "multiplier": LETTER_MULT[index], "x": x, "y": y}
            )
        if WORD_MULT[index] > 1:
            bonuses.append({"type": "BONUS_WORD", "multiplier": WORD_MULT[index], "x": x, "y": y})
    return {
        "bingo": {"score": rules.bingo_bonus},
        "blankScore": 0,
        "blanksCount": tiles.blanks,
        "boardHeight": SIZE,
        "boardWidth": SIZE,
        "game": "scrabble",
        "locale": "nl-NL",
        "name": rules.name,
        "rackSize": rules.rack_size,
        "bonuses": bonuses,
        "tiles": [
            {"character": letter.lower(), "count": count, "score": value}
            for letter, (count, value) in sorted(tiles.letters.items())
        ],
    }


def solver_timings(package: Path, count: int, seed: int, repeats: int) -> list[dict[str, object]]:
    """The solver's times on the positions and racks of :func:`engine_timings`, in a node
    process of its own; the word lists (the words of our DAWGs) written once."""
    positions = side_by_side_positions(count, seed)
    kinds = {game.rules.name: game for game, _, _ in positions}
    word_lists = {}
    for kind, game in kinds.items():
        path = SOLVER_DIR / f"{game.rules.lexicon}.words"
        dawg = REPO / "rules" / "data" / f"{game.rules.lexicon}.dawg"
        if not path.exists() or path.stat().st_mtime < dawg.stat().st_mtime:
            words = "\n".join(Dawg.default(game.rules.lexicon)).lower()
            path.write_text(words + "\n")
        word_lists[kind] = str(path)
    request = {
        "configs": {kind: solver_config(game.rules, game.tiles) for kind, game in kinds.items()},
        "word_lists": word_lists,
        "repeats": repeats,
        "positions": [
            {
                "rules": game.rules.name,
                "board": [
                    "".join(game.board.letter(r, c) or "." for c in range(SIZE))
                    for r in range(SIZE)
                ],
                "rack": rack,
            }
            for game, rack, _ in positions
        ],
    }
    path = SOLVER_DIR / f"positions-{count}-{seed}.json"
    path.write_text(json.dumps(request))
    output = subprocess.run(
        ["node", str(SOLVER_RUNNER), str(package), str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows: list[dict[str, object]] = json.loads(output)
    for row, (_, _, blanks) in zip(rows, positions, strict=True):
        row["blanks"] = blanks
    return rows


def engine_run(engine: str, count: int, seed: int, repeats: int, solver: Path | None) -> list[dict]:
    """One engine's rows, from a process of its own."""
    if engine == "solver":
        assert solver is not None
        return solver_timings(solver, count, seed, repeats)
    command = [sys.executable, __file__, "--engine", engine, "--repeats", str(repeats)]
    command += ["--positions", str(count), "--seed", str(seed)]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows: list[dict] = json.loads(output)
    return rows


def ratio_cell(runs: list[tuple[list[dict], list[dict]]], kind: str) -> str:
    """Median of the per-position ratios ours ÷ theirs of each (ours, theirs) in ``runs``
    (both rounds' lower times, then each round alone), and the first's median times."""
    ratios = [
        statistics.median(o[kind] / t[kind] for o, t in zip(ours, theirs, strict=True))
        for ours, theirs in runs
    ]
    ours, theirs = runs[0]
    ms_ours = statistics.median(o[kind] for o in ours) * 1000
    ms_theirs = statistics.median(t[kind] for t in theirs) * 1000
    rounds = " ".join(f"{r:4.2f}" for r in ratios[1:])
    return f"{ratios[0]:4.2f} [{rounds}] ({ms_ours:6.1f} / {ms_theirs:6.1f} ms)"


def side_by_side(count: int, seed: int, repeats: int) -> None:
    """Every engine at hand on the same positions, each in a process of its own, twice
    with the order swapped; per rack the lower of the two times."""
    engines = ["pure"]
    if COMPILED.exists():
        engines.append("compiled")
    else:
        print("Side by side: no compiled engine (make compiled), pure only")
    solver = solver_setup()
    package = None if isinstance(solver, str) else solver
    if isinstance(solver, str):
        print(f"Side by side: the external solver skipped: {solver}")
    else:
        engines.append("solver")
    if len(engines) == 1:
        return
    rounds: list[dict[str, list[dict]]] = [{}, {}]
    for order, round_ in zip((engines, engines[::-1]), rounds, strict=True):
        for engine in order:
            round_[engine] = engine_run(engine, count, seed, repeats, package)
    runs = {
        engine: [
            {
                **first,
                "all": min(first["all"], second["all"]),
                "best": min(first["best"], second["best"]),
            }
            for first, second in zip(rounds[0][engine], rounds[1][engine], strict=True)
        ]
        for engine in engines
    }
    pure = runs["pure"]
    print(
        f"Side by side ({len(pure)} racks; each the best of {repeats} runs, the lower of two "
        f"rounds in the orders {', '.join(engines)} and back; medians of the per-position "
        "ratios, in square brackets each round's, in round ones the median times in ms; the "
        "solver has no search for the best play alone: its best is the top of all plays):"
    )
    for engine in engines[1:]:
        differ = [
            i
            for i, (p, o) in enumerate(zip(pure, runs[engine], strict=True))
            if (p["count"], p["top"], p["digest"]) != (o["count"], o["top"], o["digest"])
        ]
        print(f"  pure and {engine}: same plays in {len(pure) - len(differ)} of {len(pure)} racks")
        for i in differ[:5]:
            print(
                f"    rack {i}: pure {pure[i]['count']} plays, top {pure[i]['top']}; "
                f"{engine} {runs[engine][i]['count']} plays, top {runs[engine][i]['top']}"
            )
    columns = [("compiled", "pure")] if "compiled" in runs else []
    columns += [
        (ours, "solver") for ours in ("pure", "compiled") if ours in runs and "solver" in runs
    ]
    for ours, theirs in columns:
        print(f"  {ours} ÷ {theirs}:")
        for blanks in (0, 1, 2):
            which = [i for i, row in enumerate(pure) if row["blanks"] == blanks]
            if not which:
                continue
            pairs = [
                ([each[ours][i] for i in which], [each[theirs][i] for i in which])
                for each in (runs, *rounds)
            ]
            print(
                f"    {blanks} blank{'s' if blanks != 1 else ' '} n={len(which):3d}  "
                f"all plays {ratio_cell(pairs, 'all')}  best play {ratio_cell(pairs, 'best')}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=24, help="positions per rule set")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--engine", choices=("pure", "compiled"), help="(internal) one engine's times as JSON"
    )
    parser.add_argument("--side-by-side", action="store_true", help="only the side-by-side section")
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="side by side: runs per rack and round, the best kept",
    )
    args = parser.parse_args()
    if args.engine:
        engine_timings(args.positions, args.seed, args.repeats)
        return
    if args.side_by_side:
        side_by_side(args.positions, args.seed, args.repeats)
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

    side_by_side(args.positions, args.seed, args.repeats)


if __name__ == "__main__":
    main()
