"""A secretary enters a complete Gouds 8 game at the board, partly by clicks and partly by
typed notation, with an exchange, a challenge and a blank swap; the score reaches the
standings; a player replays the game."""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

import rules
from rules import gcg
from tests.e2e.conftest import PASSWORD
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEMO_GAME = Path(__file__).resolve().parents[2] / "games" / "demo" / "demo-1.gcg"


def _expected_moves():
    record = gcg.read(DEMO_GAME.read_bytes(), rules=rules.GOUDS_8, tiles=rules.DUTCH)
    return record.game.history, record.game.scores


def _login(page: Page, live_server) -> None:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    expect(page.locator("nav")).to_contain_text("secretaris")


def _enter(page: Page, result, by_clicks: bool) -> None:
    move = result.move
    if isinstance(move, rules.Play):
        if by_clicks:
            position, word = result.notation.split(" ")
            square = page.locator(
                f'.sq[data-square="{rules.board.square_name(move.row, move.col)}"]'
            )
            square.click()
            page.select_option("#id_direction", "down" if position[0].isalpha() else "across")
            page.fill("#id_letters", word)
            # The server's preview shows the move's score before it is saved.
            expect(page.locator("#preview .preview-score")).to_have_text(str(result.score))
            expect(page.locator(".sq.preview").first).to_be_visible()
            page.locator("#save-play").click()
        else:
            page.fill("#id_notation", result.notation)
            page.keyboard.press("Enter")
    elif isinstance(move, rules.Exchange):
        page.fill("#id_tiles", move.tiles)
        page.locator('button[name="kind"][value="exchange"]').click()
    elif isinstance(move, rules.Challenge):
        value = "challenge_upheld" if move.valid else "challenge_removed"
        page.locator(f'button[name="kind"][value="{value}"]').click()
    elif isinstance(move, rules.BlankSwap):
        squares = " ".join(rules.board.square_name(r, c) for r, c in move.squares)
        page.fill("#id_squares", squares)
        page.locator('button[name="kind"][value="swap"]').click()
    else:  # pragma: no cover - the demo game holds only the kinds above
        raise AssertionError(f"unexpected move {move!r}")


def test_secretary_enters_a_gouds8_game_and_a_player_replays_it(
    page: Page, live_server, paired_game
):
    history, final_scores = _expected_moves()
    kinds = {type(result.move) for result in history}
    assert {rules.Exchange, rules.Challenge, rules.BlankSwap} <= kinds

    _login(page, live_server)
    round_url = paired_game.round.get_absolute_url()
    page.goto(f"{live_server.url}{round_url}")
    page.locator(".board-link").first.click()
    expect(page).to_have_url(re.compile(r"/partij/\d+/bord/$"))

    # Drawn by lot at the table: Anke starts.
    page.locator('#starter-form button[value="0"]').click()
    expect(page.locator("#move-form")).to_be_visible()

    plays = 0
    for number, result in enumerate(history, 1):
        by_clicks = isinstance(result.move, rules.Play) and plays % 2 == 0
        plays += isinstance(result.move, rules.Play)
        _enter(page, result, by_clicks)
        row = page.locator(f'#scoresheet tr[data-move="{number}"]')
        expect(row).to_be_visible()
        expect(row.locator("td").nth(4)).to_have_text(str(result.score))
        expect(row.locator("td").nth(5)).to_have_text(str(result.total))

    expect(page.locator("#game-over")).to_contain_text(f"{final_scores[0]} – {final_scores[1]}")
    paired_game.refresh_from_db()
    assert (paired_game.scores[0], paired_game.scores[1]) == final_scores
    assert paired_game.outcome == "normal"

    # The result is in the standings at once.
    competition = paired_game.round.competition
    page.goto(f"{live_server.url}{competition.get_absolute_url()}")
    winner = 0 if final_scores[0] > final_scores[1] else 1
    winner_row = page.locator("table.standings tbody tr").first
    expect(winner_row).to_contain_text(["Anke", "Bram"][winner])
    expect(winner_row).to_contain_text(str(final_scores[winner]))

    # A player (not logged in) replays the game from the round page.
    player_page = page.context.browser.new_page()
    player_page.goto(f"{live_server.url}{round_url}")
    player_page.locator(".replay-link").first.click()
    expect(player_page.locator("#scoresheet tr[data-move]")).to_have_count(len(history))
    player_page.locator("#first").click()
    expect(player_page.locator(".sq.tile")).to_have_count(0)
    player_page.locator("#next").click()
    first_play = history[0]
    expect(player_page.locator(".sq.tile")).to_have_count(len(first_play.placed))
    expect(player_page.locator("#current-move")).to_contain_text(str(first_play.score))
    player_page.close()


