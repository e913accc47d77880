"""Seconds to pair one Swiss round after 10 played rounds, for 100 to 1,000 entrants,
one against one and at tables of 4.

Simulates 10 rounds (seeded random scores, assigned starters), then times the 11th:
median of a few runs. For the sizes where the full graph is affordable it also pairs
on the full graph and reports whether the windowed matching reached the same optimum.
Tables of 4 (Swiss by tables, 2/1/0 against each opponent): the same, with the repeat
meetings of the timed round (targets: 200 in under 0.2 s, 1,000 in under 2 s).

Run: .venv/bin/python benchmarks/pairing.py [--full]   (pure Python, no Django settings)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.core import swiss, swiss_tables, table_sizes
from pairing.core.simulation import Ledger

SIZES = (100, 200, 500, 1000)
TABLE_SIZES = (100, 200, 1000)
PLAYED_ROUNDS = 10
RUNS = 5
# The full graph of 1,000 entrants (499,500 pairs) takes ~15 s; add --full to include it.
FULL_GRAPH_UP_TO = 1000 if "--full" in sys.argv else 500


def main() -> None:
    print(f"Swiss round {PLAYED_ROUNDS + 1}, median of {RUNS} runs")
    print(f"{'entrants':>8}  {'seconds':>8}  {'full graph':>10}  same optimum")
    for size in SIZES:
        ledger = Ledger(range(1, size + 1), seed=size)
        for number in range(1, PLAYED_ROUNDS + 1):
            ledger.play(swiss(ledger.entrants(), round_number=number), number)
        entrants = ledger.entrants()
        round_number = PLAYED_ROUNDS + 1
        timings = []
        for _ in range(RUNS):
            start = time.perf_counter()
            windowed = swiss(entrants, round_number=round_number)
            timings.append(time.perf_counter() - start)
        seconds = statistics.median(timings)
        if size <= FULL_GRAPH_UP_TO:
            start = time.perf_counter()
            full = swiss(entrants, round_number=round_number, window=None)
            full_seconds = f"{time.perf_counter() - start:10.3f}"
            same = "yes" if full.weight == windowed.weight and full == windowed else "NO"
        else:
            full_seconds, same = f"{'-':>10}", "not measured"
        print(f"{size:>8}  {seconds:8.3f}  {full_seconds}  {same}")
    tables_of_four()


def tables_of_four() -> None:
    print(f"\nSwiss by tables of 4, round {PLAYED_ROUNDS + 1}, median of {RUNS} runs")
    print(f"{'entrants':>8}  {'seconds':>8}  {'slowest round':>13}  repeat meetings")
    for size in TABLE_SIZES:
        sizes = table_sizes(size, 4)
        ledger = Ledger(range(1, size + 1), seed=size)
        slowest = 0.0
        for number in range(1, PLAYED_ROUNDS + 1):
            start = time.perf_counter()
            pairing = swiss_tables(ledger.entrants(), sizes, ledger.tables)
            slowest = max(slowest, time.perf_counter() - start)
            ledger.play_tables(pairing, number)
        entrants, history = ledger.entrants(), list(ledger.tables)
        timings = []
        for _ in range(RUNS):
            start = time.perf_counter()
            pairing = swiss_tables(entrants, sizes, history)
            timings.append(time.perf_counter() - start)
        seconds = statistics.median(timings)
        print(f"{size:>8}  {seconds:8.3f}  {slowest:13.3f}  {pairing.repeat_meetings}")


if __name__ == "__main__":
    main()
