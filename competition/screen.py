"""What the club-room screen shows: tonight's round and the standings, cut into panels that
fit a beamer at a size readable across the room.

Tonight's round is the latest published one: a draft never appears, whoever looks.
Reads in a fixed number of queries, however many players.

Django: reads through the selectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from competition import selectors
from competition.models import Competition, Round

#: Rows per panel: at the screen's type size about twelve lines fill a 16:9 picture.
ROWS_PER_PANEL = 12


PanelKind = Literal["pairings", "results", "standings"]


@dataclass(frozen=True)
class Panel:
    key: str  # stable across refreshes, so the cycle stays where it was
    kind: PanelKind
    rows: Sequence[Any]
    group: str = ""
    page: int = 1
    pages: int = 1


@dataclass(frozen=True)
class Screen:
    competition: Competition
    round: Round | None
    panels: list[Panel]


def _chunks(
    kind: PanelKind, rows: Sequence[Any], *, group: str = "", prefix: str = ""
) -> list[Panel]:
    pages = max(1, -(-len(rows) // ROWS_PER_PANEL))
    return [
        Panel(
            key=f"{kind}-{prefix}{page}",
            kind=kind,
            rows=rows[(page - 1) * ROWS_PER_PANEL : page * ROWS_PER_PANEL],
            group=group,
            page=page,
            pages=pages,
        )
        for page in range(1, pages + 1)
        if rows or page == 1
    ]


def latest_published_round(competition: Competition) -> Round | None:
    return (
        Round.objects.published()
        .filter(competition=competition)
        .select_related("competition__club")
        .order_by("-number")
        .first()
    )


def screen_get(competition: Competition) -> Screen:
    round = latest_published_round(competition)
    panels: list[Panel] = []
    if round is not None:
        # The byes last: on the wall they are a footnote to the tables.
        games = sorted(selectors.round_games(round), key=lambda game: game.is_bye)
        panels += _chunks("pairings", games)
        panels += _chunks("results", [game for game in games if not game.is_bye])
    view = selectors.standings_get(competition)
    for index, (group, rows) in enumerate(view.groups.items()):
        panels += _chunks("standings", rows, group=group, prefix=f"{index}-")
    return Screen(competition=competition, round=round, panels=panels)