def test_keyboard_alone_then_touch_on_a_tablet(page: Page, live_server, paired_game, browser):
    history, _scores = _expected_moves()
    _login(page, live_server)
    board_url = f"{live_server.url}{reverse('board', args=[paired_game.pk])}"
    page.goto(board_url)

    # Keyboard alone: the starter button and then the move field have the focus.
    # (Chromium applies autofocus at its next rendering update, after the load event.)
    expect(page.locator('#starter-form button[value="0"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#id_notation")).to_be_focused()
    for number, result in enumerate(history[:3], 1):
        page.keyboard.type(result.notation)
        page.keyboard.press("Enter")
        expect(page.locator(f'#scoresheet tr[data-move="{number}"]')).to_be_visible()
        expect(page.locator("#id_notation")).to_be_focused()

    # Touch on a tablet-sized screen: tap the start square, type the letters, tap save.
    tablet = browser.new_context(
        viewport={"width": 820, "height": 1180}, has_touch=True, locale="nl-NL"
    )
    tablet.add_cookies(page.context.cookies())
    touch = tablet.new_page()
    touch.goto(board_url)
    assert_fits(touch)
    fourth = history[3]
    assert isinstance(fourth.move, rules.Exchange)
    touch.locator("#id_tiles").tap()
    touch.keyboard.type(fourth.move.tiles)
    touch.locator('button[name="kind"][value="exchange"]').tap()
    expect(touch.locator('#scoresheet tr[data-move="4"]')).to_be_visible()
    fifth = history[4]
    position, word = fifth.notation.split(" ")
    start = rules.board.square_name(fifth.move.row, fifth.move.col)
    touch.locator(f'.sq[data-square="{start}"]').tap()
    if position[0].isalpha():  # down: a second tap on the same square turns the direction
        touch.locator(f'.sq[data-square="{start}"]').tap()
    expect(touch.locator("#id_letters")).to_be_focused()
    touch.keyboard.type(word)
    expect(touch.locator("#preview .preview-score")).to_have_text(str(fifth.score))
    touch.locator("#save-play").tap()
    row = touch.locator('#scoresheet tr[data-move="5"]')
    expect(row.locator("td").nth(5)).to_have_text(str(fifth.total))
    tablet.close()


# The refused move (422) and the second device's stale save (409), on purpose.
@pytest.mark.browser_errors(r"(422|409) .*/partij/\d+/bord/")
def test_a_refused_move_and_a_second_device(page: Page, live_server, paired_game, browser):
    history, _scores = _expected_moves()
    _login(page, live_server)
    board_url = f"{live_server.url}{reverse('board', args=[paired_game.pk])}"
    page.goto(board_url)
    page.locator('#starter-form button[value="0"]').click()

    # An illegal placement is refused with the engine's reason; nothing is saved.
    page.fill("#id_notation", "8A WOORD")
    page.keyboard.press("Enter")
    expect(page.locator(".alert-danger")).to_contain_text("H8")
    expect(page.locator("#scoresheet tr[data-move]")).to_have_count(0)

    # A second device opens the same game, then the first one saves a move.
    second = browser.new_context(locale="nl-NL")
    second.add_cookies(page.context.cookies())
    other = second.new_page()
    other.goto(board_url)
    page.fill("#id_notation", history[0].notation)
    page.keyboard.press("Enter")
    expect(page.locator('#scoresheet tr[data-move="1"]')).to_be_visible()

    # The second device's save is refused and it is shown the current state.
    other.fill("#id_notation", history[1].notation)
    other.keyboard.press("Enter")
    expect(other.locator(".alert-danger")).to_be_visible()
    expect(other.locator('#scoresheet tr[data-move="1"]')).to_be_visible()
    expect(other.locator("#scoresheet tr[data-move]")).to_have_count(1)
    # Entered again on the current state, it is saved.
    other.fill("#id_notation", history[1].notation)
    other.keyboard.press("Enter")
    expect(other.locator('#scoresheet tr[data-move="2"]')).to_be_visible()
    second.close()
    assert paired_game.moves.count() == 2
