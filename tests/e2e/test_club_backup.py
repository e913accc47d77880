"""A secretary downloads the club's backup from the club page in a real browser, and the
file restores to a club with the same standings.

Set BORDPUNT_SCREENSHOTS to a folder to keep screenshots of the club page at phone and
desktop width.
"""

import os
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.models import Club, Membership, Player
from competition import selectors
from competition.models import Competition
from tests.factories import competition_with_results

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "geheim-genoeg-123"


def _rows(competition: Competition) -> list[tuple]:
    view = selectors.standings_get(competition)
    return [
        (row.rank, row.name, row.match_points, row.board_points, row.spread)
        for rows in view.groups.values()
        for row in rows
    ]


def test_the_secretary_downloads_a_backup_that_restores(
    page: Page, live_server, django_user_model, tmp_path
):
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    user = django_user_model.objects.create_user("secretaris", password=PASSWORD)
    secretary = Player.objects.create(name="Sietske Secretaris", user=user)
    Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
    competition = competition_with_results(entrants=9, rounds=3, club=club).competition

    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    page.goto(f"{live_server.url}{reverse('club', kwargs={'club': 'gouda'})}")
    link = page.get_by_role("link", name="Back-up downloaden")
    expect(link).to_be_visible()
    folder = os.environ.get("BORDPUNT_SCREENSHOTS")
    if folder:
        for width in (375, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(Path(folder) / f"club-backup-{width}.png"), full_page=True)
    with page.expect_download() as download:
        link.click()
    assert download.value.suggested_filename.startswith("gouda-")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)

    call_command("import_club", str(path), slug="gouda-kopie")

    copy = Competition.objects.get(club__slug="gouda-kopie", slug=competition.slug)
    assert _rows(copy) == _rows(competition)
