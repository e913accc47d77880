"""A table of 4 enters and confirms its own result (games/confirmation.py): any player may
enter it, it is confirmed once every other player who came has, a different entry by
anyone is a dispute for the secretary; the page says who has confirmed and who has not
yet."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from games.confirmation import (
    ConfirmationError,
    game_result_confirm,
    game_result_enter,
    game_result_override,
)
from games.models import Confirmation, Game, Outcome, ResultState
from games.services import ResultInput
from tests.factories import GameFactory, RoundFactory, user_in_club

pytestmark = pytest.mark.django_db

SCORES = (300, 412, 290, 250)


@pytest.fixture(autouse=True)
def dutch():
    with translation.override("nl"):
        yield


@pytest.fixture
def four(club):
    users = [user_in_club(club, username=name) for name in ("anna", "bram", "cor", "dien")]
    for user in users:
        user.player.name = user.username
        user.player.save()
    return users


@pytest.fixture
def foursome(competition, four):
    competition.rules = competition.Rules.STANDARD
    competition.save()
    return GameFactory(
        round=RoundFactory(competition=competition),
        table=1,
        players=[user.player for user in four],
    )


def fresh(game) -> Game:
    return Game.objects.with_seats().get(pk=game.pk)


def confirmed_by(game) -> list[int]:
    return [seat.position for seat in fresh(game).seat_list if seat.confirmed]


def actions(game) -> list[str]:
    entries = HistoryEntry.objects.filter(game_id=game.pk).order_by("at", "pk")
    return list(entries.values_list("action", flat=True))


def test_confirmed_only_when_every_other_player_has(foursome, four):
    anna, bram, cor, dien = four
    game = game_result_enter(game=foursome, result=ResultInput("normal", SCORES), by=cor)
    assert (game.confirmation, game.claimed_by, confirmed_by(game)) == ("provisional", 2, [2])
    game = game_result_confirm(game=fresh(game), by=anna, expected_version=game.version)
    assert game.confirmation == Confirmation.PROVISIONAL and confirmed_by(game) == [0, 2]
    # The same result entered again by another player confirms it too.
    game = game_result_enter(
        game=fresh(game),
        result=ResultInput("normal", SCORES),
        by=dien,
        expected_version=game.version,
    )
    assert game.confirmation == Confirmation.PROVISIONAL and confirmed_by(game) == [0, 2, 3]
    with pytest.raises(ConfirmationError, match="zelf ingevoerd"):
        game_result_confirm(game=fresh(game), by=cor)
    with pytest.raises(ConfirmationError, match="al bevestigd"):
        game_result_confirm(game=fresh(game), by=anna)
    game = game_result_confirm(game=fresh(game), by=bram, expected_version=game.version)
    assert game.result_state == ResultState.CONFIRMED
    assert actions(game).count(HistoryAction.RESULT_CONFIRM) == 3


def test_a_different_entry_by_anyone_is_a_dispute_for_the_secretary(foursome, four, secretary):
    anna, bram, cor, dien = four
    game = game_result_enter(game=foursome, result=ResultInput("normal", SCORES), by=anna)
    game = game_result_confirm(game=fresh(game), by=bram)
    game = game_result_enter(
        game=fresh(game),
        result=ResultInput("flag_d", SCORES),
        by=dien,
        expected_version=game.version,
    )
    game = fresh(game)
    assert game.confirmation == Confirmation.DISPUTED
    assert game.counter_result["by"] == 3 and game.counter_result["flag_fell"] == [3]
    assert game.scores == SCORES and game.outcome == "normal"  # the first entry stays
    with pytest.raises(ConfirmationError, match="secretaris"):
        game_result_confirm(game=fresh(game), by=cor)
    # The secretary's dispute view: each seat's stand, the other entry with its player.
    client_page = _page(secretary, game)
    assert _stands(client_page) == [
        ("entered", "anna"),
        ("confirmed", "bram"),
        ("waiting", "cor"),
        ("other", "dien"),
    ]
    assert "vlag gevallen: " in client_page
    game = game_result_override(
        game=fresh(game), result=ResultInput("flag_d", SCORES), by=secretary, reason="klok"
    )
    game = fresh(game)
    assert game.confirmation == Confirmation.CONFIRMED
    assert [seat.place for seat in game.seat_list] == [2, 1, 3, 4]
    assert HistoryAction.RESULT_DISPUTE in actions(game)
    assert HistoryAction.RESULT_OVERRIDE in actions(game)


def test_a_player_not_at_the_table_may_not_enter(foursome, club, client):
    outsider = user_in_club(club, username="eva")
    with pytest.raises(ConfirmationError) as refused:
        game_result_enter(game=foursome, result=ResultInput("normal", SCORES), by=outsider)
    assert refused.value.forbidden
    assert "spelers aan deze tafel" in str(refused.value.message)
    client.force_login(outsider)
    assert client.get(reverse("game_result", kwargs={"game_id": foursome.pk})).status_code == 403


def test_odd_input_on_the_players_page_is_refused_and_changes_nothing(foursome, four, client):
    client.force_login(four[1])
    url = reverse("game_result", kwargs={"game_id": foursome.pk})
    for data in (
        {"score_a": "٣٠٠", "score_b": 1, "score_c": 2, "score_d": 3},
        {"score_a": "9" * 40, "score_b": 1, "score_c": 2, "score_d": 3},
        {"score_a": 1, "score_b": 2, "score_c": 3},
        {"score_a": 1, "score_b": 2, "score_c": 3, "score_d": 4, "kind": "flag_abcd"},
        {"score_a": "\x00", "score_b": 2, "score_c": 3, "score_d": 4},
    ):
        data = {"action": "enter", "kind": "normal", "version": foursome.version, **data}
        response = client.post(url, data)
        assert response.status_code == 200
        html = response.content.decode()
        shown = re.findall(r'(?:alert-danger[^>]*>|invalid-feedback">)([^<]+)', html)
        dutch = {"Controleer de gemarkeerde velden.", "Vul de bordpunten van elke speler in."}
        assert shown and shown[0] in dutch, shown
    assert fresh(foursome).outcome == Outcome.PENDING
    assert fresh(foursome).version == foursome.version
    assert HistoryEntry.objects.filter(game_id=foursome.pk).count() == 0


def test_the_players_page_shows_who_has_confirmed(foursome, four, client):
    _anna, bram, cor, dien = four
    client.force_login(bram)
    url = reverse("game_result", kwargs={"game_id": foursome.pk})
    data = {"action": "enter", "kind": "normal", "version": foursome.version}
    data.update(zip(("score_a", "score_b", "score_c", "score_d"), SCORES, strict=True))
    response = client.post(url, data)
    assert response.status_code == 302
    game = game_result_confirm(game=fresh(foursome), by=dien)
    html = _page(cor, game)
    assert _stands(html) == [
        ("waiting", "anna"),
        ("entered", "bram"),
        ("waiting", "cor (jij)"),
        ("confirmed", "dien"),
    ]
    assert 'id="confirm-form"' in html  # Cor may still confirm


def _page(user, game) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    response = client.get(reverse("game_result", kwargs={"game_id": game.pk}))
    assert response.status_code == 200
    return response.content.decode()


def _stands(html: str) -> list[tuple[str, str]]:
    block = html.split('id="seat-stands"', 1)[1].split("</ul>", 1)[0]
    return [
        (stand, re.sub(r"\s+", " ", f"{name}{you}").strip())
        for stand, name, you in re.findall(
            r'data-stand="(\w+)">.*?<strong>([^<]+)</strong>( \(jij\))?', block, re.S
        )
    ]


def test_who_did_not_come_is_not_asked_to_confirm(foursome, four, client):
    """Cor did not come: the three who played confirm their game without him, and the
    page says that Cor did not come instead of waiting for him."""
    anna, bram, _cor, dien = four
    client.force_login(bram)
    url = reverse("game_result", kwargs={"game_id": foursome.pk})
    data = {"action": "enter", "kind": "forfeit_c", "version": foursome.version}
    data.update(score_a=300, score_b=412, score_c="", score_d=250)
    html = client.post(url, data, follow=True).content.decode()
    assert "voorlopig tot anna en dien hem bevestigt" in html
    assert "wacht op bevestiging door anna en dien." in html
    game = game_result_confirm(game=fresh(foursome), by=dien)
    assert game.confirmation == Confirmation.PROVISIONAL
    assert _stands(_page(anna, game)) == [
        ("waiting", "anna (jij)"),
        ("entered", "bram"),
        ("absent", "cor"),
        ("confirmed", "dien"),
    ]
    assert "kwam niet" in _page(anna, game)
    game = game_result_confirm(game=fresh(game), by=anna)
    assert game.confirmation == Confirmation.CONFIRMED


def test_one_who_came_alone_waits_for_the_table_or_the_secretary(foursome, four, secretary):
    """Only Anna came: her walk-over against the three others is not confirmed by her
    alone; the others (or the secretary) confirm it."""
    anna, bram, cor, _dien = four
    game = game_result_enter(game=foursome, result=ResultInput("forfeit_bcd"), by=anna)
    assert game.confirmation == Confirmation.PROVISIONAL
    for user in (bram, cor):
        game = game_result_confirm(game=fresh(game), by=user)
        assert game.confirmation == Confirmation.PROVISIONAL
    game = game_result_confirm(game=fresh(game), by=secretary)
    assert game.confirmation == Confirmation.CONFIRMED
    assert [seat.place for seat in fresh(game).seat_list] == [1, None, None, None]
