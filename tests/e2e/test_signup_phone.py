"""A secretary signs her club up on a phone (360 x 740), follows the link of the mail the
SMTP server received (tests/mail.py), confirms and lands on the club's first steps."""

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from clubs.models import Club, ClubStatus
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def test_a_club_signs_up_on_a_phone(browser: Browser, live_server, smtp, settings):
    settings.SIGNUP_MODE = "approve"
    context = browser.new_context(viewport=PHONE, locale="nl-NL")
    page = context.new_page()
    page.goto(live_server.url + reverse("home"))
    page.locator("#signup-link").click()
    expect(page.locator("#approval-note")).to_be_visible()
    page.fill("#id_club_name", "Scrabbleclub Het Zesde Woord")
    page.fill("#id_city", "Zwolle")
    page.fill("#id_secretary_name", "Sanne Ölçek")
    page.fill("#id_email", "sanne@example.nl")
    page.fill("#id_password1", "Letters-Leggen-2026")
    page.fill("#id_password2", "Letters-Leggen-2026")
    assert_fits(page)
    page.locator("#signup-form button").click()
    expect(page.locator("#signup-sent")).to_contain_text("Kijk in je mailbox")

    link = smtp.link("sanne@example.nl", containing="/aanmelden/bevestigen/")
    page.goto(link.replace("http://testserver", live_server.url))
    expect(page.locator("#signup-confirm")).to_contain_text("Scrabbleclub Het Zesde Woord")
    page.locator("#confirm").click()

    expect(page.locator("h1")).to_have_text("Eerste stappen")  # the secretary's page: logged in
    expect(page.locator("#pending-note")).to_be_visible()
    expect(page.locator("#step-competition")).to_contain_text("te doen")
    assert_fits(page)
    club = Club.objects.get()
    assert page.url == live_server.url + reverse("first_steps", kwargs={"club": club.slug})
    assert (club.slug, club.status) == ("scrabbleclub-het-zesde-woord", ClubStatus.PENDING)
    context.close()
