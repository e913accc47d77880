"""The second player at a table enters the result on a phone (360×740, touch): their own
box comes first, "Jouw score", the opponent's beside it at the same height, and what they
typed in their own box is stored as theirs (issue 19, point 7).

Set BORDPUNT_SCREENSHOTS to a folder to keep a screenshot of the form.
"""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from games.confirmation import game_result_enter
from games.models import Game
from games.services import ResultInput
from tests.e2e.conftest import PASSWORD, table_of_players
from tests.e2e.width import assert_fits
from tests.seats import winner

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def table(django_user_model):
    """A long first name and a short second one: the labels would wrap differently."""
    return table_of_players(
        django_user_model, {"anke": "Anke van Oosterhout-Wijnbergen", "bram": "Bram"}, table=3
    )


def _phone_page(browser: Browser, live_server, username: str, game: Game):
    context = browser.new_context(viewport=PHONE, locale="nl-NL", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").click()
    page.goto(f"{live_server.url}{reverse('game_result', args=[game.pk])}")
    return context, page


def test_the_second_player_types_their_own_score_first(browser: Browser, live_server, table):
    context, page = _phone_page(browser, live_server, "bram", table)
    boxes = page.locator("#result-form .score-box")
    expect(boxes.nth(0).locator("label")).to_contain_text("Jouw score")
    expect(boxes.nth(0).locator("label")).to_contain_text("Bram")
    expect(boxes.nth(1).locator("label")).to_contain_text("Tegenstander")
    expect(boxes.nth(1).locator("label")).to_contain_text("Anke van Oosterhout")

    own, theirs = (boxes.nth(i).locator("input").bounding_box() for i in (0, 1))
    assert own is not None and theirs is not None
    assert abs(own["y"] - theirs["y"]) < 1 and abs(own["height"] - theirs["height"]) < 1
    assert own["x"] < theirs["x"]  # side by side, own on the left
    assert_fits(page)
    folder = os.environ.get("BORDPUNT_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / "own-result-form-360.png"), full_page=True)

    # The first box takes the keyboard first; the stored result stays in table order.
    boxes.nth(0).locator("input").tap()
    page.keyboard.type("412")
    page.keyboard.press("Tab")
    page.keyboard.type("388")
    page.locator("#result-form button").tap()
    expect(page.locator(".alert-success")).to_contain_text("tot Anke van Oosterhout-Wijnbergen")
    expect(page.locator("#result-status")).to_contain_text("Jouw invoer")
    game = Game.objects.get(pk=table.pk)
    assert (game.scores[0], game.scores[1], winner(game), game.claimed_by) == (388, 412, "b", 1)
    context.close()


def test_in_a_dispute_each_reads_their_own_entry_as_theirs(browser: Browser, live_server, table):
    anke = Game.objects.get(pk=table.pk).players[0].user
    entered = game_result_enter(game=table, result=ResultInput.of_pair("normal", 412, 388), by=anke)
    context, page = _phone_page(browser, live_server, "bram", entered)
    boxes = page.locator("#result-form .score-box input")
    boxes.nth(0).fill("420")
    boxes.nth(1).fill("398")
    page.locator("#result-form button").tap()
    expect(page.locator(".alert-success")).to_contain_text(
        "Jouw invoer verschilt van de invoer van Anke van Oosterhout-Wijnbergen"
    )
    expect(page.locator("#counter-result")).to_contain_text(
        "Jouw invoer: Anke van Oosterhout-Wijnbergen 398 – 420 Bram, Bram wint"
    )
    expect(page.locator("#result-status")).not_to_contain_text("tegenstander")
    context.close()
