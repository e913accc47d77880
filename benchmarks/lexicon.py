"""Benchmark the shipped word lists: load time, memory and lookup speed.

    .venv/bin/python benchmarks/lexicon.py [--kind gouds8] [--runs 7]

Load time and RSS are measured in fresh subprocesses (median of ``runs``), from the
start of ``import rules`` (the package, with the engine) to a loaded list, with
bytecode cached as on a deployed machine; lookups per
second in this process with ``word in lexicon`` over a shuffled mix of hits (listed
words) and misses (listed words with one letter changed, and random strings); the target
is checked on the best of 7 rounds (as ``timeit`` advises: slower rounds measure other
load on the machine), the median is printed too.
Targets: load < 50 ms, RSS delta < 10 MB, >= 1,000,000 lookups/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if sys.path[:1] != [str(ROOT)]:
    # First, ahead of benchmarks/, whose rules.py would shadow the rules package.
    sys.path.insert(0, str(ROOT))

LOAD_TARGET_MS = 50.0
RSS_TARGET_MB = 10.0
LOOKUP_TARGET = 1_000_000

# Runs in a fresh interpreter; prints one JSON line.
_PROBE = """
import json, sys, time
sys.path.insert(0, {root!r})

def rss_kb():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

start = rss_kb()
t0 = time.perf_counter()
import rules  # the package __init__ (the whole engine), not the lexicon's own cost
t1 = time.perf_counter()
before = rss_kb()
import rules.lexicon
t2 = time.perf_counter()
lexicon = rules.lexicon.Lexicon.default({kind!r})
n = len(lexicon)
t3 = time.perf_counter()
loaded = rss_kb()
hits = sum(w in lexicon for w in lexicon)  # every word once: touches all of the file
used = rss_kb()
print(json.dumps({{
    "package_ms": (t1 - t0) * 1000, "import_ms": (t2 - t1) * 1000,
    "default_ms": (t3 - t2) * 1000, "load_ms": (t3 - t1) * 1000, "words": n,
    "package_rss_mb": (before - start) / 1024,
    "rss_delta_mb": (loaded - before) / 1024, "rss_delta_used_mb": (used - before) / 1024,
}}))
"""


# A deployed program imports compiled bytecode; this machine's environment may forbid
# writing it (PYTHONDONTWRITEBYTECODE), which would time the compiler instead.
_BYTECODE_CACHE = tempfile.mkdtemp(prefix="bordpunt-pycache-")


def _probe(kind: str) -> dict[str, Any]:
    code = _PROBE.format(root=str(ROOT), kind=kind)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = _BYTECODE_CACHE
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=env
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def _queries(words: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    listed = set(words)
    hits = rng.sample(words, n // 2)
    misses: list[str] = []
    while len(misses) < n - len(hits):
        if rng.random() < 0.5:
            w = rng.choice(words)
            i = rng.randrange(len(w))
            w = w[:i] + rng.choice(string.ascii_uppercase) + w[i + 1 :]
        else:
            w = "".join(rng.choices(string.ascii_uppercase, k=rng.randint(2, 8)))
        if w not in listed:
            misses.append(w)
    queries = hits + misses
    rng.shuffle(queries)
    return queries


def _lookups_per_second(kind: str, n: int = 200_000, rounds: int = 7) -> tuple[float, float]:
    from rules.lexicon import Lexicon

    lexicon = Lexicon.default(kind)
    queries = _queries(list(lexicon), n, seed=8)
    rates = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for word in queries:
            word in lexicon  # noqa: B015 - the lookup is what is measured
        rates.append(len(queries) / (time.perf_counter() - t0))
    return statistics.median(rates), max(rates)


def measure(kind: str = "gouds8", runs: int = 7) -> dict[str, Any]:
    """Load time, RSS delta (fresh subprocesses, median of ``runs``) and lookups/s."""
    _probe(kind)  # warm-up: writes the bytecode cache
    probes = [_probe(kind) for _ in range(runs)]

    def median(key: str) -> float:
        return statistics.median(p[key] for p in probes)

    lookups_median, lookups_best = _lookups_per_second(kind)
    result: dict[str, Any] = {
        "load_average": os.getloadavg()[0],
        "kind": kind,
        "words": probes[0]["words"],
        "runs": runs,
        "package_ms": median("package_ms"),
        "package_rss_mb": median("package_rss_mb"),
        "import_ms": median("import_ms"),
        "default_ms": median("default_ms"),
        "load_ms": median("load_ms"),
        "rss_delta_mb": median("rss_delta_mb"),
        "rss_delta_after_lookups_mb": median("rss_delta_used_mb"),
        "lookups_per_s": lookups_median,
        "lookups_per_s_best": lookups_best,
    }
    # What a fresh process pays to check words: the rules package, then the list.
    result["total_ms"] = median("package_ms") + median("load_ms")
    result["total_rss_mb"] = median("package_rss_mb") + median("rss_delta_used_mb")
    result["ok"] = (
        result["total_ms"] < LOAD_TARGET_MS
        and result["total_rss_mb"] < RSS_TARGET_MB
        and result["lookups_per_s_best"] >= LOOKUP_TARGET
    )
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--kind", default="gouds8")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    r = measure(args.kind, args.runs)
    if args.json:
        print(json.dumps(r, indent=2))
        return 0 if r["ok"] else 1
    print(f"lexicon {r['kind']}: {r['words']} words")
    print(
        f"  load in a fresh process (import rules, then Lexicon.default; median of "
        f"{r['runs']}): {r['total_ms']:.1f} ms, RSS +{r['total_rss_mb']:.1f} MB "
        f"(targets < {LOAD_TARGET_MS:.0f} ms, < {RSS_TARGET_MB:.0f} MB)"
    )
    print(
        f"    of which the rules package {r['package_ms']:.1f} ms / "
        f"+{r['package_rss_mb']:.1f} MB, rules.lexicon {r['import_ms']:.1f} ms, "
        f"Lexicon.default {r['default_ms']:.1f} ms"
    )
    print(
        f"  RSS delta: {r['rss_delta_mb']:.1f} MB after load, "
        f"{r['rss_delta_after_lookups_mb']:.1f} MB after looking up every word "
        f"(target < {RSS_TARGET_MB:.0f} MB)"
    )
    print(
        f"  lookups: {r['lookups_per_s']:,.0f}/s median, {r['lookups_per_s_best']:,.0f}/s best "
        f"(50% hits; target >= {LOOKUP_TARGET:,}/s on the best round)"
    )
    print(f"  machine load average during the run: {r['load_average']:.2f}")
    print(f"  {'OK' if r['ok'] else 'TARGET MISSED'}")
    return 0 if r["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
