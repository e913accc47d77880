"""The ranking on a phone (360×740) and a laptop: the season's persons fit the screen with
rank, name and average (the other columns behind "All columns"), a person's counted and
uncounted results read with their percentages, and the club ranking opens a club's best
results; nothing scrolls sideways."""

from datetime import date

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from duplicate.signals import game_complete
from tests.e2e.width import assert_fits
from tests.ranking.fixtures import *  # noqa: F403  (the interclub of the ranking's tests)
from tests.ranking.fixtures import play_evening

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture
def ranked(federation, season, interclub):
    """Two evenings of the interclub published; each player's best result counts."""
    _event, division, p = interclub
    first = {p["An"]: 500, p["Bert"]: 400, p["Cor"]: 300, p["Dirk"]: 200, p["Eva"]: 100}
    second = {p["An"]: 600, p["Bert"]: 300, p["Cor"]: 500, p["Dirk"]: 400, p["Eva"]: 100}
    for number, points in ((1, first), (2, second)):
        game_complete.send(
            sender=None, evening=play_evening(division, number, date(2026, 3, 7), points)
        )
    season.counted_results = 1
    # Both clubs ranked: by average, two players a club rank it (by places, three do).
    season.club_method = season.ClubMethod.AVERAGE
    season.save()
    return p


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_ranking_reads_on_a_phone_and_a_laptop(page: Page, live_server, ranked, viewport):
    page.set_viewport_size(viewport)
    url = live_server.url + reverse("ranking_season", args=["ntsv", "2026"]) + "?op=2026-06-01"
    page.goto(url)
    rows = page.locator("#persons tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.first).to_contain_text("An")
    expect(rows.first).to_contain_text("100,00")
    club_header = page.get_by_role("columnheader", name="Club", exact=True)
    if viewport is PHONE:
        expect(club_header).to_be_hidden()
        page.get_by_role("button", name="Alle kolommen").click()
    expect(club_header).to_be_visible()
    assert_fits(page)

    # Bert's results: game 1 counts (90), game 2 (70) is not among the best.
    page.get_by_role("link", name="Bert").click()
    expect(page.locator("#person-name")).to_contain_text("Bert")
    lines = page.locator("#results tbody tr")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text("90,00")
    expect(lines.nth(0)).to_contain_text("telt mee")
    expect(lines.nth(1)).to_contain_text("70,00")
    expect(lines.nth(1)).to_contain_text("niet bij de beste")
    assert_fits(page)

    page.locator("#nav-clubs").click()
    clubs = page.locator("#clubs tbody tr")
    expect(clubs).to_have_count(2)
    expect(clubs.first).to_contain_text("Letterkoppen")
    clubs.first.locator("summary").click()
    expect(clubs.first.locator("li").first).to_contain_text("An")
    assert_fits(page)
