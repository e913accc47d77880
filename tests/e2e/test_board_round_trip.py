"""A move saved on the board screen is one request: the answer is the new board. The
address stays the board's, so a reload reads the board and never posts the move again."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from games.models import Move
from tests.e2e.test_board_entry import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_save_is_one_request_and_a_reload_posts_nothing(page: Page, live_server, paired_game):
    _login(page, live_server)
    board_url = f"{live_server.url}{reverse('board', args=[paired_game.pk])}"
    page.goto(board_url)
    page.locator('#starter-form button[value="0"]').click()
    expect(page.locator("#move-form")).to_be_visible()

    requests: list[tuple[str, str]] = []
    page.on("request", lambda request: requests.append((request.method, request.url)))
    page.fill("#id_notation", "8H WOORD")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == board_url) as save:
        page.keyboard.press("Enter")
    assert save.value.status == 200
    row = page.locator('#scoresheet tr[data-move="1"]')
    expect(row).to_contain_text("8H WOORD")
    expect(page.locator("#id_notation")).to_be_focused()
    assert page.url == board_url
    board_requests = [(m, u) for m, u in requests if u == board_url]
    assert board_requests == [("POST", board_url)]  # no redirect, no second GET

    page.reload()
    expect(page.locator('#scoresheet tr[data-move="1"]')).to_contain_text("8H WOORD")
    assert Move.objects.filter(game=paired_game).count() == 1

    # The next move goes from the board the answer brought (its version is the new one).
    page.fill("#id_notation", "-")
    page.keyboard.press("Enter")
    expect(page.locator('#scoresheet tr[data-move="2"]')).to_be_visible()
    assert Move.objects.filter(game=paired_game).count() == 2
    expect(page).to_have_url(re.compile(r"/partij/\d+/bord/$"))
