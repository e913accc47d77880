"""The board in Chromium (issue 19, points 5, 6 and 8): a whole game with refusals logs no
console error; every special move is typed in the move field in at most 3 keys beyond its
letters, and the board's squares are reached with the arrow keys (issue 52); on a phone
(360×740) a refusal stands right under the field that caused it, the large board is the
default, and every square and control is at least 44×44 px."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

import rules
from tests.e2e.guard import cancelled
from tests.e2e.test_board_entry import _enter, _expected_moves, _login
from tests.e2e.test_board_phone import PHONE
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _watch(page: Page) -> list[str]:
    """Every console error, uncaught page error and failed request of the page (a request
    the page cancelled is not a failure, as for the guard)."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else 0)
    page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    page.on(
        "requestfailed",
        lambda request: None if cancelled(request) else problems.append(f"failed: {request.url}"),
    )
    return problems


def _board_url(live_server, game) -> str:
    return f"{live_server.url}{reverse('board', args=[game.pk])}"


def _refuse(page: Page, selector: str, typed: str, expected: str) -> None:
    """Enter `typed` in the field and wait for its refusal under that field's own form
    (the refusal before it, under another form, must not count)."""
    page.locator(selector).fill(typed)
    page.locator(selector).press("Enter")
    form = page.locator(selector).evaluate("(field) => field.form.id")
    expect(page.locator(f"#{form} #move-error")).to_contain_text(expected)
    page.locator(selector).fill("")


def test_a_whole_game_with_refusals_logs_no_console_error(page: Page, live_server, paired_game):
    history, final_scores = _expected_moves()
    problems = _watch(page)
    _login(page, live_server)
    page.goto(_board_url(live_server, paired_game))
    page.locator('#starter-form button[value="0"]').click()
    plays = 0
    for number, result in enumerate(history, 1):
        if number in (1, 6):  # refusals of every kind first: typed, exchange, swap, challenge
            if number == 1:
                _refuse(page, "#id_notation", "8A WOORD", "H8")
            _refuse(page, "#id_notation", "?x", "?+")
            _refuse(page, "#id_notation", "*Z9", "Z9")
            _refuse(page, "#id_tiles", "ZZZ", "Z")
            _refuse(page, "#id_squares", "A1", "A1")
        by_clicks = isinstance(result.move, rules.Play) and plays % 2 == 0
        plays += isinstance(result.move, rules.Play)
        _enter(page, result, by_clicks)
        expect(page.locator(f'#scoresheet tr[data-move="{number}"]')).to_be_visible()
    expect(page.locator("#game-over")).to_contain_text(f"{final_scores[0]} – {final_scores[1]}")
    page.locator("#undo").click()
    expect(page.locator("#scoresheet tr[data-move]")).to_have_count(len(history) - 1)
    page.wait_for_load_state("networkidle")
    assert problems == []


def _type(page: Page, text: str) -> int:
    """Type `text` key by key, then Enter; the number of keys pressed."""
    for key in text:
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    return len(text) + 1


#: A Gouds 8 game by keyboard: what is typed, its letters (squares count as letters), and
#: how the scoresheet says it.
TYPED = [
    ("8H ZOEn", "8HZOEn", "8H ZOEn"),
    ("?+", "", "bezwaar: woord goed"),
    ("-", "", "past"),
    ("-ABC", "ABC", "ruilt 3 blokjes: ABC"),
    ("*K8", "K8", "blanco op K8 gewisseld"),
    ("L7 AS", "L7AS", "L7 AS"),
    ("?-", "", "bezwaar: woord eraf"),
    ("!", "", "vlag gevallen"),
]


def test_every_special_move_by_keyboard_in_at_most_3_keys_beyond_its_letters(
    page: Page, live_server, paired_game
):
    paired_game.starter = 0
    paired_game.save(update_fields=["starter"])
    problems = _watch(page)
    _login(page, live_server)
    page.goto(_board_url(live_server, paired_game))
    expect(page.locator("#id_notation")).to_be_focused()
    # The short forms are documented on the page, next to the field.
    page.locator("#notation-legend summary").click()
    for typed in ("-ABC", "*H8", "?+", "?-", "!"):
        expect(page.locator("#notation-legend")).to_contain_text(typed)
    # The board is one tab stop (H8); the arrow keys move on it, Enter chooses the start.
    page.locator('.sq[data-square="H8"]').focus()
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft"):
        page.keyboard.press(key)
    expect(page.locator('.sq[data-square="H9"]')).to_be_focused()
    expect(page.locator('.sq[data-square="H9"]')).to_have_attribute("tabindex", "0")
    page.keyboard.press("Enter")
    expect(page.locator("#id_start")).to_have_value("H9")
    expect(page.locator("#id_letters")).to_be_focused()
    page.locator("#id_start").fill("")
    page.locator("#id_notation").focus()
    for number, (typed, letters, words) in enumerate(TYPED, 1):
        keys = _type(page, typed)
        row = page.locator(f'#scoresheet tr[data-move="{number}"]')
        expect(row).to_contain_text(words)
        assert keys - len(letters) <= 3, (typed, keys)
        if number < len(TYPED):
            expect(page.locator("#id_notation")).to_be_focused()
    expect(page.locator("#game-over")).to_contain_text("vlag gevallen")
    assert problems == []


