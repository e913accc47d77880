"""A duplicate evening in a real browser: the spelleider on a laptop, the room screen, and
three players handing in their slips on their phones, over three turns."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect
from playwright.sync_api import Error as PlaywrightError

from clubs.models import Club, Membership, Player
from duplicate.models import DuplicateCompetition, Slip
from tests.e2e.conftest import PASSWORD
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def duplicate_club(django_user_model):
    """A club: the secretary "secretaris" and three players with accounts (the secretary
    makes the duplicate competition in the browser)."""
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    user = django_user_model.objects.create_user("secretaris", password=PASSWORD)
    leader = Player.objects.create(name="Sietske", user=user)
    Membership.objects.create(club=club, player=leader, role=Membership.Role.SECRETARY)
    for username in ("anke", "bram", "cees"):
        player = Player.objects.create(
            name=username.title(),
            user=django_user_model.objects.create_user(username, password=PASSWORD),
        )
        Membership.objects.create(club=club, player=player)
    return club


def _logged_in(browser: Browser, live_server, username: str, viewport=None):
    context = browser.new_context(viewport=viewport or PHONE, locale="nl-NL")
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").click()
    page.wait_for_url(lambda url: "login" not in url)
    return page


#: How a reload of ours fails when the page reloads itself at that moment: aborted by the
#: page's own, or sent to the page that the page's own reload is replacing.
RELOAD_RACE = ("ERR_ABORTED", "Not attached to an active page")


def _reload(phone) -> None:
    """Reload the slip page. A phone whose slip was in reloads itself when its poll sees
    the next draw; a reload of ours at that moment fails (`RELOAD_RACE`): then once more."""
    try:
        phone.reload()
    except PlaywrightError as error:
        if not any(race in error.message for race in RELOAD_RACE):
            raise
        phone.reload()


def _hand_in(phone, text: str, claimed: str, expected_preview: str) -> None:
    _reload(phone)
    phone.fill("#id_text", text)
    expect(phone.locator("#slip-preview")).to_contain_text(expected_preview)
    phone.fill("#id_claimed", claimed)
    slips_before = phone.locator("#my-slips tbody tr").count()
    boards_before = phone.locator(".board").count()  # the board shows while the turn is open
    phone.locator("#slip-send").click()
    expect(phone.locator("#slip-sent")).to_be_visible()
    # Only the hand-in part was swapped: the board stays, the list of slips grew by one.
    expect(phone.locator("#my-slips tbody tr")).to_have_count(slips_before + 1)
    expect(phone.locator("#my-slips tbody tr").last).to_contain_text(text)
    expect(phone.locator(".board")).to_have_count(boards_before)
    assert_fits(phone)  # the slips table and its marks fit 360 px


def test_an_evening_with_the_spelleider_the_room_screen_and_three_phones(
    browser: Browser, live_server, duplicate_club
):
    base = live_server.url
    args = ["gouda", "duplicate"]
    leader = _logged_in(browser, live_server, "secretaris", {"width": 1280, "height": 900})
    # The secretary makes the duplicate competition from the club page and enters three.
    leader.goto(base + reverse("club", args=["gouda"]))
    leader.locator("#duplicate-create").click()
    leader.fill("#id_name", "Duplicate")
    leader.fill("#id_slug", "duplicate")
    leader.locator("#duplicate-settings button").click()
    leader.wait_for_url(re.compile(r"/gouda/duplicate/duplicate/$"))
    competition = DuplicateCompetition.objects.get(club=duplicate_club, slug="duplicate")
    assert (competition.rules, competition.settings) == ("standard", {})
    leader.goto(base + reverse("duplicate_participants", args=args))
    for name in ("Anke", "Bram", "Cees"):
        leader.select_option("#id_player", label=name)
        leader.locator("#participant-add button").click()
        expect(leader.locator("#participants")).to_contain_text(name)
    leader.goto(base + reverse("duplicate_evenings", args=args))
    leader.get_by_role("button", name="Avond 1 beginnen").click()
    expect(leader.locator("#draw-form")).to_be_visible()

    screen_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = screen_context.new_page()
    screen.clock.install()
    screen.goto(base + reverse("duplicate_screen", args=[*args, 1]))
    expect(screen.locator("#screen-panel")).to_contain_text("Het spel begint zo.")

    phones = {name: _logged_in(browser, live_server, name) for name in ("anke", "bram", "cees")}
    for phone in phones.values():
        phone.goto(base + reverse("duplicate_slip", args=[*args, 1]))

    # Turn 1: typed from the bag; first a second Q, which the bag (one Q) lacks.
    leader.fill("#draw-tiles", "QQAAEEN")
    leader.locator("#draw-button").click()
    expect(leader.locator("#draw-refusal")).to_contain_text("Het zakje")
    leader.fill("#draw-tiles", "KAAS?EN")
    leader.locator("#draw-button").click()
    expect(leader.locator("#leader-rack")).to_have_text("AAEKNS?")
    screen.clock.fast_forward(4_000)
    expect(screen.locator("#screen-rack")).to_contain_text("K")
    # Three minutes, counted from what the server says is left (it follows the server,
    # not the screen's own clock).
    countdown = screen.locator("#screen-countdown")
    expect(countdown).to_have_text(re.compile(r"^(3:00|2:[0-5]\d)$"))
    left = int(countdown.get_attribute("data-remaining"))
    assert 150 < left <= 180

    # K on D8 (DL) 6, A1 A1, r0, S on H8 (DW) 2, E1 N1 = 12 x 2 = 24, + 50 = 74.
    _hand_in(phones["anke"], "8D KAArSEN", "76", "74")
    _hand_in(phones["bram"], "8H KAAS", "14", "14")
    _hand_in(phones["cees"], "8H KAAZ", "30", "Telt 0")
    # The spelleider's count follows the room, without a reload (it asks every 3 s).
    expect(leader.locator("#leader-slips")).to_contain_text("3 van 3", timeout=10_000)
    leader.locator("#top-choose").click()
    expect(leader.locator("#leader-total")).to_have_text("74")
    screen.clock.fast_forward(4_000)
    expect(screen.locator("#screen-top")).to_contain_text("74")
    expect(screen.locator("#screen-total")).to_have_text("74")

    # Turn 2: the app draws.
    leader.locator("#draw-button").click()
    expect(leader.locator("#leader-rack")).to_be_visible()
    rack = leader.locator("#leader-rack").inner_text()
    # A phone whose slip is in loads the new rack itself (it asks every 5 s).
    expect(phones["anke"].locator("#slip-rack")).to_have_text(rack, timeout=15_000)
    expect(phones["anke"].locator("#slip-form")).to_be_visible()
    leader.locator("#top-choose").click()
    # A slip after the top: accepted, marked late.
    _hand_in(phones["bram"], "A1 XX", "", "Telt 0")
    assert Slip.objects.get(turn__number=2).late

    # Turn 3, then the evening's ranking: Anke first with the solo of turn 1.
    leader.locator("#draw-button").click()
    leader.locator("#top-choose").click()
    screen.clock.fast_forward(4_000)
    total = leader.locator("#leader-total").inner_text()
    expect(screen.locator("#screen-total")).to_have_text(total)
    # A page of its own: the slip page polls and reloads itself, and would interrupt a goto.
    ranking = phones["cees"].context.new_page()
    ranking.goto(base + reverse("duplicate_evening", args=[*args, 1]))
    rows = ranking.locator("#ranking tbody tr")
    expect(rows.first).to_contain_text("Anke")
    expect(rows.first).to_contain_text("74")
    assert_fits(ranking)
