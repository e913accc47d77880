"""Reads of the event pages, each in a fixed number of queries.

Django: queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404

from clubs.models import Club, Player
from events.divisions import Division, divisions_of
from events.models import Entry, Event


def event_get(club: Club | str, slug: str) -> Event:
    """The event of organiser `club` (a club or its short name) with this short name, or 404."""
    organiser = {"organiser": club} if isinstance(club, Club) else {"organiser__slug": club}
    found = (
        Event.objects.select_related("organiser", "season").filter(slug=slug, **organiser).first()
    )
    if found is None:
        raise Http404("No such event.")
    return found


@dataclass(frozen=True)
class DivisionEntries:
    """A division with its players, each with the club their entry is for (None: guest)."""

    division: Division
    players: list[tuple[Player, Entry | None]]


def entries_by_player(event: Event) -> dict[int, Entry]:
    """The event's entries by person, with their clubs: one query."""
    return {
        entry.player_id: entry
        for entry in Entry.objects.filter(event=event).select_related("player", "club")
    }


def event_divisions(event: Event, entries: dict[int, Entry]) -> list[DivisionEntries]:
    """Every division of the event with its players by name and their entries: two
    queries per kind of division."""
    found = []
    for division in divisions_of(event, with_players=True):
        rows: list[Any] = list(getattr(division.competition, division.kind.players).all())
        players = sorted(
            ((row.player, entries.get(row.player_id)) for row in rows),
            key=lambda pair: (pair[0].name.casefold(), pair[0].pk),
        )
        found.append(DivisionEntries(division, players))
    return found


def division_get(event: Event, slug: str) -> Division:
    """The event's division with this short name (of any kind), or 404."""
    for division in divisions_of(event):
        if division.competition.slug == slug:
            return division
    raise Http404("No such division.")
