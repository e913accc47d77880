"""The board at a table of 4 on a phone (360×740, touch), issue 20 point 4: nothing scrolls
sideways, the score line of all four fits and reads, every control is big enough to tap
(the clock's four buttons too), and a short game is entered move by move through the real
page, from the starter's choice to the end racks, ending with the adjusted final scores on
the seats."""

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

import rules
from clubs.models import Player
from competition.models import Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from games.clock import clock_start
from games.models import Game, Outcome
from games.services import PairingSpec
from tests.e2e.conftest import club_with_secretary
from tests.e2e.test_board_entry import _login
from tests.e2e.test_tap_targets import MEASURE, MINIMUM
from tests.e2e.width import assert_fits
from tests.games.tables import self_played

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
NAMES = ("Anke", "Bram", "Cor", "Door")


@pytest.fixture
def table_of_four(django_user_model) -> Game:
    """A published round of a standard-rules competition (25 minutes a player) with one
    table: Anke, Bram, Cor, Door; the secretary logs in as "secretaris"."""
    club = club_with_secretary(django_user_model, "De Vier Winden", "vierwinden")
    competition = Competition.objects.create(
        club=club,
        name="Donderdagavond",
        slug="donderdag",
        rules=Competition.Rules.STANDARD,
        clock_minutes=25,
    )
    players = [Player.objects.create(name=name) for name in NAMES]
    for player in players:
        entrant_add(competition=competition, player=player)
    round_obj = Round.objects.create(
        competition=competition, number=1, status=Round.Status.PUBLISHED
    )
    (game,) = round_set_pairings(
        round=round_obj,
        pairings=[
            PairingSpec(
                players=tuple(player.pk for player in players),
                table=1,
                rules=rules.STANDARD.to_dict(),
            )
        ],
    )
    return game


def _phone(page: Page, browser: Browser, live_server) -> Page:
    _login(page, live_server)
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="nl-NL")
    phone.add_cookies(page.context.cookies())
    return phone.new_page()


def _fits(touch: Page) -> None:
    """No sideways scroll; each player's name and score on the screen, readable."""
    assert_fits(touch)
    for box in touch.locator("#status .player-score").all():
        bounds = box.bounding_box()
        assert bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= PHONE["width"]
    sizes = touch.locator("#status .score").evaluate_all(
        "(scores) => scores.map((s) => parseFloat(getComputedStyle(s).fontSize))"
    )
    assert len(sizes) == 4 and min(sizes) >= 16, sizes


def test_a_short_game_at_a_table_of_four_on_a_phone(
    page: Page, live_server, table_of_four, browser, tmp_path
):
    played = self_played(4, 5, names=NAMES, starter=2)
    plays, next_racks = played.turns[:4], played.turns[4:8]
    touch = _phone(page, browser, live_server)
    touch.goto(f"{live_server.url}{reverse('board', args=[table_of_four.pk])}")
    # The starter's choice offers all four; Cor starts.
    expect(touch.locator("#starter-form button[name=starter]")).to_have_count(4)
    touch.locator('#starter-form button[value="2"]').tap()
    expect(touch.locator("#to-move")).to_have_text("Cor is aan de beurt")
    _fits(touch)

    number = 0
    for seat, notation, _rack in plays:
        expect(touch.locator("#to-move")).to_contain_text(NAMES[seat])
        touch.locator("#id_notation").tap()
        touch.keyboard.type(notation)
        touch.locator("#save-play").tap()
        number += 1
        expect(touch.locator(f'#scoresheet tr[data-move="{number}"]')).to_contain_text(NAMES[seat])
        _fits(touch)
    scores = [0] * 4
    for seat, result in zip((2, 3, 0, 1), played.engine.history[:4], strict=True):
        scores[seat] = result.score
    expect(touch.locator("#status .score")).to_have_text([str(score) for score in scores])

    for _pass in range(8):  # everyone passes twice: the game ends, tiles in the bag
        touch.locator("#pass-form button").tap()
        number += 1
        expect(touch.locator(f'#scoresheet tr[data-move="{number}"]')).to_be_visible()
    _fits(touch)

    # The end racks, asked one player at a time in table order: what each held.
    racks = {seat: rack for seat, _notation, rack in next_racks}
    for seat in range(4):
        expect(touch.locator("#end-rack-of")).to_have_text(NAMES[seat])
        touch.locator("#id_tiles_end").tap()
        touch.keyboard.type(racks[seat])
        touch.keyboard.press("Enter")
        number += 1
        expect(touch.locator(f'#scoresheet tr[data-move="{number}"]')).to_be_visible()
    value = rules.DUTCH.value
    final = [scores[seat] - sum(value(tile) for tile in racks[seat]) for seat in range(4)]
    expect(touch.locator("#game-over")).to_contain_text(" – ".join(map(str, final)))
    winners = [NAMES[seat] for seat in range(4) if final[seat] == max(final)]
    verb = "wint" if len(winners) == 1 else "winnen"
    expect(touch.locator("#game-over")).to_contain_text(f"{' & '.join(winners)} {verb}")
    expect(touch.locator("#status .score")).to_have_text([str(score) for score in final])
    _fits(touch)
    touch.screenshot(path=tmp_path / "table-of-four-over.png", full_page=True)

    game = Game.objects.with_seats().get(pk=table_of_four.pk)
    assert game.outcome == Outcome.NORMAL
    assert [seat.score for seat in game.seat_list] == final
    assert [seat.place for seat in game.seat_list] == list(
        rules.result.places("normal", scores=final)
    )


def test_the_board_of_a_table_of_four_with_its_clock_fits_a_phone(
    page: Page, live_server, table_of_four, browser, tmp_path, django_user_model
):
    game = Game.objects.with_seats().select_related("round__competition").get(pk=table_of_four.pk)
    game.starter = 0
    game.save(update_fields=["starter"])
    clock_start(game=game, by=django_user_model.objects.get(username="secretaris"))
    touch = _phone(page, browser, live_server)
    touch.goto(f"{live_server.url}{reverse('board', args=[table_of_four.pk])}")
    expect(touch.locator(".clock-side")).to_have_count(4)
    touch.screenshot(path=tmp_path / "table-of-four-clock.png", full_page=True)
    _fits(touch)
    for side in touch.locator(".clock-side").all():
        bounds = side.bounding_box()
        assert bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= PHONE["width"]
        time = side.locator(".clock-time").bounding_box()
        assert (
            time["x"] >= bounds["x"] and time["x"] + time["width"] <= bounds["x"] + bounds["width"]
        ), "the time overflows its button"
    measured = touch.evaluate(MEASURE, MINIMUM)
    assert measured["measured"] > 0 and measured["small"] == [], measured
