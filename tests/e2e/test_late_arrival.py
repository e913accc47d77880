"""A late arrival joins a published round in a real browser: the secretary ticks her present,
is told she has no place in the pairing, and seats her against the player with the bye.
Nobody else is paired again; the round page and the history show the new table. On a phone
(360×740, touch) that is four taps: tick, save, the place, add; a player still absent is
never offered, so never seated by mistake.

Set BORDPUNT_SCREENSHOTS to a folder to keep screenshots of the attendance page at phone
and desktop width.
"""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.history import HistoryAction
from clubs.models import Club, HistoryEntry, Membership, Player
from competition.models import Absence, Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings, round_set_status
from games.models import Game, Outcome
from tests.e2e.width import assert_fits
from tests.seats import pair_spec

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "geheim-genoeg-123"


@pytest.fixture
def published_round(django_user_model):
    """Round 1 published: Anke–Bram, Carla–Daan, Els has the bye; Fien and Ineke are not
    there yet (Ineke comes first of the absent by name, and stays away)."""
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    user = django_user_model.objects.create_user("secretaris", password=PASSWORD)
    secretary = Player.objects.create(name="Sietske Secretaris", user=user)
    Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
    competition = Competition.objects.create(club=club, name="Clubcompetitie", slug="clubcomp")
    players = {}
    for name in ("Anke", "Bram", "Carla", "Daan", "Els", "Fien", "Ineke"):
        players[name] = Player.objects.create(name=name)
        entrant_add(competition=competition, player=players[name])
    round_obj = Round.objects.create(competition=competition, number=1)
    Absence.objects.create(round=round_obj, player=players["Fien"])
    Absence.objects.create(round=round_obj, player=players["Ineke"])
    round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(players["Anke"].pk, players["Bram"].pk, table=1),
            pair_spec(players["Carla"].pk, players["Daan"].pk, table=2),
            pair_spec(players["Els"].pk, None),
        ],
    )
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
    return round_obj


def _screenshot(page: Page, name: str) -> None:
    folder = os.environ.get("BORDPUNT_SCREENSHOTS")
    if folder:
        for width in (360, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            page.screenshot(path=str(Path(folder) / f"{name}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})


def test_a_late_arrival_plays_the_bye_without_re_pairing(page: Page, live_server, published_round):
    competition = published_round.competition
    untouched = set(published_round.games.exclude(outcome=Outcome.BYE).values_list("pk", flat=True))
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    page.goto(
        f"{live_server.url}{reverse('attendance', kwargs={**competition.url_kwargs, 'number': 1})}"
    )
    # Nobody present is without a place yet: no late arrival to seat, no absent one offered.
    expect(page.locator("#late")).to_have_count(0)

    # 1. Tick Fien present and save: she has no place, and the page says so.
    page.get_by_label("Fien").check()
    page.locator("#attendance button").click()
    expect(page.locator(".alert-warning").first).to_contain_text(
        "Fien is aanwezig maar heeft geen plaats in de indeling van ronde 1"
    )
    late = page.locator("#late")
    expect(late.get_by_label("Nakomer")).to_have_value(str(Player.objects.get(name="Fien").pk))
    expect(late.get_by_label("Nakomer").locator("option")).to_have_count(1)  # not Ineke
    expect(late).to_contain_text("tegen Els (heeft de vrije ronde)")
    _screenshot(page, "late-arrival-attendance")

    # 2. Seat her against Els, who had the bye: one choice, one click.
    late.locator("label", has_text="tegen Els (heeft de vrije ronde)").click()
    late.get_by_role("button", name="Aan de indeling toevoegen").click()

    expect(page.locator(".alert-success")).to_contain_text("Fien speelt tegen Els aan tafel 3.")
    rows = page.locator("#pairings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(2)).to_contain_text("Els")
    expect(rows.nth(2)).to_contain_text("Fien")
    expect(page.locator("#pairings")).not_to_contain_text("bye")
    _screenshot(page, "late-arrival-round")
    assert Absence.objects.filter(round=published_round, player__name="Ineke").exists()

    game = Game.objects.get(round=published_round, table=3)
    assert (game.players[0].name, game.players[1].name, game.outcome) == ("Els", "Fien", "")
    assert untouched <= set(published_round.games.values_list("pk", flat=True))
    entry = HistoryEntry.objects.get(action=HistoryAction.PAIRING_LATE)
    assert entry.by.username == "secretaris" and entry.game_id == game.pk
    assert entry.after["pairings"] == [[3, ["Els", "Fien"], None]]


PHONE = {"width": 360, "height": 740}


def test_on_a_phone_tick_save_and_seat_take_four_taps(browser, live_server, published_round):
    """Ineke (first by name) stays absent, Fien comes in: ticked, saved, seated against Els
    with four taps in all, and every choice readable in full at 360 px."""
    competition = published_round.competition
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="nl-NL")
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    page.goto(
        f"{live_server.url}{reverse('attendance', kwargs={**competition.url_kwargs, 'number': 1})}"
    )
    taps = []

    def tap(locator) -> None:
        taps.append(locator)
        locator.tap()

    tap(page.get_by_label("Fien"))
    tap(page.locator("#attendance button"))
    late = page.locator("#late")
    expect(late.get_by_label("Nakomer")).to_have_value(str(Player.objects.get(name="Fien").pk))
    # Each place wraps inside the screen: nothing cut off, no sideways scrolling.
    for choice in late.locator("label.late-choice").all():
        box = choice.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert choice.evaluate("label => label.scrollWidth <= label.clientWidth")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')].filter(
            e => e.getBoundingClientRect().right > 360).map(
            e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)"""
    )
    assert wide == [], (wide, page.evaluate("innerWidth"))
    assert_fits(page)
    tap(late.locator("label", has_text="tegen Els (heeft de vrije ronde)"))
    tap(late.get_by_role("button", name="Aan de indeling toevoegen"))

    expect(page.locator(".alert-success")).to_contain_text("Fien speelt tegen Els aan tafel 3.")
    assert len(taps) <= 4
    game = Game.objects.get(round=published_round, table=3)
    assert (game.players[0].name, game.players[1].name) == ("Els", "Fien")
    assert Absence.objects.filter(round=published_round, player__name="Ineke").exists()
    context.close()
