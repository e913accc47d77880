"""A table of 4 and a table of 3 typed into the results page with the keyboard alone: the
digits, Tab from each player to the next, `*` and a letter for the outcome, Enter. At phone
width (360 px) the page does not scroll sideways."""

import pytest
from playwright.sync_api import Page, expect

from clubs.models import Player
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from games.models import Game, Outcome
from games.services import PairingSpec
from tests.e2e.test_results_keyboard import CountingKeyboard, focused, login, results_page
from tests.e2e.width import assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_tables(club_evening):
    round_obj = club_evening
    competition = round_obj.competition
    competition.rules = competition.Rules.STANDARD
    competition.save()
    players = [Player.objects.create(name=f"Speler {n}") for n in range(1, 8)]
    for player in players:
        entrant_add(competition=competition, player=player)
    round_set_pairings(
        round=round_obj,
        pairings=[
            PairingSpec(players=tuple(p.pk for p in players[:4]), table=1),
            PairingSpec(players=tuple(p.pk for p in players[4:]), table=2),
        ],
    )
    return round_obj


def test_tables_by_keyboard_alone(page: Page, live_server, two_tables):
    login(page, live_server)
    results_page(page, live_server, two_tables)
    keyboard = CountingKeyboard(page)
    assert focused(page) == "form-0-score_a"
    for score in ("300", "412", "300", "250"):
        keyboard.type(score)
        keyboard.press("Tab")
    for index, score in enumerate(("280", "450", "300")):
        assert focused(page) == f"form-1-score_{'abc'[index]}"
        keyboard.type(score)
        if index < 2:
            keyboard.press("Tab")
    # The second player's flag fell: `*`, then "v" twice ("vlag gevallen: Speler 6").
    keyboard.press("*")
    keyboard.press("v")
    keyboard.press("v")
    expect(page.locator("[name=form-1-kind]")).to_have_value("flag_b")
    keyboard.press("Enter")
    expect(page.locator(".alert-success, .alert-info").first).to_be_visible()
    assert keyboard.keys == keyboard.digits + 6 + 3 + 1
    games = Game.objects.filter(round=two_tables).with_seats().order_by("table")
    assert [[seat.score for seat in game.seat_list] for game in games] == [
        [300, 412, 300, 250],
        [280, 450, 300],
    ]
    assert [seat.place for seat in games[1].seat_list] == [2, 3, 1]
    assert games[1].outcome == Outcome.FLAG_FALL


def test_no_sideways_scroll_on_a_phone(page: Page, live_server, two_tables):
    page.set_viewport_size({"width": 360, "height": 740})
    login(page, live_server)
    results_page(page, live_server, two_tables)
    assert_fits(page)
    # Every score field is in view across, next to its player's name.
    for name in ("form-0-score_d", "form-1-score_c"):
        box = page.locator(f"[name={name}]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
