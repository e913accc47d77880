"""Print a club's rating list as a table, CSV or JSON."""

import datetime
import json

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from competition.ratings import club_ratings
from competition.spreadsheets import csv_text

COLUMNS = ("player", "rating", "deviation", "volatility", "games", "last_game")


class Command(BaseCommand):
    help = (
        "Print the rating list of CLUB (id or short name): player, rating, deviation, "
        "volatility, rated games and the date of the last rated game."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("club")
        parser.add_argument(
            "--date", default=None, help="YYYY-MM-DD: the ratings after the evenings up to then."
        )
        parser.add_argument("--format", choices=["table", "csv", "json"], default="table")

    def handle(self, *args, club: str, date: str | None, format: str, **options):
        club_obj = _club(club)
        on = None
        if date is not None:
            try:
                on = datetime.date.fromisoformat(date)
            except ValueError:
                raise CommandError(f"--date “{date}” is not a date (YYYY-MM-DD).") from None
        rows = [_values(row) for row in club_ratings(club_obj, on=on).rows]
        if format == "json":
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
        elif format == "csv":
            table = [COLUMNS, *([row[column] for column in COLUMNS] for row in rows)]
            self.stdout.write(csv_text(table, lineterminator="\n"), ending="")
        else:
            self.stdout.write(_table(club_obj, rows))


def _club(value: str) -> Club:
    found = Club.objects.filter(pk=int(value)) if value.isascii() and value.isdigit() else None
    club = (found.first() if found is not None else None) or Club.objects.filter(slug=value).first()
    if club is None:
        raise CommandError(f"No club “{value}”. Use its id or short name.")
    return club


def _values(row) -> dict:
    return {
        "player": row.name,
        "rating": round(row.rating, 1),
        "deviation": None if row.deviation is None else round(row.deviation, 1),
        "volatility": None if row.volatility is None else round(row.volatility, 6),
        "games": row.games,
        "last_game": row.last_played.isoformat() if row.last_played else None,
    }


def _table(club: Club, rows: list[dict]) -> str:
    lines = [
        f"{club.name} — {club.get_rating_system_display()}",
        f"{'#':>3}  {'Player':<28} {'Rating':>7} {'Dev.':>6} {'Vol.':>8} {'G':>4}  Last game",
    ]
    for rank, row in enumerate(rows, start=1):
        deviation = "" if row["deviation"] is None else f"{row['deviation']:.1f}"
        volatility = "" if row["volatility"] is None else f"{row['volatility']:.5f}"
        lines.append(
            f"{rank:>3}  {row['player'][:28]:<28} {row['rating']:>7.1f} {deviation:>6} "
            f"{volatility:>8} {row['games']:>4}  {row['last_game'] or ''}"
        )
    return "\n".join(lines)
