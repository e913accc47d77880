"""The board answers a save with the new board; what is typed or tapped the moment it is
there counts. htmx wires up swapped-in content when it settles: with its default settle
delay of 20 ms a letter typed then got no preview, and a tap on *Ruilen* left htmx and
posted the whole page. The fastest hand is simulated: the next task after the swap."""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from games.moves import move_add
from tests.e2e.test_board_entry import _expected_moves, _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: In the first task after htmx swapped the page's main part in: type `text` in the field,
#: and click the button if one is named (the page's CSP allows no code as a string).
AT_ONCE_AFTER_SWAP = """([field, text, button]) => {
  document.addEventListener("htmx:afterSwap", function once(event) {
    if (event.detail.target.tagName !== "MAIN") return;
    document.removeEventListener("htmx:afterSwap", once);
    setTimeout(() => {
      const input = document.querySelector(field);
      input.value = text;
      input.dispatchEvent(new Event("input", {bubbles: true}));
      if (button) document.querySelector(button).click();
    }, 0);
  });
}"""


@pytest.fixture
def board(page: Page, live_server, paired_game):
    """The board of a game with two moves, open in the browser; the third move is typed."""
    history, _scores = _expected_moves()
    paired_game.starter = 0
    paired_game.save(update_fields=["starter"])
    for result in history[:2]:
        move_add(game=paired_game, notation=result.notation, by=None)
    _login(page, live_server)
    page.goto(f"{live_server.url}{reverse('board', args=[paired_game.pk])}")
    page.fill("#id_notation", history[2].notation)
    return history


def test_a_letter_typed_at_once_gets_its_preview(page: Page, board):
    page.evaluate(AT_ONCE_AFTER_SWAP, ["#id_notation", "8a woord", None])
    page.keyboard.press("Enter")
    expect(page.locator('#scoresheet tr[data-move="3"]')).to_be_visible()
    expect(page.locator("#preview .preview-error")).to_contain_text("Kleine letters zijn blanco's")


def test_a_tap_at_once_is_saved_by_htmx_like_any_other(page: Page, board):
    tiles = board[3].move.tiles
    posts = []
    page.on(
        "request",
        lambda request: posts.append(request) if request.method == "POST" else None,
    )
    page.evaluate(
        AT_ONCE_AFTER_SWAP, ["#id_tiles", tiles, '#exchange-form button[value="exchange"]']
    )
    page.keyboard.press("Enter")
    expect(page.locator('#scoresheet tr[data-move="4"]')).to_contain_text("ruilt 3 blokjes")
    exchange = posts[-1]
    assert f"tiles={tiles}" in exchange.post_data
    assert exchange.headers.get("hx-request") == "true"
