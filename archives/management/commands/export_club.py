"""Write a whole club (players, competitions, results, moves, history) as a ZIP archive."""

import os
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archives.backup import club_archive
from clubs.models import Club


class Command(BaseCommand):
    help = "Export CLUB (its short name) with everything in it to a ZIP archive (--output)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("club", help="the club's short name (slug)")
        parser.add_argument("--output", type=Path, required=True, help="the .zip file to write")

    def handle(self, *args, club: str, output: Path, **options):
        club_obj = Club.objects.filter(slug=club).first()
        if club_obj is None:
            raise CommandError(_("No club “%(club)s”. Use its short name.") % {"club": club})
        data = club_archive(club=club_obj)
        # Write beside the target and rename: a nightly backup never leaves half a file.
        target = output.resolve()
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.stderr.write(
            _("Wrote %(file)s (%(size)s bytes).") % {"file": output, "size": len(data)}
        )
