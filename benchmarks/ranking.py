"""A season of the federation's ranking from results files: 16 interclubs of 150 players
each (3 games an interclub: 7,200 results), imported one file after the other on the
federation's Bordpunt, then the season ranking computed. Targets (issue 53): import and
ranking together under 1 s on PostgreSQL and 0.5 s on SQLite on this 2-core machine. The
machine is shared: besides the wall time it prints this process's CPU time (the server's
share on PostgreSQL is not in it) and the load average, to read the wall time by.

The files are built first (not timed) from a pool of 600 persons of 25 clubs, a third of
them known on the federation's Bordpunt beforehand; each interclub draws 150 of them. Timed:
reading, checking and importing the 16 files (`ranking.files_import.results_import_apply`,
the official's confirmation), then the season ranking. Each repeat runs in a transaction
that is rolled back, so every repeat imports into the same empty season; the data is
rolled back at the end too (a PostgreSQL database named by DATABASE_URL keeps nothing).

    .venv/bin/python benchmarks/ranking.py [--interclubs 16] [--players 150] [--repeat 3]
"""

import argparse
import datetime
import random
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fresh_database import django_on_a_fresh_database  # noqa: E402

POOL = 600
CLUBS = 25
GAMES = 3


def build(interclubs: int, players: int):
    """The federation, its season and clubs, the persons known beforehand, and the files."""
    from clubs.models import Club, Player
    from events.models import Season
    from ranking.files import (
        FileClub,
        FileGame,
        ResultsFile,
        results_file_json,
        results_with_percentages,
    )

    rng = random.Random(43)
    federation = Club.objects.create(name="NTSV", slug="ntsv", is_federation=True)
    season = Season.objects.create(
        federation=federation,
        name="Seizoen 2026-2027",
        slug="2026-2027",
        start=datetime.date(2026, 8, 1),
        end=datetime.date(2027, 7, 31),
        gap_value=Decimal("20"),
    )
    clubs = [
        Club.objects.create(name=f"Club {n:02d}", slug=f"club-{n:02d}", federation_code=f"C{n:02d}")
        for n in range(CLUBS)
    ]
    pool = [
        (f"{10000 + n}", f"Speler {n:03d}", FileClub(clubs[n % CLUBS].name, f"C{n % CLUBS:02d}"))
        for n in range(POOL)
    ]
    Player.objects.bulk_create(
        Player(name=name, federation_number=number) for number, name, _club in pool[: POOL // 3]
    )
    strength = {number: rng.gauss(0, 60) for number, _name, _club in pool}
    files = []
    for event in range(interclubs):
        day = season.start + datetime.timedelta(weeks=2 * event + 1)
        playing = rng.sample(pool, players)
        games = []
        for number in range(1, GAMES + 1):
            rows = [
                (fed, name, club, int(700 + strength[fed] + rng.gauss(0, 80)))
                for fed, name, club in playing
            ]
            games.append(
                FileGame(
                    number=number,
                    date=day,
                    division="A",
                    gap_value=season.gap_value,
                    results=results_with_percentages(rows, season.gap_value),
                )
            )
        results = ResultsFile(
            uid=uuid.uuid4(),
            name=f"Interclub {event + 1}",
            organiser=FileClub(clubs[event].name, clubs[event].federation_code),
            kind="interclub",
            date=day,
            season=season.slug,
            games=tuple(games),
            program="benchmark",
        )
        files.append(results_file_json(results))
    return season, files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interclubs", type=int, default=16)
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    django_on_a_fresh_database()
    from django.db import connection, transaction

    from ranking.files_import import results_import_apply
    from ranking.models import RankedResult

    with transaction.atomic():  # nothing stays behind, on PostgreSQL either
        season, files = build(args.interclubs, args.players)
        size = sum(len(data) for data in files)
        print(
            f"{connection.vendor}: {args.interclubs} interclubs × {args.players} players × "
            f"{GAMES} games = {args.interclubs * args.players * GAMES} results in {len(files)} "
            f"files ({size / 1024:.0f} kB)"
        )
        from ranking.selectors import season_standings

        imports, rankings, totals, cpus = [], [], [], []
        for _ in range(args.repeat):
            with transaction.atomic():
                start, cpu = time.perf_counter(), time.process_time()
                for data in files:
                    results_import_apply(data=data, season=season, by=None)
                imported = time.perf_counter()
                season_standings(season)
                done = time.perf_counter()
                cpus.append((time.process_time() - cpu) * 1000)
                count = RankedResult.objects.count()
                transaction.set_rollback(True)
            assert count == args.interclubs * args.players * GAMES, count
            imports.append((imported - start) * 1000)
            rankings.append((done - imported) * 1000)
            totals.append((done - start) * 1000)
        transaction.set_rollback(True)
    target = 1000 if connection.vendor == "postgresql" else 500
    print(f"load average {Path('/proc/loadavg').read_text().split()[0]} (2 cores)")
    best = min(range(args.repeat), key=lambda i: totals[i])
    middle = sorted(range(args.repeat), key=lambda i: totals[i])[args.repeat // 2]
    for label, i in (("best", best), ("median", middle)):
        print(f"{label} of {args.repeat} runs:")
        print(f"  import of {len(files)} files      {imports[i]:8.0f} ms")
        print(f"  season ranking               {rankings[i]:8.0f} ms")
        print(f"  together                     {totals[i]:8.0f} ms   target < {target} ms")
        print(f"  CPU of this process          {cpus[i]:8.0f} ms")


if __name__ == "__main__":
    main()
