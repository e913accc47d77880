"""Importing a season from CSV: 40 entrants, 30 rounds (600 games), and a 2 MB file of bad rows.

Prints the time to read the file, to plan it (the preview), to import it, to preview the
same file again (every game unchanged) and to read a 2 MB file of bad rows (refused with a
capped error list). Target: the preview of a season under 1 s, the bad file under 2 s, on a
2-core machine.

    .venv/bin/python benchmarks/csv_import.py [--entrants 40] [--rounds 30]
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fresh_database import django_on_a_fresh_database  # noqa: E402

HEADER = "round;table;player;opponent;score;opponent_score;outcome\n"


def season_file(entrant_count: int, round_count: int) -> bytes:
    rng = random.Random(40)
    names = [f"Speler {number:03d}" for number in range(entrant_count)]
    lines = [HEADER]
    for number in range(1, round_count + 1):
        rng.shuffle(names)
        for table, index in enumerate(range(0, len(names) - 1, 2), 1):
            a, b = names[index], names[index + 1]
            lines.append(
                f"{number};{table};{a};{b};{rng.randint(150, 450)};{rng.randint(150, 450)};normal\n"
            )
    return "".join(lines).encode()


def timed(label: str, function):
    start = time.perf_counter()
    result = function()
    print(f"{label:<40} {(time.perf_counter() - start) * 1000:8.0f} ms")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()

    django_on_a_fresh_database()

    from clubs.models import Club, Membership, Player
    from competition.models import Competition, Entrant
    from competition.services import CompetitionError
    from competition.services.importing import (
        ImportDecisions,
        results_import_apply,
        results_import_plan,
        results_import_read,
    )

    club = Club.objects.create(name="Benchmarkclub", slug="bench")
    competition = Competition.objects.create(club=club, name="Benchmark", slug="benchmark")
    players = Player.objects.bulk_create(
        Player(name=f"Speler {number:03d}") for number in range(args.entrants)
    )
    Membership.objects.bulk_create(Membership(club=club, player=p) for p in players)
    Entrant.objects.bulk_create(Entrant(competition=competition, player=p) for p in players)
    data = season_file(args.entrants, args.rounds)
    print(
        f"{args.entrants} entrants x {args.rounds} rounds, {len(data) // 1024} kB "
        f"({os.environ['DATABASE_URL'].split(':')[0]})"
    )
    decisions = ImportDecisions()
    rows = timed("read (pure)", lambda: results_import_read(data=data))
    plan = timed(
        "preview (read + plan)",
        lambda: results_import_plan(
            competition=competition, rows=results_import_read(data=data), decisions=decisions
        ),
    )
    print(f"{'':<40} {len(plan.games)} games to add")
    summary = timed(
        "import (plan again + write)",
        lambda: results_import_apply(
            competition=competition, data=data, decisions=decisions, by=None
        ),
    )
    print(f"{'':<40} {summary.games} games imported")
    plan = timed(
        "preview of the same file again",
        lambda: results_import_plan(competition=competition, rows=rows, decisions=decisions),
    )
    print(f"{'':<40} {plan.changes} changes")

    bad = (HEADER + "x;1;Anna;Bert;1;2;normal\n" * 80_000)[: 2 * 1024 * 1024 - 1].encode()

    def read_bad():
        try:
            results_import_read(data=bad)
        except CompetitionError as error:
            return error.errors
        return []

    errors = timed(f"read a {len(bad) // 1024} kB file of bad rows", read_bad)
    print(f"{'':<40} {len(errors)} messages; last: {errors[-1]}")


if __name__ == "__main__":
    main()
