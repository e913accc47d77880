"""A secretary changes a setting and archives the competition in a real browser, then reads
both on the competition's history page, filtered, at phone width without sideways scrolling.

Set BORDPUNT_SCREENSHOTS to a folder to keep screenshots of the history, settings and club
pages at phone and desktop width.
"""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.models import Club, Membership, Player
from competition.services.entrants import entrant_add, entrant_withdraw
from tests.e2e.width import assert_fits
from tests.factories import competition_with_results

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "geheim-genoeg-123"


def _screenshots(page: Page, name: str) -> None:
    folder = os.environ.get("BORDPUNT_SCREENSHOTS")
    if not folder:
        return
    for width in (375, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(Path(folder) / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_secretary_archives_and_reads_the_history(page: Page, live_server, django_user_model):
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    user = django_user_model.objects.create_user("secretaris", password=PASSWORD)
    secretary = Player.objects.create(name="Sietske Secretaris", user=user)
    Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
    competition = competition_with_results(entrants=6, rounds=2, club=club).competition
    late = entrant_add(
        competition=competition, player=Player.objects.create(name="Laatkomer"), by=user
    )
    entrant_withdraw(entrant=late, from_round=4, by=user)

    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()

    page.goto(f"{live_server.url}{reverse('competition_edit', kwargs=competition.url_kwargs)}")
    page.fill("#id_min_games", "3")
    page.locator("form button.btn-success").click()
    page.goto(f"{live_server.url}{reverse('competition_edit', kwargs=competition.url_kwargs)}")
    page.get_by_label("Deze competitie archiveren", exact=False).check()
    page.fill("#archive-form #id_reason", "seizoen voorbij")
    page.get_by_role("button", name="Competitie archiveren").click()
    expect(page.locator("#archived-badge")).to_have_text("gearchiveerd")

    page.get_by_role("link", name="Geschiedenis").click()
    entries = page.locator("ol.history > li")
    expect(entries).to_have_count(4)
    expect(entries.first).to_contain_text("Competitie gearchiveerd")
    expect(entries.first).to_contain_text("seizoen voorbij")
    expect(entries.nth(1)).to_contain_text("Minimum aantal partijen")
    _screenshots(page, "history")

    page.select_option("#id_action", "entrant.withdraw")
    page.get_by_role("button", name="Filteren").click()
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("Laatkomer")
    page.set_viewport_size({"width": 375, "height": 800})
    assert_fits(page)

    page.goto(f"{live_server.url}{reverse('competition_edit', kwargs=competition.url_kwargs)}")
    expect(page.locator("#archived-notice")).to_be_visible()
    _screenshots(page, "settings-archived")
    page.goto(f"{live_server.url}{reverse('club', kwargs={'club': 'gouda'})}")
    expect(page.locator("#archived-competitions")).to_contain_text(competition.name)
    _screenshots(page, "club-archived")
