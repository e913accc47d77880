"""Restore a club from an archive written by export_club (or the club page's download)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from archives.backup import BackupError, archive_file_bytes, restore_club


class Command(BaseCommand):
    help = "Restore a club from FILE.zip, as a new club (under --slug when given)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", type=Path, help="the .zip file export_club wrote")
        parser.add_argument("--slug", help="the new club's short name (default: the archive's)")

    def handle(self, *args, archive: Path, slug: str | None, **options):
        try:
            report = restore_club(data=archive_file_bytes(archive), slug=slug)
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
        self.stdout.write(
            _(
                "No account was linked or created: restored players have no login, and the "
                "history keeps its authors by name."
            )
        )
        if report.secretary_names:
            self.stdout.write(
                _(
                    "Secretaries in the archive, restored as members: %(names)s. Make them "
                    "secretary again in the admin, then invite them to make an account "
                    "(club page, Uitnodigen)."
                )
                % {"names": ", ".join(report.secretary_names)}
            )
