"""The standings table: sortable, with one column per configured tiebreak."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from competition.models import TIEBREAK_CHOICES, Competition

TIEBREAK_LABELS = dict(TIEBREAK_CHOICES)
SHORT_TIEBREAK_LABELS = {
    "spread": _("Spread"),
    "wins": _("Wins"),
    "head_to_head": _("H2H"),
    "opponents_match_points": _("Buchholz"),
    "sonneborn_berger": _("SB"),
}


def format_points(value: float) -> str:
    """Match points are whole numbers unless a competition awards halves."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


class PointsColumn(tables.Column):
    def render(self, value: float) -> str:
        return format_points(value)


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "text-end"}})
    name = tables.Column(verbose_name=_("Player"))
    games = tables.Column(verbose_name=_("Games"), attrs={"td": {"class": "text-end"}})
    match_points = PointsColumn(
        verbose_name=_("Match points"), attrs={"td": {"class": "text-end fw-bold"}}
    )
    board_points = tables.Column(
        verbose_name=_("Board points"), attrs={"td": {"class": "text-end"}}
    )
    spread = tables.Column(verbose_name=_("Spread"), attrs={"td": {"class": "text-end"}})

    class Meta:
        orderable = True
        attrs = {"class": "table table-sm table-striped table-hover align-middle standings"}
        row_attrs = {"data-player": lambda record: record.player_id}

    def __init__(self, rows, *, competition: Competition, **kwargs) -> None:
        self.competition = competition
        extra = []
        if competition.ranking == Competition.Ranking.AVERAGE:
            extra += [
                (
                    "average_match_points",
                    tables.Column(
                        verbose_name=_("Avg. MP"),
                        attrs={"td": {"class": "text-end"}},
                        accessor="average_match_points",
                    ),
                ),
                (
                    "average_board_points",
                    tables.Column(
                        verbose_name=_("Avg. BP"),
                        attrs={"td": {"class": "text-end"}},
                        accessor="average_board_points",
                    ),
                ),
            ]
        for name in competition.tiebreaks or ():
            if name != "spread":
                extra.append(
                    (
                        f"tiebreak_{name}",
                        PointsColumn(
                            verbose_name=SHORT_TIEBREAK_LABELS[name],
                            accessor=f"tiebreak_values__{name}",
                            attrs={
                                "td": {"class": "text-end"},
                                "th": {"title": TIEBREAK_LABELS[name]},
                            },
                        ),
                    )
                )
        super().__init__(rows, extra_columns=extra, **kwargs)

    def render_name(self, record) -> str:
        url = reverse(
            "player",
            kwargs={**self.competition.url_kwargs, "player_id": record.player_id},
        )
        return format_html('<a href="{}">{}</a>', url, record.name)

    def render_average_match_points(self, value: float | None) -> str:
        return "" if value is None else f"{value:.2f}"

    def render_average_board_points(self, value: float | None) -> str:
        return "" if value is None else f"{value:.1f}"
