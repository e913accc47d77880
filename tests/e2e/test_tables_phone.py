"""A table of 4 on a phone (360 px): a player enters the table's result, another confirms
it, and the result page, the round page and the player's history fit without sideways
scroll."""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from competition.models import Competition
from games.models import Confirmation, Game
from tests.e2e.conftest import PASSWORD, table_of_players
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
NAMES = {"anke": "Anke Langenaam-de Vries", "bram": "Bram", "cor": "Cor", "dien": "Dien"}


@pytest.fixture
def foursome(django_user_model):
    return table_of_players(django_user_model, NAMES, table=1, rules=Competition.Rules.STANDARD)


def login(page: Page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    expect(page.locator("nav")).to_contain_text(username)


def test_a_foursome_on_a_phone(browser, live_server, foursome):
    url = f"{live_server.url}{reverse('game_result', kwargs={'game_id': foursome.pk})}"
    bram = browser.new_context(viewport=PHONE).new_page()
    login(bram, live_server, "bram")
    bram.goto(url)
    assert_fits(bram)
    for name, score in zip(
        ("score_a", "score_b", "score_c", "score_d"), (300, 412, 290, 250), strict=True
    ):
        bram.fill(f"[name={name}]", str(score))
    bram.locator("#result-form button").click()
    expect(bram.locator("#seat-stands")).to_contain_text("nog niet bevestigd")
    assert_fits(bram)

    cor = browser.new_context(viewport=PHONE).new_page()
    login(cor, live_server, "cor")
    cor.goto(url)
    expect(cor.locator("#seat-stands li[data-stand=entered]")).to_contain_text("Bram")
    cor.locator("#confirm-form button").click()
    expect(cor.locator("#seat-stands li[data-stand=confirmed]")).to_contain_text("Cor")
    assert_fits(cor)
    game = Game.objects.with_seats().get(pk=foursome.pk)
    assert game.confirmation == Confirmation.PROVISIONAL
    assert [seat.confirmed for seat in game.seat_list] == [False, True, True, False]

    competition = foursome.round.competition
    for path in (
        reverse("round", kwargs={**competition.url_kwargs, "number": 1}),
        reverse(
            "player_history",
            kwargs={"club": competition.club.slug, "player_id": game.seat_list[0].player_id},
        ),
        reverse(
            "player", kwargs={**competition.url_kwargs, "player_id": game.seat_list[0].player_id}
        ),
    ):
        cor.goto(f"{live_server.url}{path}")
        assert_fits(cor)
