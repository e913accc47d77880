"""A whole club evening at tables of 4, in real browsers (issue 20, point 7): the director
pairs eight players into two tables of 4 and publishes; the secretary types table 1's four
scores with the keyboard; at table 2 one player enters the game move by move on a phone,
from the starter's choice to the end racks, and the three others confirm it on theirs.
The standings then count 2/1/0 against each opponent at the table."""

import json

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

import rules
from clubs.models import Membership, Player
from competition.models import Competition, Round
from competition.services.entrants import entrant_add
from games.models import Confirmation, Game, Outcome
from tests.e2e.conftest import PASSWORD, club_with_secretary
from tests.e2e.test_results_keyboard import CountingKeyboard, focused, results_page
from tests.e2e.width import assert_fits
from tests.games.tables import self_played

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
PLAYERS = ("anke", "bram", "cor", "door", "els", "fien", "gijs", "hans")
TABLE_1_SCORES = (412, 300, 388, 300)


@pytest.fixture
def thursday(django_user_model) -> Round:
    """A club that plays in foursomes under the standard rules: eight players with
    accounts, round 1 not paired yet; the secretary logs in as "secretaris"."""
    club = club_with_secretary(django_user_model, "De Vier Winden", "vierwinden")
    competition = Competition.objects.create(
        club=club,
        name="Donderdagavond",
        slug="donderdag",
        rules=Competition.Rules.STANDARD,
        table_size="4",
    )
    for username in PLAYERS:
        account = django_user_model.objects.create_user(username, password=PASSWORD)
        player = Player.objects.create(name=username.capitalize(), user=account)
        Membership.objects.create(club=club, player=player)
        entrant_add(competition=competition, player=player)
    return Round.objects.create(competition=competition, number=1)


def _log_in(page: Page, live_server, username: str) -> Page:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").click()
    expect(page.locator("nav")).to_contain_text(username)
    return page


def _phone(browser: Browser, live_server, username: str) -> Page:
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="nl-NL")
    return _log_in(phone.new_page(), live_server, username)


def _tables(round_obj: Round) -> list[list[str]]:
    games = Game.objects.filter(round=round_obj).with_seats().order_by("table")
    return [[seat.player.user.username for seat in game.seat_list] for game in games]


