"""Import a spreadsheet of results (CSV) into a competition: all rows, or none."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from competition.management.commands._lookup import competition_from_argument
from competition.services import CompetitionError
from competition.services.importing import results_import


class Command(BaseCommand):
    help = "Import FILE.csv (round, table, player, opponent, score, opponent_score, outcome)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("competition")
        parser.add_argument("file", type=Path)

    def handle(self, *args, competition: str, file: Path, **options):
        competition_obj = competition_from_argument(competition)
        if not file.exists():
            raise CommandError(f"No such file: {file}")
        try:
            summary = results_import(competition=competition_obj, data=file.read_bytes(), by=None)
        except CompetitionError as error:
            for message in error.errors or [error.message]:
                self.stderr.write(str(message))
            raise CommandError("Nothing was imported.") from None
        self.stdout.write(
            f"Imported {summary.games} games in {summary.rounds} rounds; "
            f"{summary.new_players} new players."
        )
