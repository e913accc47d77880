"""A secretary imports a spreadsheet of results in a real browser: a semicolon file from a
Dutch spreadsheet with a typo in a name; the preview shows what would change and asks who the
misspelt name is; after the answer and the confirmation the results are in the standings.

Set BORDPUNT_SCREENSHOTS to a folder to keep screenshots of the preview at phone and
desktop width.
"""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.models import Club, Membership, Player
from competition.models import Competition
from competition.services.entrants import entrant_add
from games.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "geheim-genoeg-123"
FILE = (
    "round;table;player;opponent;score;opponent_score;outcome\r\n"
    "1;1;Anke de Vreis;Bram;412;388;normal\r\n"
    '1;2;"Jan ""de Rots"" Bos";Carla;;;forfeit:player\r\n'
)


@pytest.fixture
def competition(django_user_model):
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    user = django_user_model.objects.create_user("secretaris", password=PASSWORD)
    secretary = Player.objects.create(name="Sietske Secretaris", user=user)
    Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
    competition = Competition.objects.create(club=club, name="Clubcompetitie", slug="clubcomp")
    for name in ("Anke de Vries", "Bram", "Carla"):
        entrant_add(competition=competition, player=Player.objects.create(name=name))
    return competition


def _screenshot(page: Page, name: str) -> None:
    folder = os.environ.get("BORDPUNT_SCREENSHOTS")
    if folder:
        for width in (375, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(Path(folder) / f"{name}-{width}.png"), full_page=True)


def test_import_with_preview_and_a_misspelt_name(page: Page, live_server, competition, tmp_path):
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    page.goto(f"{live_server.url}{reverse('results_import', kwargs=competition.url_kwargs)}")
    path = tmp_path / "uitslagen.csv"
    path.write_bytes(b"\xef\xbb\xbf" + FILE.encode())
    page.set_input_files("#id_file", str(path))
    page.locator("form button.btn-success").click()

    expect(page.locator("h2")).to_have_text("Voorbeeld van de import")
    expect(page.locator("#import-summary")).to_contain_text("2 partijen toe te voegen")
    expect(page.locator("#import-summary")).to_contain_text('Jan "de Rots" Bos')
    expect(page.locator("button[name=confirm]")).to_have_count(0)
    _screenshot(page, "import-preview")
    assert Game.objects.count() == 0

    anke = Player.objects.get(name="Anke de Vries")
    page.locator("#import-names select").first.select_option(str(anke.pk))
    page.locator("button[name=update]").click()
    expect(page.locator("#import-add")).to_contain_text("Anke de Vries – Bram")
    _screenshot(page, "import-preview-settled")
    page.locator("button[name=confirm]").click()

    expect(page.locator(".alert-success")).to_contain_text("2 partijen in 1 ronde geïmporteerd")
    expect(page.locator("body")).to_contain_text("Anke de Vries")
    assert not Player.objects.filter(name="Anke de Vreis").exists()
    assert Player.objects.filter(name='Jan "de Rots" Bos').count() == 1
    assert Game.objects.count() == 2
