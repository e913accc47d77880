"""Create a tournament from a TSH division file (.t): players, rounds, pairings, results."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from competition.services import CompetitionError
from interchange.tsh import IMPORT_RULES, tsh_import


class Command(BaseCommand):
    help = "Import FILE.t into CLUB (its short name) as a new tournament called NAME."

    def add_arguments(self, parser) -> None:
        parser.add_argument("club")
        parser.add_argument("file", type=Path)
        parser.add_argument("--name", required=True)
        parser.add_argument("--slug", default="", help="short name (default: from --name)")
        parser.add_argument("--rules", choices=IMPORT_RULES, default=IMPORT_RULES[0])

    def handle(self, *args, club: str, file: Path, name: str, slug: str, rules: str, **options):
        club_obj = Club.objects.filter(slug=club).first()
        if club_obj is None:
            raise CommandError(f"No club “{club}”. Use its short name.")
        try:
            data = file.read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        try:
            summary = tsh_import(
                club=club_obj, data=data, name=name, slug=slug, rules=rules, by=None
            )
        except CompetitionError as error:
            raise CommandError(f"Nothing was imported: {error.message}") from None
        competition = summary.competition
        self.stdout.write(
            f"Created {club_obj.slug}/{competition.slug}: {summary.players} players "
            f"({summary.new_players} new), {summary.rounds} rounds, {summary.games} games."
        )
        for player, number in summary.unmatched_forfeits:
            self.stderr.write(
                f"Round {number}: {player}'s forfeit loss has no opponent in the file; "
                "it was not imported."
            )