def test_an_evening_at_tables_of_four(page: Page, browser: Browser, live_server, thursday):
    competition = thursday.competition
    kwargs = {**competition.url_kwargs, "number": 1}

    # The director pairs the evening: two tables of 4, everyone once, and publishes.
    _log_in(page, live_server, "secretaris")
    page.goto(f"{live_server.url}{reverse('round_pairing', kwargs=kwargs)}")
    page.get_by_role("button", name="Genereren").click()
    rows = page.locator("#tables-review tbody tr")
    expect(rows).to_have_count(2)
    for row in rows.all():
        expect(row.locator(".seat")).to_have_count(4)
    page.get_by_role("button", name="Publiceren").click()
    expect(page.locator(".badge").first).to_have_text("gepubliceerd")
    tables = _tables(thursday)
    assert sorted(name for table in tables for name in table) == sorted(PLAYERS)

    # Table 1 by keyboard on the results page: digits, Tab to the next player, Enter.
    results_page(page, live_server, thursday)
    keyboard = CountingKeyboard(page)
    assert focused(page) == "form-0-score_a"
    for index, score in enumerate(TABLE_1_SCORES):
        keyboard.type(str(score))
        if index < 3:
            keyboard.press("Tab")
    keyboard.press("Enter")
    expect(page.locator(".alert-success").first).to_contain_text("1 uitslag opgeslagen")
    assert keyboard.keys == keyboard.digits + 3 + 1
    first = Game.objects.with_seats().get(round=thursday, table=1)
    assert [seat.score for seat in first.seat_list] == list(TABLE_1_SCORES)
    assert [seat.place for seat in first.seat_list] == [1, 3, 2, 3]
    assert first.confirmation == Confirmation.CONFIRMED  # the secretary's entry

    # Table 2 move by move on the phone of its first player: the starter is drawn at the
    # table, then four plays, everyone passes twice, and the four end racks.
    second = Game.objects.with_seats().get(round=thursday, table=2)
    names = tuple(seat.player.name for seat in second.seat_list)
    keeper = _phone(browser, live_server, tables[1][0])
    keeper.goto(f"{live_server.url}{reverse('board', args=[second.pk])}")
    expect(keeper.locator("#starter-form button[name=starter]")).to_have_count(4)
    keeper.locator('#starter-form button[value="0"]').tap()
    played = self_played(4, 11, names=names, starter=0)
    number = 0
    for seat, notation, _rack in played.turns[:4]:
        expect(keeper.locator("#to-move")).to_contain_text(names[seat])
        keeper.locator("#id_notation").tap()
        keeper.keyboard.type(notation)
        keeper.locator("#save-play").tap()
        number += 1
        expect(keeper.locator(f'#scoresheet tr[data-move="{number}"]')).to_contain_text(names[seat])
    for _pass in range(8):
        keeper.locator("#pass-form button").tap()
        number += 1
        expect(keeper.locator(f'#scoresheet tr[data-move="{number}"]')).to_be_visible()
    racks = {seat: rack for seat, _notation, rack in played.turns[4:8]}
    for seat in range(4):
        expect(keeper.locator("#end-rack-of")).to_have_text(names[seat])
        keeper.locator("#id_tiles_end").tap()
        keeper.keyboard.type(racks[seat])
        keeper.keyboard.press("Enter")
        number += 1
        expect(keeper.locator(f'#scoresheet tr[data-move="{number}"]')).to_be_visible()
    scores = [0] * 4
    for seat, result in zip(range(4), played.engine.history[:4], strict=True):
        scores[seat] = result.score
    final = [scores[s] - sum(rules.DUTCH.value(t) for t in racks[s]) for s in range(4)]
    expect(keeper.locator("#game-over")).to_contain_text(" – ".join(map(str, final)))
    assert_fits(keeper)
    second = Game.objects.with_seats().get(pk=second.pk)
    assert second.outcome == Outcome.NORMAL
    assert [seat.score for seat in second.seat_list] == final
    assert second.confirmation == Confirmation.PROVISIONAL

    # The three others confirm on their own phones; the last one makes it confirmed.
    result_url = f"{live_server.url}{reverse('game_result', kwargs={'game_id': second.pk})}"
    for count, username in enumerate(tables[1][1:], start=1):
        phone = _phone(browser, live_server, username)
        phone.goto(f"{live_server.url}{reverse('my_games')}")
        expect(phone.locator("#current-games")).to_contain_text("bevestig de uitslag")
        phone.goto(result_url)
        phone.locator("#confirm-form button").click()
        expect(phone.locator(".alert-success").first).to_be_visible()
        assert_fits(phone)
        second = Game.objects.with_seats().get(pk=second.pk)
        assert sum(seat.confirmed for seat in second.seat_list) == count + 1
        expected = Confirmation.CONFIRMED if count == 3 else Confirmation.PROVISIONAL
        assert second.confirmation == expected

    # The standings: 2/1/0 against each opponent at the table; board points the own score.
    standings = json.loads(
        page.request.get(
            f"{live_server.url}{reverse('standings_json', kwargs=competition.url_kwargs)}"
        ).text()
    )
    by_name = {row["player"]: row for row in standings["rows"]}
    for seat, username in enumerate(tables[0]):
        mine = TABLE_1_SCORES[seat]
        others = TABLE_1_SCORES[:seat] + TABLE_1_SCORES[seat + 1 :]
        points = sum(2 if mine > other else 1 if mine == other else 0 for other in others)
        row = by_name[username.capitalize()]
        assert (row["games"], row["match_points"], row["board_points"]) == (1, points, mine)
    assert [by_name[name.capitalize()]["match_points"] for name in tables[0]] == [6, 1, 4, 1]
    for seat, username in enumerate(tables[1]):
        assert by_name[username.capitalize()]["board_points"] == final[seat]

    # The secretary's round page on a phone: the state and the buttons of every table on
    # the screen, under each other rather than off to the right.
    secretary = _phone(browser, live_server, "secretaris")
    secretary.goto(f"{live_server.url}{reverse('round', kwargs=kwargs)}")
    buttons = secretary.locator("#pairings .btn")
    # Players and scores first; the state and the buttons one tap away ("Alle kolommen"),
    # and kept open on this phone from then on.
    expect(buttons.first).to_be_hidden()
    secretary.get_by_role("button", name="Alle kolommen").tap()
    expect(buttons.first).to_be_visible()
    secretary.reload()
    expect(buttons.first).to_be_visible()
    assert buttons.count() >= len(tables)  # Correct or Board at each, Replay beside moves
    assert_fits(secretary)
    for button in buttons.all():
        box = button.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"], "a table's button is off the screen"
