"""Restore a club from an archive written by export_club (or the club page's download)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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
            raise CommandError(
                _("Cannot read %(file)s: %(error)s.") % {"file": archive, "error": error.strerror}
            ) from None
        try:
            report = restore_club(data=data, slug=slug)
        except BackupError as error:
            raise CommandError(str(error.message)) from None
        counts = ", ".join(f"{label}: {count}" for label, count in report.rows.items())
        self.stdout.write(
            _("Restored club “%(club)s” (%(counts)s).")
            % {"club": report.club.slug, "counts": counts}
        )
        if report.shared_players:
            self.stdout.write(
                ngettext(
                    "%(count)s player with a federation number was already here; "
                    "the restored club shares them.",
                    "%(count)s players with a federation number were already here; "
                    "the restored club shares them.",
                    report.shared_players,
                )
                % {"count": report.shared_players}
            )
        if report.unknown_users:
            self.stdout.write(
                _(
                    "No account here for: %(names)s. Their entries are restored without "
                    "an author; no accounts were created."
                )
                % {"names": ", ".join(sorted(report.unknown_users))}
            )
