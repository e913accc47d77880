"""Benchmark: a room of players handing in one turn's slips at once (the services).

Run as ``.venv/bin/python benchmarks/duplicate_slips.py [--players 160] [--threads 8]``;
prints figures, asserts nothing. On a fresh temporary SQLite file (or, with
``--database-url``, that database: it must be empty and is left with the rows made),
it migrates, makes a competition of N entrants and a duplicate evening, draws three turns
(closing two, so each slip is scored on a rebuilt board), then every player hands in a
slip for the open turn, from T threads at the same moment, through
``duplicate.services.slips.slip_submit`` (the engine scores each one). It prints the p50/p95
time of one slip and of the whole room, and the slips that failed.

Issue 22's target is over HTTP under the production server (p95 < 500 ms for 160
players); the evening's pages are not built yet, so this measures the service, which is
what such a page will call.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory()
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{tmp.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    from clubs.models import Club, Player
    from duplicate.models import DuplicateCompetition, Participant
    from duplicate.services.evenings import evening_create
    from duplicate.services.slips import slip_submit
    from duplicate.services.turns import turn_choose_top, turn_draw

    club = Club.objects.create(name="Bench", slug="bench")
    competition = DuplicateCompetition.objects.create(
        club=club, name="Duplicate", slug="duplicate", rules=DuplicateCompetition.Rules.STANDARD
    )
    players = [Player.objects.create(name=f"Speler {n:03d}") for n in range(args.players)]
    Participant.objects.bulk_create(Participant(competition=competition, player=p) for p in players)
    evening = evening_create(competition=competition, number=1, by=None)
    for tiles in ("KAAS?EN", "TWOORDA"):
        turn_choose_top(turn=turn_draw(evening=evening, tiles=tiles, by=None), by=None)
    turn = turn_draw(evening=evening, tiles="EIGLMPU", by=None)
    writings = ["E3 PLUIMAGE", "E7 GAMEL", "7I GEMEL", "K9 PLUIM", "9H MUG"]  # plays, refusals

    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(args.threads)
    queue = list(enumerate(players))

    def worker() -> None:
        barrier.wait()
        while True:
            with lock:
                if not queue:
                    break
                n, player = queue.pop()
            start = time.perf_counter()
            try:
                slip_submit(
                    turn=turn, player_id=player.pk, text=writings[n % len(writings)], by=None
                )
            except Exception as exc:
                errors.append(repr(exc))
            with lock:
                times.append(time.perf_counter() - start)
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(args.threads)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    room = time.perf_counter() - start
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    engine = connection.vendor
    print(
        f"{args.players} slips of one turn, {args.threads} threads, {engine}: one slip "
        f"median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, max {ms[-1]:.0f} ms; "
        f"the whole room {room:.1f} s; {len(errors)} failed"
    )
    for error in errors[:5]:
        print("  ", error)
    tmp.cleanup()


if __name__ == "__main__":
    main()
