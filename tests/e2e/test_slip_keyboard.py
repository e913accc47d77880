"""The duplicate slip on a phone with the keyboard alone (issue 52, point 3): the move field
has the focus when the page opens, Tab reaches the score and Enter hands in; the hand-in is
said by the page's live region and the focus goes to "your slip is in", where the form was."""

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Browser, expect

from duplicate.models import DuplicateCompetition, Participant
from duplicate.services.evenings import evening_create
from duplicate.services.turns import turn_draw
from tests.e2e.test_duplicate_evening import _logged_in, duplicate_club

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

__all__ = ["duplicate_club"]  # the fixture, used below


def test_a_slip_from_open_to_handed_in_with_the_keyboard_alone(
    browser: Browser, live_server, duplicate_club, tmp_path
):
    competition = DuplicateCompetition.objects.create(
        club=duplicate_club, name="Duplicate", slug="duplicate", rules="standard"
    )
    anke = duplicate_club.members.get(name="Anke")
    Participant.objects.create(competition=competition, player=anke)
    evening = evening_create(competition=competition, number=1, by=None)
    turn_draw(evening=evening, tiles="KAAS?EN", by=None)
    phone = _logged_in(browser, live_server, "anke", {"width": 390, "height": 844})
    phone.goto(live_server.url + reverse("duplicate_slip", args=["gouda", "duplicate", 1]))

    expect(phone.locator("#id_text")).to_be_focused()
    phone.screenshot(path=tmp_path / "slip-open-390.png", full_page=True)
    phone.keyboard.type("8H KAAS")
    expect(phone.locator("#slip-preview")).to_contain_text("14")
    phone.keyboard.press("Tab")
    expect(phone.locator("#id_claimed")).to_be_focused()
    phone.keyboard.type("14")
    phone.keyboard.press("Enter")

    with translation.override("nl"):
        said = gettext("Your slip for this turn is in.")
    expect(phone.locator("#slip-announce")).to_have_text(said)
    expect(phone.get_by_role("status")).to_have_text(said)
    expect(phone.locator("#slip-sent")).to_be_focused()
    expect(phone.locator("#my-slips tbody tr")).to_have_count(1)
    phone.screenshot(path=tmp_path / "slip-sent-390.png", full_page=True)
