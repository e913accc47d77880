"""The standings table: sortable (django-tables2), one column per configured tiebreak.

django-tables2 does the sorting and the header links; the body is rendered from HTML
built once per row here, because rendering 300 rows cell by cell through the template
engine costs most of a second and the page must stay under 150 ms.

Django: django-tables2.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from clubs import numbers
from competition.core.standings import StandingRow
from competition.models import TIEBREAK_CHOICES, Competition

TIEBREAK_LABELS = dict(TIEBREAK_CHOICES)
SHORT_TIEBREAK_LABELS = {
    "spread": _("Spread"),
    "wins": _("Wins"),
    "head_to_head": _("H2H"),
    "opponents_match_points": _("Buchholz"),
    "sonneborn_berger": _("SB"),
    "relative_score": _("Rel."),
}


#: Match points are whole numbers unless a competition awards halves.
format_points = numbers.points


def _average(digits: int) -> Callable[[float | None], str]:
    return partial(numbers.decimal, places=digits)


#: A tiebreak shown other than as points: the relative score is a share near 1.
TIEBREAK_FORMATS: dict[str, Callable[[float | None], str]] = {"relative_score": _average(3)}


def tiebreak_text(name: str, value: float | None) -> str:
    """A tiebreak's value as the standings show it (page and `standings` command)."""
    return TIEBREAK_FORMATS.get(name, format_points)(value)


@dataclass
class StandingsLine:
    """A standings row as the table sorts it (by the row's values) and shows it (`html`)."""

    row: StandingRow
    html: SafeString = field(default=SafeString(""))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.row, name)


NUMBER = {"th": {"class": "text-end"}}


def short_label(full, short):
    """A column header as an abbreviation that tells its full name."""
    return lazy(lambda: format_html('<abbr title="{}">{}</abbr>', full, short), SafeString)()


class StandingsTable(tables.Table):
    # Short headers with the full name on hover, so the table fits a phone.
    rank = tables.Column(verbose_name="#", attrs=NUMBER)
    name = tables.Column(verbose_name=_("Player"))
    games = tables.Column(verbose_name=short_label(_("Games"), _("G")), attrs=NUMBER)
    match_points = tables.Column(verbose_name=short_label(_("Match points"), _("MP")), attrs=NUMBER)
    board_points = tables.Column(verbose_name=short_label(_("Board points"), _("BP")), attrs=NUMBER)
    spread = tables.Column(verbose_name=_("Spread"), attrs=NUMBER)

    class Meta:
        orderable = True
        template_name = "competition/_standings_table.html"
        attrs = {"class": "table table-sm table-striped table-hover align-middle standings columns"}

    def __init__(self, rows: list[StandingRow], *, competition: Competition, **kwargs) -> None:
        self.competition = competition
        formats: dict[str, Callable[[Any], str]] = {
            "match_points": format_points,
            "spread": numbers.signed,
        }
        extra = []
        if competition.ranking == Competition.Ranking.AVERAGE:
            extra += [
                ("average_match_points", tables.Column(verbose_name=_("Avg. MP"), attrs=NUMBER)),
                ("average_board_points", tables.Column(verbose_name=_("Avg. BP"), attrs=NUMBER)),
            ]
            formats |= {"average_match_points": _average(2), "average_board_points": _average(1)}
        for name in competition.tiebreaks or ():
            if name != "spread":
                extra.append(
                    (
                        f"tiebreak_{name}",
                        tables.Column(
                            verbose_name=SHORT_TIEBREAK_LABELS[name],
                            accessor=f"tiebreak_values__{name}",
                            attrs={"th": {"title": TIEBREAK_LABELS[name], "class": "text-end"}},
                        ),
                    )
                )
                formats[f"tiebreak_{name}"] = partial(tiebreak_text, name)
        lines = [StandingsLine(row) for row in rows]
        super().__init__(lines, extra_columns=extra, **kwargs)
        table_id = f"standings-{self.prefix or 'table'}".rstrip("-")
        # django-tables2 has no types: mypy cannot follow its own attrs here.
        self.attrs = {**self.attrs, "id": table_id}  # type: ignore[has-type]
        # On a phone the ranking's own columns show, the rest behind the table's "All
        # columns" button (templates/competition/_standings_table.html, css/bordpunt.css).
        optional = {column.name for column in self.columns} - essential_columns(competition)
        for name in optional:
            column = self.columns[name].column
            th = column.attrs.get("th", {})
            column.attrs = {
                **column.attrs,
                "th": {**th, "class": f"{th.get('class', '')} col-optional"},
            }
        player_url = reverse("player", kwargs={**competition.url_kwargs, "player_id": 0})
        player_url = player_url.removesuffix("0/")
        names = [column.name for column in self.columns]
        for line in lines:
            cells: list[str] = []
            for name in names:
                if name == "name":
                    cells.append(
                        format_html('<a href="{}{}/">{}</a>', player_url, line.player_id, line.name)
                    )
                elif name.startswith("tiebreak_"):
                    value = line.tiebreak_values.get(name.removeprefix("tiebreak_"))
                    cells.append(formats[name](value))
                else:
                    cells.append(formats.get(name, str)(getattr(line, name)))
            line.html = format_html(
                '<tr data-player="{}"{}>{}</tr>',
                line.player_id,
                "" if line.qualified else format_html(' class="text-muted"'),
                format_html_join(
                    "", '<td class="{}">{}</td>', _cell_classes(names, cells, optional)
                ),
            )


def essential_columns(competition: Competition) -> set[str]:
    """What a phone shows of the standings without asking: the place, the name and the
    points the competition ranks by (totals, or the averages per game)."""
    if competition.ranking == Competition.Ranking.AVERAGE:
        return {"rank", "name", "average_match_points", "average_board_points"}
    return {"rank", "name", "match_points", "board_points"}


def _cell_classes(names: list[str], cells: list[str], optional: set[str]):
    for name, cell in zip(names, cells, strict=True):
        css = "text-start" if name == "name" else "text-end"
        if name == "match_points":
            css += " fw-bold"
        yield (f"{css} col-optional" if name in optional else css, cell)
