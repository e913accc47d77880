"""Import an event's results file into a season of the federation's ranking, as the
officials' page does: the same checks, all or nothing."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events.models import Season
from ranking.files_import import ResultsImportError, results_import_apply, results_import_plan


class Command(BaseCommand):
    help = "Import an event's results file (JSON) into a season of the federation's ranking."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path, help="the results file exported from the event")
        parser.add_argument("--season", required=True, help="the season's short name")
        parser.add_argument(
            "--federation", help="the federation's short name, when seasons of two share a name"
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="say what the file holds; import nothing"
        )

    def handle(
        self, *args, file: Path, season: str, federation: str | None, dry_run: bool, **options
    ):
        chosen = self._season(season, federation)
        data = self._read(file)
        plan = results_import_plan(data=data, season=chosen)
        if plan.file is not None:
            self.stdout.write(
                _("%(name)s (%(date)s): %(games)s, %(results)s; %(matched)s known, %(new)s new.")
                % {
                    "name": plan.file.name,
                    "date": plan.file.date.isoformat(),
                    "games": ngettext("%(count)s game", "%(count)s games", len(plan.file.games))
                    % {"count": len(plan.file.games)},
                    "results": ngettext("%(count)s result", "%(count)s results", plan.file.results)
                    % {"count": plan.file.results},
                    "matched": len(plan.matched),
                    "new": len(plan.new),
                }
            )
        if plan.problems:
            raise CommandError(
                _("Nothing was imported:") + "\n" + "\n".join(f"- {p}" for p in plan.problems)
            )
        if dry_run:
            self.stdout.write(_("A dry run: nothing was imported."))
            return
        try:
            summary = results_import_apply(data=data, season=chosen, by=None)
        except ResultsImportError as error:
            raise CommandError(
                _("Nothing was imported:") + "\n" + "\n".join(f"- {e}" for e in error.errors)
            ) from None
        self.stdout.write(
            _("Imported into %(season)s: %(results)s in %(games)s, %(new)s new persons.")
            % {
                "season": chosen.name,
                "results": summary.results,
                "games": summary.games,
                "new": summary.new_persons,
            }
        )

    def _season(self, slug: str, federation: str | None) -> Season:
        seasons = Season.objects.filter(slug=slug).select_related("federation")
        if federation:
            seasons = seasons.filter(federation__slug=federation)
        found = list(seasons[:2])
        if not found:
            known = ", ".join(
                Season.objects.order_by("federation__slug", "slug").values_list("slug", flat=True)[
                    :20
                ]
            )
            raise CommandError(
                _("There is no season “%(season)s”%(of)s. Seasons: %(known)s.")
                % {
                    "season": slug,
                    "of": _(" of %(federation)s") % {"federation": federation}
                    if federation
                    else "",
                    "known": known or _("none yet"),
                }
            )
        if len(found) > 1:
            raise CommandError(
                _(
                    "Seasons of several federations are called “%(season)s”; "
                    "name one with --federation."
                )
                % {"season": slug}
            )
        return found[0]

    def _read(self, file: Path) -> bytes:
        try:
            size = file.stat().st_size
            if size > settings.UPLOAD_MAX_SIZE:
                raise CommandError(
                    _("%(file)s is larger than a results file can be (%(size)s bytes).")
                    % {"file": file, "size": size}
                )
            return file.read_bytes()
        except OSError as error:
            raise CommandError(
                _("%(file)s cannot be read: %(reason)s") % {"file": file, "reason": error.strerror}
            ) from None