def _refusal_near(page: Page, field: str) -> dict:
    return page.evaluate(
        """(field) => {
          const box = document.getElementById("move-error").getBoundingClientRect();
          const input = document.querySelector(field).getBoundingClientRect();
          return {top: box.top, bottom: box.bottom, height: innerHeight,
                  gap: box.top - input.bottom, focused: document.activeElement.matches(field)};
        }""",
        field,
    )


def test_on_a_phone_a_refusal_stands_under_its_field(live_server, paired_game, browser, page):
    _login(page, live_server)
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="nl-NL")
    phone.add_cookies(page.context.cookies())
    touch = phone.new_page()
    problems = _watch(touch)
    touch.goto(_board_url(live_server, paired_game))
    touch.locator('#starter-form button[value="0"]').tap()
    for form, field, typed, expected in [
        ("#move-form", "#id_notation", "8A WOORD", "H8"),
        ("#move-form", "#id_notation", "?x", "?+"),
        ("#exchange-form", "#id_tiles", "ZZZ", "Z"),
        ("#swap-form", "#id_squares", "A1", "A1"),
    ]:
        touch.locator(field).tap()
        touch.locator(field).fill(typed)
        touch.keyboard.press("Enter")
        # Once the page has settled and scrolled (board.js marks it shown), not before.
        refusal = touch.locator(f"{form} #move-error[data-shown]")
        expect(refusal).to_contain_text(expected)
        expect(refusal).to_be_in_viewport(ratio=1)
        near = _refusal_near(touch, field)
        assert near["top"] >= 0 and near["bottom"] <= near["height"], (field, near)
        assert 0 <= near["gap"] <= 48, (field, near)
        assert near["focused"], field
        expect(touch.locator(field)).to_have_value(typed)
    # A refused challenge (nothing to challenge yet) stands under the challenge buttons.
    touch.locator('button[value="challenge_upheld"]').tap()
    refusal = touch.locator("#turn-form + #move-error[data-shown]")
    expect(refusal).to_contain_text("bezwaar")
    expect(refusal).to_be_in_viewport(ratio=1)
    near = _refusal_near(touch, "#turn-form")
    assert near["top"] >= 0 and near["bottom"] <= near["height"], near
    assert 0 <= near["gap"] <= 48, near
    expect(touch.locator("#scoresheet tr[data-move]")).to_have_count(0)
    assert problems == []
    phone.close()


CONTROLS = """
() => [...document.querySelectorAll(
    "#board-page a, #board-page button, #board-page input:not([type=hidden]), "
    + "#board-page select, #board-page summary")]
  .filter((element) => element.getClientRects().length && !element.closest(".board"))
  .map((element) => {
    const box = element.getBoundingClientRect();
    return {name: element.id || element.name || element.textContent.trim().slice(0, 30),
            width: box.width, height: box.height};
  })
  .filter((box) => box.width < 44 || box.height < 44)
"""

SQUARES = """
() => [...document.querySelectorAll(".sq")].map((square) => square.getBoundingClientRect())
  .filter((box) => box.width < 44 || box.height < 44).length
"""

#: Whether the chosen option of the direction select shows whole (measured in its font).
SELECT_READS_FULLY = """
() => {
  const select = document.getElementById("id_direction");
  const style = getComputedStyle(select);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = select.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  return [...select.options].map((option) => [option.text, context.measureText(option.text)
    .width <= room]);
}
"""


def test_on_a_phone_every_square_and_control_is_44_px(live_server, paired_game, browser, page):
    history, _scores = _expected_moves()
    _login(page, live_server)
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="nl-NL")
    phone.add_cookies(page.context.cookies())
    touch = phone.new_page()
    touch.goto(_board_url(live_server, paired_game))
    assert touch.evaluate(CONTROLS) == []  # the starter buttons
    touch.locator('#starter-form button[value="0"]').tap()
    touch.locator("#id_notation").fill(history[0].notation)
    touch.keyboard.press("Enter")
    expect(touch.locator('#scoresheet tr[data-move="1"]')).to_be_visible()
    # The large board is the default for entering moves on a phone.
    expect(touch.locator("#board-frame")).to_have_class(re.compile(r"\bzoomed\b"))
    expect(touch.locator("#zoom")).to_have_attribute("aria-pressed", "true")
    assert touch.evaluate(SQUARES) == 0
    assert_fits(touch)
    touch.locator("#notation-legend summary").tap()
    touch.locator("#scoresheet summary").first.tap()
    assert touch.evaluate(CONTROLS) == []
    assert all(fits for _text, fits in touch.evaluate(SELECT_READS_FULLY))
    # The small board is one tap away, and stays chosen.
    touch.locator("#zoom").tap()
    expect(touch.locator("#zoom")).to_have_attribute("aria-pressed", "false")
    touch.reload()
    expect(touch.locator("#board-frame")).not_to_have_class(re.compile(r"\bzoomed\b"))
    phone.close()
