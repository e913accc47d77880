"""The club-room screen in a real browser: a result entered elsewhere appears without a
reload; the panels take turns; a lost connection leaves the last state up, says so, and
heals by itself."""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from competition.models import Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from games.services import ResultInput, game_record_result
from tests.e2e.width import assert_fits
from tests.factories import PlayerFactory
from tests.seats import pair_spec

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

POLL_MS = 15_000
PANEL_MS = 12_000


@pytest.fixture
def tonight(club_evening):
    """Round 1 of the club evening: Anna–Bert at table 1 (Anna starts), Cor–Dirk at 2."""
    anna, bert, cor, dirk = (PlayerFactory(name=name) for name in ("Anna", "Bert", "Cor", "Dirk"))
    for player in (anna, bert, cor, dirk):
        entrant_add(competition=club_evening.competition, player=player)
    return round_set_pairings(
        round=club_evening,
        pairings=[pair_spec(anna.pk, bert.pk, 1, starter="a"), pair_spec(cor.pk, dirk.pk, 2)],
    )


def open_screen(page: Page, live_server, round_obj: Round) -> None:
    page.clock.install()  # the test moves the screen's clock: no waiting for real polls
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}{reverse('screen', kwargs=round_obj.competition.url_kwargs)}")
    page.evaluate("window.sameDocument = true")


def active_panel(page: Page):
    return page.locator(".screen-panel.active")


def test_a_result_appears_on_the_screen_without_a_reload(
    page: Page, live_server, club_evening, tonight
):
    anna_bert, _cor_dirk = tonight
    open_screen(page, live_server, club_evening)
    expect(active_panel(page)).to_contain_text("Ronde 1: indeling")
    expect(active_panel(page)).to_contain_text("Anna")
    page.clock.fast_forward(PANEL_MS)
    expect(active_panel(page)).to_contain_text("Ronde 1: uitslagen")
    expect(active_panel(page).locator("tr[data-game]")).to_have_count(2)
    expect(active_panel(page).locator(f'tr[data-game="{anna_bert.pk}"]')).to_contain_text("bezig")

    game_record_result(game=anna_bert, result=ResultInput.of_pair("normal", 356, 290), by=None)
    page.clock.fast_forward(POLL_MS - PANEL_MS + 1_000)  # the next poll, same panel still up
    row = page.locator(f'tr[data-game="{anna_bert.pk}"]')
    expect(row).to_contain_text("356 – 290")
    # The fresh panels kept the cycle where it was: the results are still the one on show.
    expect(active_panel(page)).to_contain_text("Ronde 1: uitslagen")
    assert page.evaluate("window.sameDocument") is True
    expect(page.locator(".screen-offline")).to_be_hidden()


# The connection cut and a 502 from a restarting server, on purpose; htmx logs both.
@pytest.mark.browser_errors(r"/scherm/panelen/", r"htmx:(afterRequest|sendError)")
def test_a_lost_connection_keeps_the_last_state_and_heals(
    page: Page, live_server, club_evening, tonight
):
    anna_bert, _cor_dirk = tonight
    open_screen(page, live_server, club_evening)
    panels_url = "**" + reverse("screen_panels", kwargs=club_evening.competition.url_kwargs)

    page.route(panels_url, lambda route: route.abort("internetdisconnected"))
    page.clock.fast_forward(POLL_MS + 1_000)
    offline = page.locator(".screen-offline")
    expect(offline).to_be_visible()
    expect(offline).to_contain_text("Geen verbinding met de server")
    expect(page.locator(".screen-panel")).to_have_count(3)  # nothing broken, nothing blank

    # The server restarting answers with an error for a while: the screen keeps waiting.
    page.unroute(panels_url)
    page.route(panels_url, lambda route: route.fulfill(status=502, body="Bad Gateway"))
    page.clock.fast_forward(POLL_MS)
    expect(offline).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("Bad Gateway")
    expect(page.locator(".screen-panel")).to_have_count(3)

    page.unroute(panels_url)
    game_record_result(game=anna_bert, result=ResultInput.of_pair("normal", 300, 301), by=None)
    page.clock.fast_forward(POLL_MS)
    expect(offline).to_be_hidden()
    expect(page.locator(f'tr[data-game="{anna_bert.pk}"]')).to_contain_text("300 – 301")
    assert page.evaluate("window.sameDocument") is True


def test_the_screen_fits_a_phone_too(page: Page, live_server, club_evening, tonight):
    open_screen(page, live_server, club_evening)
    page.set_viewport_size({"width": 360, "height": 740})
    expect(active_panel(page)).to_contain_text("Anna")
    assert_fits(page)


def test_an_unchanged_poll_is_a_conditional_request(page: Page, live_server, club_evening, tonight):
    """The browser revalidates with the ETag (the server then answers 304 for one query:
    tests/competition/test_screen.py); the screen stays as it was."""
    open_screen(page, live_server, club_evening)
    is_poll = lambda response: "/scherm/panelen/" in response.url  # noqa: E731
    with page.expect_response(is_poll) as first:
        page.clock.fast_forward(POLL_MS)
    etag = first.value.all_headers()["etag"]
    with page.expect_response(is_poll) as second:
        page.clock.fast_forward(POLL_MS)
    assert second.value.request.all_headers().get("if-none-match") == etag
    expect(page.locator(".screen-panel")).to_have_count(3)
    expect(page.locator('[data-panel="pairings-1"]')).to_contain_text("Anna")
    expect(page.locator(".screen-offline")).to_be_hidden()
