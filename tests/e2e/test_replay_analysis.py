"""A player opens a replayed game, asks for the analysis, and looks at a best play on the
board, on a phone."""

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.models import Club, Player
from competition.models import Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from games.moves import moves_import_gcg
from tests.seats import pair_spec

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO_GAME = Path(__file__).resolve().parents[2] / "games" / "demo" / "demo-2.gcg"


@pytest.fixture
def replayed_game():
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    competition = Competition.objects.create(
        club=club, name="Clubcompetitie", slug="clubcompetitie", rules=Competition.Rules.GOUDS_8
    )
    carla, dirk = Player.objects.create(name="Carla"), Player.objects.create(name="Dirk")
    for player in (carla, dirk):
        entrant_add(competition=competition, player=player)
    round_obj = Round.objects.create(
        competition=competition, number=1, status=Round.Status.PUBLISHED
    )
    (game,) = round_set_pairings(
        round=round_obj, pairings=[pair_spec(player_a=carla.pk, player_b=dirk.pk, table=1)]
    )
    moves_import_gcg(game=game, data=DEMO_GAME.read_bytes(), by=None)
    return game


def test_a_player_asks_for_the_analysis_and_sees_a_best_play(
    page: Page, live_server, replayed_game
):
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(f"{live_server.url}{reverse('replay', args=[replayed_game.pk])}")
    expect(page.locator("#missed-totals")).to_have_count(0)  # only when asked
    page.locator("#analyse").click()
    totals = page.locator("#missed-totals li")
    # The analysis generates every turn's plays: seconds on a busy CI machine. (Its speed is
    # measured in benchmarks/, not here.)
    expect(totals).to_have_count(2, timeout=30_000)
    expect(totals.first).to_contain_text("Carla:")
    expect(totals.first).to_contain_text("punten laten liggen")
    # The table replaced the button in place: still the replay page.
    assert page.url.endswith(reverse("replay", args=[replayed_game.pk]))
    page.locator('#analysis tr[data-move="3"] a').click()
    expect(page.locator("#shown-best")).to_contain_text("Zet 3 (Carla)")
    expect(page.locator(".sq.preview").first).to_be_visible()
    expect(page.locator('#analysis tr[data-move="3"]')).to_have_class("table-warning")
