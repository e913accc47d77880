"""A player checks tonight's round and their own games on a phone (360 px wide): the
pairing, the results with their marks (flag fall, forfeit, provisional) and the replay link
fit the screen, so who plays whom is never off to the right."""

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from clubs.models import Club, Player
from competition.models import Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_record_results, round_set_pairings
from games.confirmation import game_result_enter
from games.moves import move_add
from games.services import ResultEntry, ResultInput, ResultKind
from tests.e2e.width import assert_fits, screen_width
from tests.seats import pair_spec

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
NAMES = [
    "Ursula van der Meer",
    "Youssef el Amrani",
    "Nico van Leeuwen",
    "Quirine de Wit",
    "Marja Hendriks-Bakker",
    "Bram Jansen",
    "Wilma Jacobs",
    "Greet de Boer",
    "Anke de Vries",
]


@pytest.fixture
def evening(django_user_model):
    """Round 1 of nine players: a normal result, a game entered move by move, a flag fall,
    a forfeit, a provisional result by a player, and the bye."""
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    competition = Competition.objects.create(
        club=club, name="Clubcompetitie", slug="clubcompetitie", rules=Competition.Rules.GOUDS_8
    )
    players = [Player.objects.create(name=name) for name in NAMES]
    for player in players:
        entrant_add(competition=competition, player=player)
    round_obj = Round.objects.create(
        competition=competition, number=1, status=Round.Status.PUBLISHED
    )
    games = round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(players[0].pk, players[1].pk, 1, starter="a"),
            pair_spec(players[2].pk, players[3].pk, 2, starter="b"),
            pair_spec(players[4].pk, players[5].pk, 3),
            pair_spec(players[6].pk, players[7].pk, 4),
            pair_spec(players[8].pk, None, None),
        ],
    )
    round_record_results(
        round=round_obj,
        entries=[
            ResultEntry(games[0].pk, ResultInput.of_pair(ResultKind.FLAG_B, 412, 388)),
            ResultEntry(games[2].pk, ResultInput.of_pair(ResultKind.FORFEIT_A)),
        ],
        by=None,
    )
    move_add(game=games[1], notation="8H WOORD", by=None)
    player = players[6]
    player.user = django_user_model.objects.create_user("wilma", password="geheim-genoeg-123")
    player.save()
    game_result_enter(game=games[3], result=ResultInput.of_pair("normal", 333, 222), by=player.user)
    return round_obj, players


def _overflow(page, selector: str) -> int:
    """How far the element reaches past the right edge of the screen, in pixels."""
    right = page.evaluate(
        "(selector) => Math.ceil(document.querySelector(selector).getBoundingClientRect().right)",
        selector,
    )
    return right - screen_width(page)


def test_a_round_and_a_players_games_fit_a_phone(browser: Browser, live_server, evening):
    round_obj, players = evening
    page = browser.new_context(viewport=PHONE, locale="nl-NL").new_page()
    page.goto(f"{live_server.url}{round_obj.get_absolute_url()}")
    table = page.locator("#pairings")
    for name in NAMES:
        expect(table).to_contain_text(name)
    expect(table).to_contain_text("vlag gevallen")
    expect(table.locator(".provisional")).to_have_count(1)
    expect(table.locator(".replay-link")).to_have_count(1)
    assert_fits(page)
    assert _overflow(page, "#pairings") <= 0, "the pairing runs off the screen"

    competition = round_obj.competition
    wilma = players[6]
    page.goto(
        live_server.url
        + reverse("player", kwargs={**competition.url_kwargs, "player_id": wilma.pk})
    )
    result = page.locator("tbody tr td").nth(2)
    expect(result).to_contain_text("333 – 222")
    expect(result.locator(".provisional")).to_be_visible()
    right = result.evaluate("cell => cell.getBoundingClientRect().right")
    assert right <= PHONE["width"], "the result of a game is off the screen"
    page.context.close()
