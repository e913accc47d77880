"""Duplicate tests play in a duplicate competition (`duplicate.DuplicateCompetition`)."""

import pytest

from clubs.models import Membership
from duplicate.models import DuplicateCompetition, Participant
from tests.factories import PlayerFactory


@pytest.fixture
def competition(club):
    return DuplicateCompetition.objects.create(
        club=club, name="Duplicate", slug="duplicate", rules="standard"
    )


@pytest.fixture
def four_entrants(competition):
    """Anna, Bert, Cor and Dirk, participants of the duplicate competition."""
    players = [PlayerFactory(name=name) for name in ["Anna", "Bert", "Cor", "Dirk"]]
    for player in players:
        Membership.objects.get_or_create(club=competition.club, player=player)
        Participant.objects.create(competition=competition, player=player)
    return players
