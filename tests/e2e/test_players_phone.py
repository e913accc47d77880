"""The secretary invites a member from a phone (360 px): the list of players and accounts
fits the screen, so the "Uitnodigen" button is never out of sight to the right, and
pressing it gives the code."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import Membership, Player
from tests.e2e.conftest import club_with_secretary
from tests.e2e.test_tables_phone import PHONE, login
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Marja Hendriks-Bakker van Oosterhout", "Youssef el Amrani", "Bram"]


def test_the_secretary_invites_a_member_from_a_phone(browser, live_server, django_user_model):
    club = club_with_secretary(django_user_model, "De Goudse Letters", "gouda")
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name, rating=1500))
    page = browser.new_context(viewport=PHONE, locale="nl-NL").new_page()
    login(page, live_server, "secretaris")
    page.goto(f"{live_server.url}{reverse('club_players', kwargs={'club': 'gouda'})}")
    invite = page.locator("#members button", has_text="Uitnodigen")
    expect(invite).to_have_count(len(NAMES))
    assert_fits(page)
    for button in invite.all():
        box = button.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"], "an invite button is off the screen"
    # The role is still there, under the name.
    expect(page.locator("#members tr", has_text="Bram")).to_contain_text("lid")

    page.locator("#members tr", has_text="Youssef el Amrani").get_by_role("button").click()
    expect(page.locator("main")).to_contain_text("Youssef el Amrani")
    assert_fits(page)
    page.goto(f"{live_server.url}{reverse('club_players', kwargs={'club': 'gouda'})}")
    row = page.locator("#members tr", has_text="Youssef el Amrani")
    expect(row).to_contain_text("uitgenodigd, geldig tot")
    expect(row.get_by_role("button")).to_have_text("Nieuwe code")
    assert_fits(page)
