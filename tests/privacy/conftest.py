"""The privacy tests read the demo club: every kind of result, a duplicate evening, a
player with an account who plays in all of them ("speler")."""

import pytest
from django.core.management import call_command

from clubs.models import Player


class _Quiet:
    def write(self, *args, **kwargs) -> None:
        pass

    def flush(self) -> None:
        pass


@pytest.fixture
def demo(db):
    call_command("seed_demo", force=True, stdout=_Quiet())


@pytest.fixture
def speler(demo) -> Player:
    """The demo's player with an account, in every competition and the duplicate."""
    return Player.objects.select_related("user").get(user__username="speler")
