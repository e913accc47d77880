"""A secretary types a 12-table round into the results page with the keyboard alone, one
flag fall and one forfeit among them, and every key is counted: at most the digits, 2 keys
per table, 3 per special outcome and the final Enter. Then a refused save (a typo, an
implausible score) keeps the typed values and puts the cursor where the fix goes.

Set BORDPUNT_SCREENSHOTS to a folder to keep screenshots at phone and desktop width.
"""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.models import Player
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from games.models import Game, Outcome
from tests.factories import PASSWORD
from tests.seats import Winner, pair_spec, winner

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLES = 12
FLAG_TABLE, FORFEIT_TABLE = 5, 9


class CountingKeyboard:
    """The page's keyboard, counting every key pressed."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.keys = 0
        self.digits = 0

    def type(self, text: str) -> None:
        for char in text:
            self.press(char)
            self.digits += char.isdigit()

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1


@pytest.fixture
def twelve_tables(club_evening):
    round_obj = club_evening
    players = [Player.objects.create(name=f"Speler {n:02}") for n in range(1, 2 * TABLES + 1)]
    for player in players:
        entrant_add(competition=round_obj.competition, player=player)
    round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(players[2 * t].pk, players[2 * t + 1].pk, t + 1) for t in range(TABLES)
        ],
    )
    return round_obj


def login(page: Page, live_server) -> None:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    expect(page.locator("nav")).to_contain_text("secretaris")


def results_page(page: Page, live_server, round_obj) -> None:
    kwargs = {**round_obj.competition.url_kwargs, "number": round_obj.number}
    page.goto(f"{live_server.url}{reverse('round_results', kwargs=kwargs)}")
    # Type only once the page has put the cursor in a score, as a person would see it.
    page.wait_for_function("document.activeElement && document.activeElement.tagName == 'INPUT'")


def focused(page: Page) -> str:
    return page.evaluate("document.activeElement.name || document.activeElement.tagName")


def screenshots(page: Page, name: str) -> None:
    folder = os.environ.get("BORDPUNT_SCREENSHOTS")
    if folder:
        for width in (360, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(Path(folder) / f"{name}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})


def scores_of(table: int) -> tuple[int, int]:
    return 300 + 7 * table, 250 + 11 * table


def test_a_round_of_12_tables_by_keyboard_alone(page: Page, live_server, twelve_tables):
    round_obj = twelve_tables
    login(page, live_server)
    results_page(page, live_server, round_obj)
    screenshots(page, "results-empty")
    keyboard = CountingKeyboard(page)
    assert focused(page) == "form-0-score_a"  # no click, no Tab to get there

    for table in range(1, TABLES + 1):
        last = table == TABLES
        if table == FORFEIT_TABLE:
            # The first player did not come: to the outcome, "w" for walk-over, on.
            keyboard.press("*")
            assert focused(page) == f"form-{table - 1}-kind"
            keyboard.press("w")
            keyboard.press("Tab")
            continue
        score_a, score_b = scores_of(table)
        keyboard.type(str(score_a))
        keyboard.press("Tab")
        keyboard.type(str(score_b))
        if table == FLAG_TABLE:
            # The second player's flag fell: "v" twice picks "vlag gevallen: tweede speler".
            keyboard.press("*")
            keyboard.press("v")
            keyboard.press("v")
            expect(page.locator(f"[name=form-{table - 1}-kind]")).to_have_value("flag_b")
        if last:
            keyboard.press("Enter")
        else:
            keyboard.press("Tab")
            assert focused(page) == f"form-{table}-score_a"

    expect(page.locator(".alert-success")).to_have_text("12 uitslagen opgeslagen.")
    budget = keyboard.digits + 2 * TABLES + 3 * 2 + 1
    print(f"\n{TABLES} tables: {keyboard.keys} keys ({keyboard.digits} digits); budget {budget}")
    assert keyboard.keys <= budget

    results = {
        game.table: (game.outcome, winner(game), game.scores[0], game.scores[1])
        for game in Game.objects.filter(round=round_obj)
    }
    expected = {}
    for table in range(1, TABLES + 1):
        score_a, score_b = scores_of(table)
        won = Winner.A if score_a > score_b else Winner.B
        expected[table] = (Outcome.NORMAL, won, score_a, score_b)
    expected[FLAG_TABLE] = (Outcome.FLAG_FALL, Winner.A, *scores_of(FLAG_TABLE))
    expected[FORFEIT_TABLE] = (Outcome.FORFEIT, Winner.B, None, None)
    assert results == expected


def test_a_refused_save_keeps_every_value_and_the_cursor_goes_to_the_fix(
    page: Page, live_server, twelve_tables
):
    round_obj = twelve_tables
    login(page, live_server)
    results_page(page, live_server, round_obj)
    keyboard = CountingKeyboard(page)
    # Table 1 implausible for Gouds 8, table 2 a typo; the rest left for later.
    keyboard.type("612")
    keyboard.press("Tab")
    keyboard.type("300")
    keyboard.press("Tab")
    page.keyboard.type("2a5")
    keyboard.press("Tab")
    keyboard.type("250")
    keyboard.press("Enter")

    expect(page.locator(".alert-danger")).to_have_text(
        "Er is niets opgeslagen: verbeter de gemarkeerde regels."
    )
    expect(page.locator("#form-0-errors")).to_contain_text(
        "612 is hoger dan gebruikelijk bij Gouds 8 (tot 500)"
    )
    expect(page.locator("#form-1-errors")).to_contain_text(
        "Tafel 2: Bordpunten van Speler 03: Typ alleen de cijfers 0 tot en met 9"
    )
    screenshots(page, "results-refused")
    assert focused(page) == "form-0-score_a"
    values = page.eval_on_selector_all("input.score", "inputs => inputs.map(i => i.value)")
    assert values[:4] == ["612", "300", "2a5", "250"]
    assert Game.objects.filter(round=round_obj).exclude(outcome=Outcome.PENDING).count() == 0

    # 612 is right: Tab, Tab to the row's "klopt", Space; then fix the typo and save.
    keyboard.press("Tab")
    keyboard.press("Tab")
    assert focused(page) == "form-0-confirm"
    keyboard.press("Space")
    keyboard.press("Tab")
    assert focused(page) == "form-1-score_a"
    keyboard.type("25")
    keyboard.press("Enter")
    expect(page.locator(".alert-success")).to_have_text("2 uitslagen opgeslagen.")
    saved = Game.objects.filter(round=round_obj, table__in=[1, 2]).order_by("table")
    assert [game.scores for game in saved.with_seats()] == [(612, 300), (25, 250)]
