"""The privacy tests read the demo club: every kind of result, a duplicate evening, a
player with an account who plays in all of them ("speler")."""

import pytest

from clubs.models import Player
from tests.demo_copy import seed


@pytest.fixture
def demo(db):
    seed()


@pytest.fixture
def speler(demo) -> Player:
    """The demo's player with an account, in every competition and the duplicate."""
    return Player.objects.select_related("user").get(user__username="speler")
