"""The kinds of division an event can have, as the apps above events/ register them.

A division is a competition (paired: `competition.Competition`; duplicate:
`duplicate.DuplicateCompetition`) whose `event` points to the event. events/ lies below
those apps and imports neither, so each registers here, in its `AppConfig.ready`, what
events/ needs of it: the name of the relation from the event to its divisions and from a
division to its players' rows, how a person is entered in a division and taken out again
(through that app's own services), and the page that makes a new division in an event.
`clubs.slugs.register_competition_slugs` is the same arrangement for short names.

Django: only the registry; the services are the registering apps'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise


@dataclass(frozen=True)
class DivisionKind:
    """One kind of division. `enter(division=, player=, by=)` and
    `withdraw(division=, player=, by=)` raise the app's own error (a `ValueError` with a
    translated `message`) when they refuse; `withdraw` refuses a player who has results."""

    code: str  # "paired", "duplicate": a division's kind in a form's choice
    label: Promise  # shown with each division
    divisions: str  # the event's relation to its divisions of this kind
    players: str  # a division's relation to its players' rows (each has `player_id`)
    enter: Callable[..., Any]
    withdraw: Callable[..., Any]
    create_url: str  # url name of the page that makes one (kwargs: club, event)
    page_url: str  # url name of a division's public page (kwargs: club, competition)


_KINDS: dict[str, DivisionKind] = {}


def register_division_kind(kind: DivisionKind) -> None:
    _KINDS[kind.code] = kind


def division_kinds() -> Iterator[DivisionKind]:
    return iter(_KINDS.values())


def division_kind(code: str) -> DivisionKind:
    return _KINDS[code]


@dataclass(frozen=True)
class Division:
    """A division of an event with its kind: what the event's pages and services handle."""

    kind: DivisionKind
    competition: Any

    @property
    def key(self) -> str:
        """How a form names it: "paired-12", "duplicate-3"."""
        return f"{self.kind.code}-{self.competition.pk}"

    @property
    def name(self) -> str:
        return str(self.competition.name)


def divisions_of(event: Any, *, with_players: bool = False) -> list[Division]:
    """The event's divisions, every kind, by name; one query per kind (two with their
    players' rows and names)."""
    found: list[Division] = []
    for kind in division_kinds():
        rows = getattr(event, kind.divisions).select_related("club").order_by("name", "pk")
        if with_players:
            rows = rows.prefetch_related(f"{kind.players}__player")
        found += [Division(kind, competition) for competition in rows]
    return sorted(found, key=lambda division: (division.name.casefold(), division.key))
