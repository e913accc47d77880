"""Two players at one table, each with a phone: Anke enters the final score, Bram sees it
waiting on "Mijn partijen" and confirms it; the round page then shows it as confirmed."""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from games.models import Game
from tests.e2e.conftest import PASSWORD, table_of_players
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
#: Set to a folder to keep screenshots of the pages (for looking at them, not asserted).
SCREENSHOTS = os.environ.get("BORDPUNT_SCREENSHOTS", "")


@pytest.fixture
def table_of_two(django_user_model):
    return table_of_players(django_user_model, {"anke": "Anke", "bram": "Bram"}, table=4)


def _phone(browser: Browser, live_server, username: str):
    context = browser.new_context(viewport=PHONE, locale="nl-NL")
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").click()
    page.goto(f"{live_server.url}{reverse('my_games')}")
    return context, page


def _shot(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)


def test_a_player_enters_and_the_opponent_confirms_on_a_phone(
    browser: Browser, live_server, table_of_two
):
    anke_context, anke = _phone(browser, live_server, "anke")
    expect(anke.locator("#current-games")).to_contain_text("Bram")
    expect(anke.locator("#current-games")).to_contain_text("niet ingevoerd")
    _shot(anke, "my-games-360")
    anke.locator("#current-games a", has_text="Uitslag").click()
    anke.fill("#id_score_a", "412")
    anke.fill("#id_score_b", "388")
    _shot(anke, "result-enter-360")
    anke.locator("#result-form button").click()
    expect(anke.locator(".alert-success")).to_contain_text("voorlopig")
    expect(anke.locator("#result-status")).to_contain_text("wacht op bevestiging")
    _shot(anke, "result-entered-360")

    bram_context, bram = _phone(browser, live_server, "bram")
    expect(bram.locator("#current-games")).to_contain_text("bevestig de uitslag")
    # Bram sees his own score first: he lost 388-412.
    expect(bram.locator("#current-games")).to_contain_text("388 – 412")
    bram.locator("#current-games a", has_text="Uitslag").click()
    expect(bram.locator("#confirm-form")).to_contain_text("Anke heeft deze uitslag ingevoerd")
    _shot(bram, "result-confirm-360")
    bram.locator("#confirm-form button").click()
    expect(bram.locator(".alert-success")).to_contain_text("Uitslag bevestigd.")
    expect(bram.locator("#result-status")).to_contain_text("bevestigd")
    assert_fits(bram)

    game = Game.objects.get(pk=table_of_two.pk)
    assert (game.scores[0], game.scores[1], game.confirmation) == (412, 388, "confirmed")
    anke.goto(f"{live_server.url}{game.round.get_absolute_url()}")
    expect(anke.locator("#pairings")).to_contain_text("412 – 388")
    expect(anke.locator("#pairings .provisional")).to_have_count(0)
    anke_context.close()
    bram_context.close()
