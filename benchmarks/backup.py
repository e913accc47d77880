"""Backup and restore of a big club: 300 entrants, 30 rounds (4,500 games), some of them
entered move by move.

Prints the time to write the club's archive, its size, and the time to restore it under
another short name (SQLite in a temporary file, or the database DATABASE_URL names).

    .venv/bin/python benchmarks/backup.py [--entrants 300] [--rounds 30] [--with-moves 40]
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fresh_database import django_on_a_fresh_database  # noqa: E402


def big_club(entrants: int, rounds: int, with_moves: int):
    """A played competition of `entrants` × `rounds` (benchmarks/standings.py), the first
    `with_moves` games entered move by move from the demo GCG files; its competition."""
    from benchmarks.standings import build
    from games.models import Game, Outcome, Seat
    from games.moves import moves_import_gcg

    competition = build(entrants, rounds)
    records = sorted((ROOT / "games" / "demo").glob("*.gcg"))
    games = Game.objects.filter(round__competition=competition).order_by("pk")[:with_moves]
    for index, game in enumerate(games):
        Game.objects.filter(pk=game.pk).update(outcome=Outcome.PENDING)
        Seat.objects.filter(game=game).update(score=None, place=None, confirmed=False)
        game.refresh_from_db()
        moves_import_gcg(game=game, data=records[index % len(records)].read_bytes(), by=None)
    return competition


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--with-moves", type=int, default=40, help="games given a GCG record")
    args = parser.parse_args()

    django_on_a_fresh_database()

    from archives.backup import club_archive, restore_club

    start = time.perf_counter()
    competition = big_club(args.entrants, args.rounds, args.with_moves)
    database_kind = os.environ["DATABASE_URL"].split(":")[0]
    print(
        f"built {args.entrants} entrants x {args.rounds} rounds in "
        f"{time.perf_counter() - start:.1f} s ({database_kind})"
    )

    start = time.perf_counter()
    archive = club_archive(club=competition.club)
    print(f"export_club  {time.perf_counter() - start:8.2f} s  {len(archive) / 1024:8.0f} KiB")
    start = time.perf_counter()
    report = restore_club(data=archive, slug="bench-kopie")
    rows = sum(report.rows.values())
    print(f"import_club  {time.perf_counter() - start:8.2f} s  {rows:8d} rows")


if __name__ == "__main__":
    main()
