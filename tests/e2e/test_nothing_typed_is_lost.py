"""The board in a real browser when a save is refused: what was typed stays in its field.

A 409 (another device saved first) shows the current board with the typed move still in
the field. A 503 (the database too busy, or at fault) leaves the page as it was, and a
message beside the form says what happened, in the server's own words; saving again
once the database is free saves the move.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.busy import database_held
from tests.e2e.test_board_entry import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.browser_errors(r"503 .*/partij/\d+/bord/")  # the database held busy, on purpose
def test_a_busy_database_keeps_the_typed_move_and_says_so(page: Page, live_server, paired_game):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    board_url = reverse("board", args=[paired_game.pk])
    _login(page, live_server)
    page.goto(f"{live_server.url}{board_url}")
    page.locator('#starter-form button[value="0"]').click()
    expect(page.locator("#move-form")).to_be_visible()

    def saved(response) -> bool:
        """The save, not the live preview that typing sends beside it."""
        return response.request.method == "POST" and response.url.endswith(board_url)

    with database_held():
        page.fill("#id_notation", "8H WOORD")
        with page.expect_response(saved) as reply:
            page.keyboard.press("Enter")
        assert reply.value.status == 503
        failed = page.locator("#save-failed")
        expect(failed).to_contain_text("Even druk")
        expect(failed).to_contain_text("Wat je typte staat er nog")
        expect(page.locator("#id_notation")).to_have_value("8H WOORD")
        # Beside the form that was sent, not at the top of a long page.
        assert page.evaluate(
            "document.getElementById('save-failed').nextElementSibling.contains("
            "document.getElementById('id_notation'))"
        )
        assert paired_game.moves.count() == 0

    page.locator("#id_notation").focus()
    page.keyboard.press("Enter")
    expect(page.locator('#scoresheet tr[data-move="1"]')).to_be_visible()
    assert paired_game.moves.count() == 1
    assert errors == []


@pytest.mark.browser_errors(r"409 .*/partij/\d+/bord/")  # the other device saved first
def test_a_move_refused_for_another_device_stays_typed(
    page: Page, live_server, paired_game, browser
):
    _login(page, live_server)
    board_url = f"{live_server.url}{reverse('board', args=[paired_game.pk])}"
    page.goto(board_url)
    page.locator('#starter-form button[value="0"]').click()
    # The starter saved before the second device opens the board: else it gets the
    # starter's form, not the move's.
    expect(page.locator("#id_notation")).to_be_visible()
    second = browser.new_context(locale="nl-NL")
    second.add_cookies(page.context.cookies())
    other = second.new_page()
    other.goto(board_url)

    page.fill("#id_notation", "8H WOORD")
    page.keyboard.press("Enter")
    expect(page.locator('#scoresheet tr[data-move="1"]')).to_be_visible()
    other.fill("#id_notation", "H8 WAAS")
    other.keyboard.press("Enter")

    expect(other.locator(".alert-danger")).to_be_visible()
    expect(other.locator('#scoresheet tr[data-move="1"]')).to_be_visible()
    expect(other.locator("#id_notation")).to_have_value("H8 WAAS")
    second.close()
