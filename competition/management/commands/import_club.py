"""Restore a club from an archive written by export_club (or the club page's download)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from competition.services.backup import BackupError, restore_club


class Command(BaseCommand):
    help = "Restore a club from FILE.zip, as a new club (under --slug when given)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", type=Path, help="the .zip file export_club wrote")
        parser.add_argument("--slug", help="the new club's short name (default: the archive's)")

    def handle(self, *args, archive: Path, slug: str | None, **options):
        try:
            data = archive.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {archive}: {error.strerror}.") from None
        try:
            report = restore_club(data=data, slug=slug)
        except BackupError as error:
            raise CommandError(str(error.message)) from None
        counts = ", ".join(f"{label}: {count}" for label, count in report.rows.items())
        self.stdout.write(f"Restored club “{report.club.slug}” ({counts}).")
        if report.shared_players:
            self.stdout.write(
                f"{report.shared_players} players with a federation number were already here "
                "and are shared with their other clubs."
            )
        if report.unknown_users:
            names = ", ".join(sorted(report.unknown_users))
            self.stdout.write(
                f"No account here for: {names}. Their entries keep no author; "
                "create the accounts (or link them in /admin/) to manage the club."
            )
