"""Import a spreadsheet of results (CSV) into a competition: all rows, or none.

Refuses names that are not club players unless `--create-players`, and results that would
change unless `--replace`, so a typo or a second import never changes data silently.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from competition.core.results_csv import MAX_FILE_BYTES
from competition.management.commands._lookup import competition_from_argument
from competition.services import CompetitionError
from competition.services.importing import (
    ImportDecisions,
    ImportUnknownNames,
    ImportWouldReplace,
    results_import_apply,
)


class Command(BaseCommand):
    help = (
        "Import FILE.csv (round, table, player, opponent, score, opponent_score, outcome; "
        "comma or semicolon separated, UTF-8)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("competition")
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--create-players",
            action="store_true",
            help="Create a new club player for every name no club player carries.",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Overwrite results that already exist (each change is kept in the history).",
        )

    def handle(self, *args, competition: str, file: Path, **options):
        competition_obj = competition_from_argument(competition)
        if not file.is_file():
            raise CommandError(f"No such file: {file}")
        if file.stat().st_size > MAX_FILE_BYTES:
            raise CommandError(f"{file} is larger than {MAX_FILE_BYTES // 1024 // 1024} MB.")
        decisions = ImportDecisions(
            create_unknown=options["create_players"], replace=options["replace"]
        )
        try:
            summary = results_import_apply(
                competition=competition_obj, data=file.read_bytes(), decisions=decisions, by=None
            )
        except CompetitionError as error:
            for message in error.errors or [error.message]:
                self.stderr.write(str(message))
            hint = ""
            if isinstance(error, ImportUnknownNames):
                hint = " Correct the names, or give --create-players to enter them as new players."
            elif isinstance(error, ImportWouldReplace):
                hint = " These results exist already; give --replace to overwrite them."
            raise CommandError("Nothing was imported." + hint) from None
        self.stdout.write(
            f"Imported {summary.games} games in {summary.rounds} rounds "
            f"({summary.replaced} results replaced); {summary.new_players} new players."
        )
        if summary.published:
            rounds = ", ".join(map(str, summary.published))
            self.stdout.write(f"Published the draft round(s) {rounds}, with their pairings.")
