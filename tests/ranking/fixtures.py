"""A federation with a season, an interclub of two clubs with a duplicate division, and a
helper that plays an evening of it (its turns and slips as rows: the real ranking reads
them, `duplicate.selectors.evening_results`)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from clubs.models import Membership
from duplicate.models import DuplicateCompetition, Evening, Participant, Slip, Turn
from events.models import Entry, Event, Season
from tests.factories import ClubFactory, PlayerFactory, UserFactory


@pytest.fixture
def federation(db):
    return ClubFactory(name="NTSV", slug="ntsv", is_federation=True)


@pytest.fixture
def official(federation):
    user = UserFactory(username="official")
    player = PlayerFactory(name="Olga Official", user=user)
    Membership.objects.create(club=federation, player=player, role=Membership.Role.SECRETARY)
    return user


@pytest.fixture
def season(federation):
    return Season.objects.create(
        federation=federation,
        name="Seizoen 2026",
        slug="2026",
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
        gap_value=Decimal("20"),
        result_months=12,
    )


@pytest.fixture
def clubs(db):
    return ClubFactory(name="Letterkoppen", slug="letterkoppen"), ClubFactory(
        name="Woordenaars", slug="woordenaars"
    )


@pytest.fixture
def interclub(season, clubs):
    """An interclub organised by the first club, with a duplicate division and five
    players: An, Bert (club 1), Cor, Dirk (club 2), Eva (a guest)."""
    host, other = clubs
    event = Event.objects.create(
        organiser=host,
        name="Interclub Gouda",
        slug="interclub-gouda",
        kind=Event.Kind.INTERCLUB,
        date=date(2026, 3, 7),
        season=season,
    )
    division = DuplicateCompetition.objects.create(
        club=host, name="Interclub Gouda", slug="interclub-gouda-a", event=event
    )
    players = {}
    for name, club, number in [
        ("An", host, "N1"),
        ("Bert", host, "N2"),
        ("Cor", other, "N3"),
        ("Dirk", other, "N4"),
        ("Eva", None, None),
    ]:
        player = PlayerFactory(name=name, federation_number=number)
        if club:
            Membership.objects.create(club=club, player=player)
        Participant.objects.create(competition=division, player=player)
        Entry.objects.create(event=event, player=player, club=club)
        players[name] = player
    return event, division, players


def play_evening(division, number: int, day: date, points: dict) -> Evening:
    """An evening of one turn whose top is on the board, each player's slip scoring the
    points given (player -> points)."""
    evening = Evening.objects.create(competition=division, number=number, date=day)
    top = max(points.values())
    turn = Turn.objects.create(
        evening=evening,
        number=1,
        drawn="AEINRST",
        rack="AEINRST",
        top="H8 A",
        top_score=top,
        total=top,
    )
    for player, score in points.items():
        Slip.objects.create(turn=turn, player=player, text="H8 A", score=score)
    return evening
