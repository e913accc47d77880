"""Print a competition's standings as a table, CSV or JSON."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from competition import exports, selectors
from competition.management.commands._lookup import competition_from_argument
from competition.tables import SHORT_TIEBREAK_LABELS, format_points, tiebreak_text


class Command(BaseCommand):
    help = "Print the standings of COMPETITION (id, slug or club/slug)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("competition")
        parser.add_argument("--after-round", type=int, default=None)
        parser.add_argument("--format", choices=["table", "csv", "json"], default="table")

    def handle(self, *args, competition: str, after_round: int | None, format: str, **options):
        competition_obj = competition_from_argument(competition)
        if after_round is not None and after_round < 1:
            raise CommandError("--after-round must be 1 or more.")
        view = selectors.standings_get(competition_obj, after_round=after_round)
        # The command speaks English, numbers included: a decimal point, a comma-separated
        # CSV for scripts (the site's CSV follows its reader's language).
        with translation.override("en"):
            self._write(competition_obj, view, format)

    def _write(self, competition_obj, view, format: str) -> None:
        if format == "json":
            self.stdout.write(
                json.dumps(exports.standings_rows(view), ensure_ascii=False, indent=2)
            )
        elif format == "csv":
            self.stdout.write(exports.standings_csv(view), ending="")
        else:
            self.stdout.write(self._table(competition_obj, view))

    def _table(self, competition, view) -> str:
        lines = [f"{competition.name} — after round {view.after_round or view.last_round}"]
        # The tiebreaks the competition ranks by, after spread (which has its own column).
        tiebreaks = [name for name in view.tiebreaks if name != "spread"]
        labels = "".join(f" {SHORT_TIEBREAK_LABELS[name]!s:>9}" for name in tiebreaks)
        for group, rows in view.groups.items():
            if group:
                lines += ["", group]
            lines.append(
                f"{'#':>3}  {'Player':<28} {'G':>3} {'MP':>5} {'BP':>6} {'Spread':>7}{labels}"
            )
            for row in rows:
                values = dict(row.tiebreak_values)
                lines.append(
                    f"{row.rank:>3}  {row.name[:28]:<28} {row.games:>3} "
                    f"{format_points(row.match_points):>5} {row.board_points:>6} {row.spread:>7}"
                    + "".join(f" {tiebreak_text(name, values.get(name)):>9}" for name in tiebreaks)
                )
        return "\n".join(lines)
