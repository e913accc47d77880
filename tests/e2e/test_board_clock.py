"""A Gouds 8 game against the board page's clock, on a phone between the two players, to a
flag fall: the clock started, a turn ended on it and its move entered, a reload and a lost
connection in the middle, then Anke's flag. Time passes by Playwright's clock in the
browser and, by the same amount, on the server's clock of the game (its origin moved
back): both sides see the same minutes pass, as they would at a table."""

import re
from datetime import timedelta

import pytest
from django.db.models import F
from django.urls import reverse
from playwright.sync_api import expect

from games.models import GameClock, Move, Outcome
from tests.e2e.conftest import PASSWORD
from tests.seats import Winner, winner

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


def pass_time(context, game, ms: int) -> None:
    GameClock.objects.filter(game=game).update(origin=F("origin") - timedelta(milliseconds=ms))
    context.clock.fast_forward(ms)


def times(page) -> list[str]:
    return [page.locator(f'[data-time="{player}"]').inner_text() for player in (0, 1)]


# The presses made while the connection is cut fail to send, as they must: they are kept.
@pytest.mark.browser_errors(
    r"request failed: net::ERR_INTERNET_DISCONNECTED POST .*/klok/",
    r"console error: Failed to load resource: net::ERR_INTERNET_DISCONNECTED .*/klok/",
)
def test_a_gouds8_game_on_the_clock_to_a_flag_fall(browser, live_server, paired_game):
    context = browser.new_context(locale="nl-NL", **PHONE)
    context.clock.install()
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    page.goto(f"{live_server.url}{reverse('board', args=[paired_game.pk])}")
    page.locator('#starter-form button[value="0"]').tap()

    page.locator("#clock-start").tap()
    expect(page.locator(".clock-side.running")).to_contain_text("Anke")
    assert times(page) == ["25:00", "25:00"]

    pass_time(context, paired_game, 90_000)
    expect(page.locator('[data-time="0"]')).to_have_text(re.compile(r"^23:(30|29|28)$"))
    page.locator('.clock-side[data-player="0"]').tap()  # Anke ends her turn
    expect(page.locator(".clock-side.running")).to_contain_text("Bram")
    page.fill("#id_notation", "8H WOORD")
    page.keyboard.press("Enter")
    expect(page.locator('#scoresheet tr[data-move="1"]')).to_contain_text("8H WOORD")
    expect(page.locator(".clock-side.running")).to_contain_text("Bram")
    (move,) = Move.objects.filter(game=paired_game)
    assert 89_000 <= move.think_ms <= 93_000

    # A reload gives nobody time back: Bram's minute is gone (and the seconds the test
    # itself took: time runs as at a table).
    pass_time(context, paired_game, 60_000)
    page.reload()
    expect(page.locator('[data-time="1"]')).to_have_text(re.compile(r"^(24:00|23:[45]\d)$"))
    expect(page.locator('[data-time="0"]')).to_have_text(re.compile(r"^23:(30|29|28)$"))

    # Without a connection the clock runs on; the press is kept and sent when it is back,
    # and counted when it arrives: the 20 s no connected device saw stay Bram's.
    context.set_offline(True)
    pass_time(context, paired_game, 30_000)
    page.locator('.clock-side[data-player="1"]').tap()
    expect(page.locator("#clock-status")).to_contain_text("Geen verbinding")
    expect(page.locator(".clock-side.running")).to_contain_text("Anke")
    pass_time(context, paired_game, 20_000)
    context.set_offline(False)
    page.wait_for_function("navigator.onLine === true")  # known before it is told
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#clock-status")).not_to_contain_text("Geen verbinding")
    clock = GameClock.objects.get(game=paired_game)
    kind, moment, player, _by = clock.events[-1]
    assert (kind, player) == ("switch", 1)
    # Pressed at 3:00 of simulated time, arrived 20 s later (and the few real seconds the
    # test took): counted at its arrival, less the 3 s tolerance at most.
    assert 197_000 <= moment < 215_000

    page.fill("#id_notation", "-")  # Bram's move: a pass
    page.keyboard.press("Enter")
    expect(page.locator('#scoresheet tr[data-move="2"]')).to_be_visible()

    # Anke has 23:30 left and does not press: her flag falls.
    pass_time(context, paired_game, 23 * 60_000 + 35_000)
    expect(page.locator('[data-time="0"]')).to_have_text("0:00")
    expect(page.locator("#game-over")).to_contain_text("Bram", timeout=15_000)
    paired_game.refresh_from_db()
    assert (paired_game.outcome, winner(paired_game)) == (Outcome.FLAG_FALL, Winner.B)
    assert Move.objects.filter(game=paired_game).last().notation == "(flagfall)"
    context.close()
