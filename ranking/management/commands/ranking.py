"""Print a federation's season ranking as JSON or CSV (unrounded figures)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.models import Season
from ranking import exports, selectors


class Command(BaseCommand):
    help = (
        "Print the ranking of SEASON (its short name; --federation when several federations "
        "have one of that name) as JSON or CSV."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--federation", default=None, help="the federation's short name")
        parser.add_argument(
            "--on", default=None, help="the date of the ranking, YYYY-MM-DD (default: today)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        season = self._season(options["season"], options["federation"])
        on = None
        if options["on"]:
            try:
                on = date.fromisoformat(options["on"])
            except ValueError:
                raise CommandError(f"--on: “{options['on']}” is not a date (YYYY-MM-DD).") from None
        standings = selectors.season_standings(season, on)
        if options["format"] == "csv":
            self.stdout.write(exports.season_csv(standings), ending="")
        else:
            data = exports.season_data(standings)
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))

    def _season(self, slug: str, federation: str | None) -> Season:
        found = Season.objects.select_related("federation").filter(slug=slug)
        if federation is not None:
            found = found.filter(federation__slug=federation)
        seasons = list(found)
        if not seasons:
            where = f" of federation “{federation}”" if federation else ""
            raise CommandError(f"No season “{slug}”{where}.")
        if len(seasons) > 1:
            options = ", ".join(s.federation.slug for s in seasons)
            raise CommandError(
                f"“{slug}” is a season of several federations ({options}): add --federation."
            )
        return seasons[0]
