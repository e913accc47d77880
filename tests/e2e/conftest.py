"""Real-browser tests: Playwright driving Debian's Chromium against a live server.

Never a downloaded browser. Without /usr/bin/chromium the tests skip with the reason on a
developer machine, and fail in CI (CI=true), where .ci/run installs it.
"""

import os
from pathlib import Path

import pytest

from clubs.models import Club, Membership, Player
from competition.models import Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from games.services import PairingSpec

#: The secretary's password in the browser tests that log in.
PASSWORD = "geheim-genoeg-123"

CHROMIUM = Path(os.environ.get("BORDPUNT_CHROMIUM", "/usr/bin/chromium"))

# Playwright's sync API runs an event loop in the test thread; the test's own database
# calls (fixtures, asserts) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    # In CI a missing browser must fail the run: the launch below then fails loudly.
    if CHROMIUM.exists() or os.environ.get("CI", "").lower() == "true":
        return
    skip = pytest.mark.skip(
        reason=f"Chromium not found at {CHROMIUM}; install Debian's chromium package"
    )
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "nl-NL", "viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def paired_game(django_user_model):
    """A published round of a Gouds 8 club competition with one game, Anke against Bram;
    the club's secretary logs in as "secretaris" with PASSWORD."""
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    user = django_user_model.objects.create_user("secretaris", password=PASSWORD)
    secretary = Player.objects.create(name="Sietske Secretaris", user=user)
    Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
    competition = Competition.objects.create(
        club=club, name="Clubcompetitie", slug="clubcompetitie", rules=Competition.Rules.GOUDS_8
    )
    anke, bram = Player.objects.create(name="Anke"), Player.objects.create(name="Bram")
    for player in (anke, bram):
        entrant_add(competition=competition, player=player)
    round_obj = Round.objects.create(
        competition=competition, number=1, status=Round.Status.PUBLISHED
    )
    (game,) = round_set_pairings(
        round=round_obj, pairings=[PairingSpec(player_a=anke.pk, player_b=bram.pk, table=1)]
    )
    return game
