"""Every CSV file the site and its commands offer is safe to open in a spreadsheet.

The names people type (players, clubs, competitions, groups, events, seasons, the ranking's
copies of them) and the federation numbers are made hostile in the demo data: a formula, a
sign, an at, a tab or a carriage return at the start. Then every address of the crawl's list
(`tests.crawl`: the URL configuration filled from the demo data, the events of every
organiser too) is fetched as the site's administrator, who may open every page; each answer
that is a CSV file is read back, as is the CSV of every management command of ours that
offers `--format csv`. No cell may start as a formula, save a plain number, and each file
must show a name neutralised (so the hostile names reached it). A CSV added later is found
the same way: by what the site answers, not from a list here.

And every CSV is written by the one writer, `competition.spreadsheets`: no other module of
the apps uses the `csv` module's writers.
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command, get_commands, load_command_class
from django.db import models
from django.test import Client

from clubs.models import Club, HistoryEntry
from competition.models import Competition
from events.models import Season
from tests.crawl import Demo, events_of, routes_of, site_routes
from tests.demo_copy import seed

pytestmark = [pytest.mark.django_db, pytest.mark.walk]

ROOT = Path(__file__).resolve().parent.parent
#: Our packages, as the import contracts name them (pyproject.toml).
APPS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
#: The hostile starts: each name of the demo gets one, and its id after it (names are unique).
HOSTILE = ['=HYPERLINK("http://x","klik")', "+1", "-1+1", "@SUM(A1:A9)", "\tAnna", "\rBert"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: A number a spreadsheet reads as a number, whatever its sign (an unrounded percentage too).
NUMBER = re.compile(r"[+-]?[0-9]+([.,][0-9]+)?([eE][+-]?[0-9]+)?")


def _name_fields(model: type[models.Model]) -> list[str]:
    """The fields of `model` that hold a name a person typed (its author's name aside)."""
    return [
        field.attname
        for field in model._meta.concrete_fields
        if isinstance(field, models.CharField)
        and not field.choices
        and (field.name in ("name", "federation_number") or field.name.endswith("_name"))
        and not field.name.endswith("by_name")
    ]


def make_names_hostile() -> int:
    """Every name (and federation number) of every row made to start hostile; how many."""
    changed = 0
    for model in apps.get_models():
        fields = _name_fields(model)
        if model is HistoryEntry or not fields:
            continue  # the history is never changed, and its names are its authors'
        for index, pk in enumerate(
            model._default_manager.order_by("pk").values_list("pk", flat=True)
        ):
            start = HOSTILE[index % len(HOSTILE)]
            values = {}
            for name in fields:
                size = model._meta.get_field(name).max_length
                suffix = f" {pk}"
                values[name] = start[: size - len(suffix)] + suffix
            model._default_manager.filter(pk=pk).update(**values)
            changed += 1
    cache.clear()  # the pages cached under the competitions' last change
    return changed


def unsafe_cells(text: str) -> list[str]:
    """The cells of a CSV file that a spreadsheet would run as a formula."""
    header = text.split("\n", 1)[0]
    delimiter = ";" if ";" in header else ","
    return [
        cell
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        for cell in row
        if cell.startswith(FORMULA_START) and not NUMBER.fullmatch(cell)
    ]


def neutralised(text: str) -> bool:
    """Whether a hostile name shows in the file, neutralised."""
    return any(f"'{start[:6]}" in text for start in HOSTILE if not NUMBER.fullmatch(start))


def csv_commands() -> dict[str, object]:
    """Our management commands that offer `--format csv`: name -> its parser."""
    found = {}
    for name, app in get_commands().items():
        if app.split(".")[0] not in APPS:
            continue
        parser = load_command_class(app, name).create_parser("manage.py", name)
        if any(
            "--format" in action.option_strings and "csv" in (action.choices or ())
            for action in parser._actions
        ):
            found[name] = parser
    return found


@pytest.fixture(scope="module")
def csv_files(django_db_setup, django_db_blocker):
    """Every CSV file the site and the commands give with hostile names: where -> its text."""
    found: dict[str, str] = {}
    with django_db_blocker.unblock():
        seed()
        try:
            demo = Demo.read()
            assert make_names_hostile() > 50
            every = routes_of(demo, [r for r in site_routes() if not r.startswith("admin/")])
            # The events of the other organisers (the federation's played interclub): their
            # pages at their organiser's address.
            event_routes = [route for route in site_routes() if "<slug:event>" in route]
            for club in Club.objects.exclude(slug=demo.club).order_by("pk"):
                other = replace(demo, club=club.slug, events=events_of(club), competitions={})
                every.update(routes_of(other, event_routes))
            client = Client()
            client.force_login(Demo.user_of("admin"))  # staff: every club's pages
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
            # A route's addresses share a view: one address that answers 200 tells whether
            # the route gives a CSV (then every address of it is read), so the walk asks
            # each route until an address answers, not every address of every page.
            by_route: dict[str, list[str]] = {}
            for address, route in every.items():
                by_route.setdefault(route, []).append(address)
            for route, addresses in by_route.items():
                gives_csv = False
                for address in addresses:
                    response = client.get(address)
                    kind = response.get("Content-Type", "")
                    disposition = response.get("Content-Disposition", "")
                    if kind.startswith("text/csv") or disposition.rstrip('"').endswith(".csv"):
                        body = (
                            b"".join(response.streaming_content)
                            if response.streaming
                            else response.content
                        )
                        found[f"{route} ({address})"] = body.decode("utf-8-sig")
                        gives_csv = True
                    elif response.status_code == 200 and not gives_csv:
                        break  # a page, not a file: the route's other addresses are pages too
            values = {
                "competition": [
                    f"{demo.club}/{slug}"
                    for slug in Competition.objects.filter(club__slug=demo.club).values_list(
                        "slug", flat=True
                    )
                ],
                "club": [demo.club],
                "season": list(Season.objects.values_list("slug", flat=True)),
            }
            for name, parser in csv_commands().items():
                positional = [
                    action.dest
                    for action in parser._actions
                    if not action.option_strings and action.dest != "help"
                ]
                unknown = [dest for dest in positional if dest not in values]
                assert not unknown, f"manage.py {name}: no demo value for {unknown}"
                for index in range(max(len(values[dest]) for dest in positional)):
                    arguments = [values[dest][index % len(values[dest])] for dest in positional]
                    out = io.StringIO()
                    call_command(name, *arguments, format="csv", stdout=out)
                    found[f"manage.py {name} {' '.join(arguments)}"] = out.getvalue()
        finally:
            call_command("flush", interactive=False, verbosity=0)
    return found


def test_no_csv_cell_runs_as_a_formula(csv_files):
    routes = {where.split(" (")[0] for where in csv_files if not where.startswith("manage.py")}
    commands = {where.split()[1] for where in csv_files if where.startswith("manage.py")}
    # The standings, the secretary's results, a duplicate evening, an event's results file;
    # the standings, the rating list, the season ranking.
    assert len(routes) >= 4, sorted(routes)
    assert len(commands) >= 3, sorted(commands)
    unsafe = {where: cells for where, text in csv_files.items() if (cells := unsafe_cells(text))}
    assert unsafe == {}
    blind = [where for where, text in csv_files.items() if not neutralised(text)]
    assert blind == [], "no hostile name reached these files"


def test_every_csv_is_written_by_the_one_writer():
    writers = re.compile(r"\bcsv\.(writer|DictWriter)\b|from csv import .*\b(writer|DictWriter)\b")
    found = [
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if writers.search(path.read_text(encoding="utf-8"))
    ]
    assert found == ["competition/spreadsheets.py"]
