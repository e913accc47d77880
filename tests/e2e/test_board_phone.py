"""The board on a phone (360×740) and a laptop (1280×800): nothing scrolls sideways, the
squares are big enough to tap (the large board the default on a phone), the page speaks
Dutch, and a screen reader finds rows, cells and blanks. A whole Gouds 8 game is entered
on a phone-sized screen by tapping."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

import rules
from games.moves import move_add
from tests.e2e.test_board_entry import _expected_moves, _login
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}

#: Sentences of the engine and the page that must never reach the Dutch screen.
ENGLISH = re.compile(
    r"\b(the|is not|cannot|blank|tiles?|points|exchange[sd]?|passe[sd]|challenge|"
    r"flag fall|gouds8|King of the Hill)\b"
)


def _contrast(foreground: list[float], background: list[float]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (0–255 components)."""

    def luminance(rgb: list[float]) -> float:
        channels = [c / 255 for c in rgb[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


PREMIUM_COLOURS = """
() => Object.fromEntries(["tw", "dw", "tl", "dl"].map((premium) => {
  const label = document.querySelector(`.sq.${premium}:not(.tile) .prem`);
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const style = getComputedStyle(label);
  return [premium, {
    text: rgb(style.color),
    background: rgb(getComputedStyle(label.parentElement).backgroundColor),
    opacity: Number(style.opacity),
  }];
}))
"""


def _square_width(page: Page, name: str) -> float:
    return page.locator(f'.sq[data-square="{name}"]').bounding_box()["width"]


def _in_viewport(page: Page, name: str) -> bool:
    """The square is wholly on the screen (its size as the test set it: a phone's `innerWidth`
    and `innerHeight` grow with a page wider than the screen, tests/e2e/width.py)."""
    return page.evaluate(
        """([name, size]) => {
          const box = document.querySelector(`.sq[data-square="${name}"]`).getBoundingClientRect();
          return box.top >= 0 && box.left >= 0 && box.bottom <= size.height
            && box.right <= size.width;
        }""",
        [name, page.viewport_size],
    )


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_board_fits_speaks_dutch_and_reads_aloud(
    page: Page,
    live_server,
    paired_game,
    viewport,
    tmp_path,
):
    history, _scores = _expected_moves()
    paired_game.starter = 0
    paired_game.save(update_fields=["starter"])
    # Eight moves: plays (one with a blank, on H12), an exchange, a challenge that stood.
    for result in history[:8]:
        move_add(game=paired_game, notation=result.notation, by=None)
    page.set_viewport_size(viewport)
    _login(page, live_server)
    page.goto(f"{live_server.url}{reverse('board', args=[paired_game.pk])}")
    page.screenshot(path=tmp_path / f"board-{viewport['width']}.png", full_page=True)

    assert_fits(page)
    text = page.locator("main").inner_text()
    assert not ENGLISH.search(text), ENGLISH.search(text)
    expect(page.locator("#ruleset")).to_have_text("Gouds 8")
    sheet = page.locator("#scoresheet")
    for words in ("ruilt 3 blokjes: OQT", "bezwaar: woord goed"):
        expect(sheet).to_contain_text(words)
    expect(sheet).not_to_contain_text("(challenge)")

    # A screen reader finds a grid of rows and cells, and hears which tile is a blank.
    grid = page.get_by_role("grid", name="Bord")
    expect(grid.get_by_role("row")).to_have_count(16)
    expect(grid.get_by_role("gridcell")).to_have_count(225)
    expect(grid.get_by_role("rowheader")).to_have_count(15)
    expect(grid.get_by_role("columnheader")).to_have_count(16)
    # Each square's name holds what it shows (voice control and the name agree).
    blank = page.locator(".sq.blank").first
    expect(blank).to_have_accessible_name(re.compile(r"^[A-O]\d+ [A-Z] blanco$"))
    expect(
        page.get_by_role("button", name="A1 3W drievoudige woordwaarde", exact=True)
    ).to_have_count(1)
    # ... and sees it differ from a tile by more than colour: a slanted letter, no value.
    slant = blank.evaluate("(square) => getComputedStyle(square).fontStyle")
    plain = page.locator(".sq.tile:not(.blank)").first
    assert (slant, plain.evaluate("(square) => getComputedStyle(square).fontStyle")) == (
        "italic",
        "normal",
    )
    expect(blank.locator("sub")).to_have_count(0)

    # Premium labels are readable: WCAG AA, at least 4.5:1, with no fading.
    for premium, colours in page.evaluate(PREMIUM_COLOURS).items():
        assert colours["opacity"] == 1, premium
        ratio = _contrast(colours["text"], colours["background"])
        assert ratio >= 4.5, f"{premium} label contrast {ratio:.2f}:1"

    # The unseen tiles wrap instead of widening the page.
    unseen = page.locator("#unseen")
    assert unseen.bounding_box()["width"] <= viewport["width"]

    if viewport is LAPTOP:
        assert _square_width(page, "H8") >= 36
        expect(page.locator("#zoom")).to_be_hidden()
        return
    # On the phone the large board is the default: a square at least 44 px, the board
    # scrolls inside its frame and the page does not.
    expect(page.locator("#zoom")).to_have_attribute("aria-pressed", "true")
    assert _square_width(page, "H8") >= 44
    assert_fits(page)
    # A tapped square stays in view while the letters are typed below the board.
    page.locator('.sq[data-square="N14"]').click()
    expect(page.locator("#id_letters")).to_be_focused()
    assert _in_viewport(page, "N14")
    page.screenshot(path=tmp_path / "board-360-zoomed.png")
    # The small board (about 20 px a square, all of it in view) is one tap away, and the
    # choice is kept when the page loads again (after every saved move).
    page.locator("#zoom").click()
    expect(page.locator("#zoom")).to_have_attribute("aria-pressed", "false")
    assert _square_width(page, "H8") < 36
    page.reload()
    expect(page.locator("#board-frame")).not_to_have_class(re.compile("zoomed"))


@pytest.mark.browser_errors(r"422 .*/partij/\d+/bord/")  # the refused move, on purpose
def test_each_form_submits_its_own_action_on_enter(
    page: Page,
    live_server,
    paired_game,
):
    history, _scores = _expected_moves()
    paired_game.starter = 0
    paired_game.save(update_fields=["starter"])
    for result in history[:3]:
        move_add(game=paired_game, notation=result.notation, by=None)
    _login(page, live_server)
    page.goto(f"{live_server.url}{reverse('board', args=[paired_game.pk])}")

    # Tapping the start square says what to do next: no red error before any typing.
    page.locator('.sq[data-square="B2"]').click()
    expect(page.locator("#preview .preview-hint")).to_have_text(
        "Vanaf B2 horizontaal: typ de letters."
    )
    expect(page.locator(".preview-error")).to_have_count(0)

    # Enter in the exchange field exchanges (it used to save a play).
    page.locator("#id_tiles").fill(history[3].move.tiles)
    page.locator("#id_tiles").press("Enter")
    expect(page.locator('#scoresheet tr[data-move="4"]')).to_contain_text("ruilt 3 blokjes")

    # Lowercase letters are read as blanks, and the refusal says so.
    page.locator("#id_notation").fill("8a woord")
    expect(page.locator("#preview .preview-error")).to_contain_text(
        "Kleine letters zijn blanco's: W, O, O, R, D (0 punten). Typ hoofdletters"
    )
    page.locator("#id_notation").fill("")
    # Enter in the blank-swap field swaps; its refusal is in Dutch and keeps what was typed.
    page.locator("#id_squares").fill("A1")
    page.locator("#id_squares").press("Enter")
    expect(page.locator("#form-error, .alert-danger").first).to_contain_text(
        "Op A1 ligt geen blanco."
    )
    expect(page.locator("#scoresheet tr[data-move]")).to_have_count(4)


def _play_by_tapping(page: Page, result) -> None:
    move = result.move
    position, word = result.notation.split(" ")
    start = rules.board.square_name(move.row, move.col)
    square = page.locator(f'.sq[data-square="{start}"]')
    square.tap()
    if position[0].isalpha():  # down: a second tap on the same square turns the direction
        square.tap()
    expect(page.locator("#id_letters")).to_be_focused()
    assert _in_viewport(page, start), f"{start} scrolled out of view"
    expect(page.locator(".preview-error")).to_have_count(0)
    page.keyboard.type(word)
    expect(page.locator("#preview .preview-score")).to_have_text(str(result.score))
    if any(letter.islower() for letter in word):
        expect(page.locator("#preview .blank-hint")).to_contain_text("blanco")
    page.locator("#save-play").tap()


def test_a_whole_gouds8_game_entered_on_a_phone(
    page: Page,
    live_server,
    paired_game,
    browser,
    tmp_path,
):
    history, final_scores = _expected_moves()
    _login(page, live_server)
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="nl-NL")
    phone.add_cookies(page.context.cookies())
    touch = phone.new_page()
    touch.goto(f"{live_server.url}{reverse('board', args=[paired_game.pk])}")
    touch.locator('#starter-form button[value="0"]').tap()
    expect(touch.locator("#id_notation")).to_be_focused()
    # The large board is the default on a phone.
    expect(touch.locator("#board-frame")).to_have_class(re.compile("zoomed"))

    for number, result in enumerate(history, 1):
        move = result.move
        if isinstance(move, rules.Play):
            _play_by_tapping(touch, result)
        elif isinstance(move, rules.Exchange):
            touch.locator("#id_tiles").tap()
            touch.keyboard.type(move.tiles)
            touch.keyboard.press("Enter")
        elif isinstance(move, rules.Challenge):
            value = "challenge_upheld" if move.valid else "challenge_removed"
            touch.locator(f'button[name="kind"][value="{value}"]').tap()
        elif isinstance(move, rules.BlankSwap):
            touch.locator("#id_squares").tap()
            touch.keyboard.type(" ".join(rules.board.square_name(r, c) for r, c in move.squares))
            touch.keyboard.press("Enter")
        else:  # pragma: no cover - the demo game holds only the kinds above
            raise AssertionError(f"unexpected move {move!r}")
        row = touch.locator(f'#scoresheet tr[data-move="{number}"]')
        expect(row.locator("td").nth(4)).to_have_text(str(result.score))
        expect(row.locator("td").nth(5)).to_have_text(str(result.total))
        assert_fits(touch)
        if number < len(history):
            # The page has settled: the move field has the focus again, ready for the next.
            expect(touch.locator("#id_notation")).to_be_focused()

    expect(touch.locator("#game-over")).to_contain_text(f"{final_scores[0]} – {final_scores[1]}")
    expect(touch.locator("#scoresheet")).to_contain_text("blanco op H12 gewisseld")
    touch.screenshot(path=tmp_path / "phone-game-over.png", full_page=True)
    # The finished game's board takes no move: on the phone it opens whole, in view.
    touch.reload()
    expect(touch.locator("#zoom")).to_have_attribute("aria-pressed", "false")
    frame = touch.locator("#board-frame")
    expect(frame).not_to_have_class(re.compile(r"\bzoomed\b"))
    assert frame.evaluate("(frame) => frame.scrollWidth <= frame.clientWidth")
    paired_game.refresh_from_db()
    assert (paired_game.scores[0], paired_game.scores[1]) == final_scores
    assert paired_game.outcome == "normal"
    phone.close()
