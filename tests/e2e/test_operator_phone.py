"""The operator on a phone (360 px): the list of clubs, suspending one with a reason,
acting for it (the banner on every page, the stop); and a suspended club's player and
secretary told why nothing is saved."""

from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.models import ClubStatus, HistoryEntry
from games.models import Move
from tests.e2e.conftest import PASSWORD, table_of_players
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
SHOTS = Path("/tmp/bordpunt-operator")  # screenshots to look at by hand; not asserted


def login(page: Page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    expect(page.locator("nav")).to_contain_text(username)


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
def game(django_user_model):
    return table_of_players(django_user_model, {"anke": "Anke", "bram": "Bram"}, table=1)


@pytest.fixture
def operator(django_user_model):
    user = django_user_model.objects.create_user("dienst", password=PASSWORD)
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="clubs", codename="operate_service")
    )
    return user


@pytest.mark.browser_errors(r"403 .*/beheer/instellingen/")
def test_the_operator_suspends_and_acts_on_a_phone(browser, live_server, game, operator):
    club = game.round.competition.club
    phone = browser.new_context(viewport=PHONE).new_page()
    login(phone, live_server, "dienst")
    phone.goto(f"{live_server.url}{reverse('operator_clubs')}")
    expect(phone.locator("#operator-clubs")).to_contain_text("De Goudse Letters")
    assert_fits(phone)
    shot(phone, "clubs")

    phone.locator("#operator-clubs a", has_text="De Goudse Letters").click()
    phone.fill("#id_suspend_reason", "De contributie is niet betaald.")
    phone.locator("#suspend button").click()
    expect(phone.locator(".alert-success")).to_contain_text("De Goudse Letters is opgeschort.")
    expect(phone.locator("#club-status")).to_have_text("opgeschort")
    assert_fits(phone)
    shot(phone, "club-suspended")

    phone.fill("#id_act_reason", "De secretaris vroeg om hulp.")
    phone.locator("#act button").click()
    expect(phone.locator("#acting-banner")).to_contain_text("De Goudse Letters")
    expect(phone.locator("#club-suspended")).to_contain_text("opgeschort")
    assert_fits(phone)
    shot(phone, "acting")

    # Acting, the operator manages the club: but a suspended club changes for no one.
    phone.goto(f"{live_server.url}{reverse('club_settings', kwargs={'club': club.slug})}")
    expect(phone.locator("#acting-banner")).to_be_visible()
    phone.locator("#club-settings button").click()
    expect(phone.locator("#suspended-refusal")).to_contain_text("er kan niets worden gewijzigd")
    shot(phone, "refused")

    phone.locator("#acting-banner button").click()
    expect(phone.locator(".alert-info")).to_contain_text("Je treedt niet meer op")
    expect(phone.locator("#acting-banner")).to_have_count(0)
    actions = list(
        HistoryEntry.objects.filter(club=club, action__startswith="operator.")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["operator.suspend", "operator.act_start", "operator.act_stop"]


@pytest.mark.browser_errors(r"422 .*/partij/\d+/bord/")
def test_a_player_of_a_suspended_club_is_told_on_the_board(browser, live_server, game):
    club = game.round.competition.club
    club.status = ClubStatus.SUSPENDED
    club.save()
    phone = browser.new_context(viewport=PHONE).new_page()
    login(phone, live_server, "anke")
    phone.goto(f"{live_server.url}{reverse('board', args=[game.pk])}")
    # Who starts is the board's first write: refused, saying why.
    phone.locator('#starter-form button[value="0"]').click()
    expect(phone.locator("main .alert").first).to_contain_text("opgeschort")
    expect(phone.locator("#starter-form")).to_be_visible()
    shot(phone, "board")
    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.starter is None
