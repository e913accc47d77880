"""The standings, the crosstable, a round's results and the duplicate rankings on a phone
(360 × 740) and on a laptop (1280 px), with the demo club's data (issue 38).

On a phone each table shows what matters there without scrolling sideways (place, name,
match points, board points; a round's table, players and scores; a duplicate rank, name,
total and percentage): the table is no wider than its box and those cells of the last row
lie wholly on the screen. Its "Alle kolommen" button (a real button, aria-expanded, at least
44 × 44 px) shows the other columns. At 1280 px every column shows, as before, and there
is no button.
"""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.demo_copy import seed

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 900}

#: (page, the table's id or selector, the cells of a row a phone shows without asking).
TABLES = [
    # A club competition of 24 players ranked by totals with three tiebreaks.
    ("/gouda/competitie-2026/", "#standings-g0", 4),
    # Thursday foursomes: the relative score (a fraction) among the tiebreaks.
    ("/gouda/viertallen-2026/", "#standings-g0", 4),
    # Place and name are the row's headers; the grid of opponents comes on demand.
    ("/gouda/competitie-2026/kruistabel/", "#crosstable", 4),
    ("/gouda/gouds-open-2026/kruistabel/", "#crosstable", 4),
    # Walk-overs and a game not properly played: their marks wrap in the score's cell. A
    # visitor's round has no other columns, so no button (the secretary's: below).
    ("/gouda/gouds-open-2026/ronde/1/", "#pairings", 4),
    ("/gouda/duplicate-2026/duplicate/1/", "#ranking", 4),
    ("/gouda/duplicate-2026/duplicate/", "#season", 3),
]

LAST_ROW = """table => {
    const rows = table.tBodies[0].rows;
    const row = rows[rows.length - 1];
    // "instant": Bootstrap scrolls smoothly, and the cells would be measured mid-way.
    row.scrollIntoView({block: "center", behavior: "instant"});
    const cells = [...row.cells];
    const shown = cells.filter(cell => getComputedStyle(cell).display !== "none");
    return {
        tableWidth: table.scrollWidth,
        boxWidth: table.parentElement.clientWidth,
        cells: cells.length,
        shown: shown.map(cell => {
            const box = cell.getBoundingClientRect();
            return {text: cell.textContent.trim(), left: box.left, right: box.right,
                    top: box.top, bottom: box.bottom};
        }),
    };
}"""


@pytest.fixture
def demo_club(transactional_db):
    seed()


def _last_row(page: Page, selector: str) -> dict:
    return page.locator(selector).evaluate(LAST_ROW)


def _on_the_screen(cell: dict) -> bool:
    return (
        cell["left"] >= 0
        and cell["right"] <= PHONE["width"]
        and cell["top"] >= 0
        and cell["bottom"] <= PHONE["height"]
    )


def test_every_table_shows_what_matters_on_a_phone_and_the_rest_on_demand(
    browser: Browser, live_server, demo_club
):
    page = browser.new_context(viewport=PHONE, locale="nl-NL").new_page()
    for path, selector, essential in TABLES:
        page.goto(f"{live_server.url}{path}")
        row = _last_row(page, selector)
        where = f"{path} {selector}"
        assert row["tableWidth"] <= row["boxWidth"], f"{where} scrolls sideways"
        assert len(row["shown"]) == essential, f"{where}: {row['shown']}"
        assert all(cell["text"] for cell in row["shown"]), f"{where}: an empty cell"
        off = [cell["text"] for cell in row["shown"] if not _on_the_screen(cell)]
        assert not off, f"{where}: {off} not wholly on the screen"

        button = page.locator(f'button.columns-toggle[aria-controls="{selector[1:]}"]')
        if row["cells"] == essential:
            expect(button).to_have_count(0)
            continue
        expect(button).to_have_accessible_name("Alle kolommen")
        expect(button).to_have_attribute("aria-expanded", "false")
        size = button.bounding_box()
        assert size["width"] >= 44 and size["height"] >= 44, f"{where}: {size}"
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(button).to_have_accessible_name("Minder kolommen")
        row = _last_row(page, selector)
        assert len(row["shown"]) == row["cells"] > essential, f"{where}: columns still hidden"
        button.click()
        expect(button).to_have_attribute("aria-expanded", "false")
        assert len(_last_row(page, selector)["shown"]) == essential
    page.context.close()


def test_the_results_table_of_the_secretary_fits_a_phone_in_english(
    browser: Browser, live_server, demo_club
):
    """The secretary's round page adds a column of states and buttons: on a phone it comes
    with the button, here in English."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", "bordpunt-demo")
    page.locator("main form button").click()
    expect(page.locator("nav")).to_contain_text("secretaris")
    page.goto(f"{live_server.url}/gouda/competitie-2026/ronde/7/")
    row = _last_row(page, "#pairings")
    assert row["tableWidth"] <= row["boxWidth"]
    assert len(row["shown"]) == 4 and all(_on_the_screen(cell) for cell in row["shown"])
    button = page.locator('button.columns-toggle[aria-controls="pairings"]')
    expect(button).to_have_accessible_name("All columns")
    button.click()
    # A game's state (a bye has none; it is the first row on SQLite, the last on PostgreSQL).
    expect(page.locator("#pairings tbody tr .result-state").last).to_be_visible()
    context.close()


def test_a_laptop_shows_every_column_without_the_button(browser: Browser, live_server, demo_club):
    page = browser.new_context(viewport=LAPTOP).new_page()
    for path, selector, essential in TABLES:
        page.goto(f"{live_server.url}{path}")
        row = _last_row(page, selector)
        assert len(row["shown"]) == row["cells"] >= essential, path
        # A crosstable of 24 players is wider than a laptop, and scrolls in its box as before.
        if path != "/gouda/competitie-2026/kruistabel/":
            assert row["tableWidth"] <= row["boxWidth"], path
        expect(page.locator(".columns-toggle")).to_be_hidden()
    page.context.close()
