"""Write a competition as a TSH division file (.t): to standard output or --output FILE."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from competition.management.commands._lookup import competition_from_argument
from competition.services import CompetitionError
from interchange.tsh import tsh_export


class Command(BaseCommand):
    help = "Export COMPETITION (id, slug or club/slug) as a TSH .t file."

    def add_arguments(self, parser) -> None:
        parser.add_argument("competition")
        parser.add_argument("--output", type=Path, help="file to write (default: stdout)")

    def handle(self, *args, competition: str, output: Path | None, **options):
        competition_obj = competition_from_argument(competition)
        try:
            text = tsh_export(competition=competition_obj)
        except CompetitionError as error:
            raise CommandError(str(error.message)) from None
        if output is None:
            self.stdout.write(text, ending="")
            return
        output.write_text(text, encoding="utf-8")
        self.stderr.write(f"Wrote {output} ({text.count(chr(10))} players).")
