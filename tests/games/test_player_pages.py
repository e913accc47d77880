"""The players' pages: "Mijn partijen", a game's result page and the board for the two
players. Who may open them, what each sees, and a fixed number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.confirmation import game_result_enter
from games.models import Game
from games.services import ResultInput
from tests.factories import GameFactory, RoundFactory, UserFactory, user_in_club

pytestmark = pytest.mark.django_db


def urls(game) -> dict[str, str]:
    return {
        "result": reverse("game_result", args=[game.pk]),
        "board": reverse("board", args=[game.pk]),
    }


def test_anonymous_visitors_log_in_first(client, table):
    for url in [*urls(table).values(), reverse("my_games")]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    response = client.post(urls(table)["result"], {"action": "confirm", "version": 0})
    assert response.status_code == 302
    assert Game.objects.get(pk=table.pk).version == 0


def test_another_player_and_another_clubs_secretary_get_403(client, club, table, other_secretary):
    cor = user_in_club(club, username="cor")
    for user in (cor, other_secretary, UserFactory()):
        client.force_login(user)
        for url in urls(table).values():
            assert client.get(url).status_code == 403
        response = client.post(
            urls(table)["result"],
            {"action": "enter", "version": 0, "kind": "normal", "score_a": "1", "score_b": "0"},
        )
        assert response.status_code == 403
        assert (
            client.post(urls(table)["board"], {"version": 0, "notation": "8H WOORD"}).status_code
            == 403
        )
    assert Game.objects.get(pk=table.pk).version == 0


def test_a_draft_rounds_game_is_a_404_to_its_players(client, table, anna, secretary):
    table.round.status = "draft"
    table.round.save()
    client.force_login(anna)
    assert client.get(urls(table)["result"]).status_code == 404
    client.force_login(secretary)
    assert client.get(urls(table)["result"]).status_code == 200


def test_the_two_players_and_the_secretary_open_the_pages(client, table, anna, bert, secretary):
    for user in (anna, bert, secretary):
        client.force_login(user)
        for url in urls(table).values():
            assert client.get(url).status_code == 200


def test_a_player_enters_moves_on_the_board_of_their_own_game(client, table, anna, bert):
    client.force_login(anna)
    response = client.post(
        urls(table)["board"], {"version": 0, "kind": "play", "notation": "8H WOORD"}
    )
    assert response.status_code == 302
    assert table.moves.count() == 1
    client.force_login(bert)
    table.refresh_from_db()
    response = client.post(urls(table)["board"], {"version": table.version, "kind": "flagfall"})
    table.refresh_from_db()
    assert table.outcome == "flag_fall"
    assert (table.confirmation, table.claimed_by) == ("provisional", 1)
    page = client.get(urls(table)["result"]).content.decode()
    assert "wacht op bevestiging" in page.lower()


def test_a_disputed_game_entered_move_by_move_is_decided_on_the_board_or_confirmed(
    client, table, anna, bert, secretary
):
    """A final score cannot replace the moves: the page says so instead of offering a form
    that can only be refused. The opponent can still dispute; the secretary confirms the
    result of the moves (or corrects a move on the board)."""
    client.force_login(anna)
    client.post(urls(table)["board"], {"version": 0, "kind": "play", "notation": "8H WOORD"})
    table.refresh_from_db()
    client.post(urls(table)["board"], {"version": table.version, "kind": "flagfall"})
    table.refresh_from_db()
    assert (table.outcome, table.claimed_by) == ("flag_fall", 0)
    page = client.get(urls(table)["result"]).content.decode()
    assert 'id="by-moves-note"' in page and 'id="result-form"' not in page
    assert "Corrigeer dan de zetten op het bord." in page

    client.force_login(bert)  # Bert had his flag still up: he disputes with his score
    page = client.get(urls(table)["result"]).content.decode()
    assert 'id="result-form"' in page and 'id="by-moves-note"' not in page
    client.post(
        urls(table)["result"],
        {"action": "enter", "version": table.version, "kind": "normal"}
        | {"score_a": "20", "score_b": "30"},
    )
    table.refresh_from_db()
    assert table.confirmation == "disputed"

    client.force_login(secretary)
    page = client.get(urls(table)["result"]).content.decode()
    assert 'id="confirm-form"' in page and 'id="by-moves-note"' in page
    assert 'id="result-form"' not in page
    response = client.post(
        urls(table)["result"], {"action": "confirm", "version": table.version}, follow=True
    )
    assert "Uitslag bevestigd." in response.content.decode()
    table.refresh_from_db()
    assert (table.outcome, table.confirmation) == ("flag_fall", "confirmed")

    # Confirmed, the players can no longer change the moves: no note sends them there.
    client.force_login(anna)
    page = client.get(urls(table)["result"]).content.decode()
    assert 'id="by-moves-note"' not in page and 'id="result-form"' not in page


def test_odd_input_on_the_result_page_is_a_message_not_an_error(client, table, anna):
    client.force_login(anna)
    for data in (
        {"action": "enter", "version": "x", "kind": "normal", "score_a": "1", "score_b": "0"},
        {"action": "enter", "version": 0, "kind": "normal", "score_a": "٣", "score_b": "²"},
        {"action": "enter", "version": 0, "kind": "normal", "score_a": "9" * 30, "score_b": "0"},
        {"action": "enter", "version": 0, "kind": "\x00", "score_a": "1", "score_b": "0"},
        {"action": "confirm", "version": "-1"},
        {"action": "confirm", "version": 0},
        {"action": "override", "version": 0, "kind": "normal", "score_a": "1", "score_b": "0"},
    ):
        response = client.post(urls(table)["result"], data, follow=True)
        assert response.status_code in (200, 403)
    table.refresh_from_db()
    assert (table.outcome, table.version) == ("", 0)


def test_my_games_shows_tonights_game_first(client, competition, anna, bert, club):
    today = timezone.localdate()
    old = RoundFactory(competition=competition, date=today.replace(year=today.year - 1))
    tonight = RoundFactory(competition=competition, date=today)
    finished = RoundFactory(competition=competition, status="finished", date=today)
    older_game = GameFactory(round=old, player_a=anna.player, player_b=bert.player)
    GameFactory(
        round=finished,
        player_a=bert.player,
        player_b=anna.player,
        score_a=300,
        score_b=200,
        outcome="normal",
        winner="a",
    )
    tonights_game = GameFactory(round=tonight, player_a=bert.player, player_b=anna.player)
    client.force_login(anna)
    response = client.get(reverse("my_games"))
    current = [mine.game.pk for mine in response.context["current"]]
    assert current == [tonights_game.pk, older_game.pk]
    assert len(response.context["earlier"]) == 1
    # Her own score first: in the finished game she was second and lost 200-300.
    assert "200 – 300" in response.content.decode()
    assert reverse("password_change") in response.content.decode()


def test_my_games_without_a_player(client):
    client.force_login(UserFactory())
    response = client.get(reverse("my_games"))
    assert response.status_code == 200
    assert "niet gekoppeld" in response.content.decode()


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_my_games_has_a_fixed_query_budget(client, competition, anna, bert):
    client.force_login(anna)
    GameFactory(
        round=RoundFactory(competition=competition), player_a=anna.player, player_b=bert.player
    )
    few = _count(client, reverse("my_games"))
    for _ in range(12):
        game = GameFactory(
            round=RoundFactory(competition=competition), player_a=anna.player, player_b=bert.player
        )
        game_result_enter(game=game, result=ResultInput.of_pair("normal", 300, 200), by=bert)
    assert _count(client, reverse("my_games")) == few <= 6


def test_the_result_page_has_a_fixed_query_budget(client, table, anna, bert, secretary):
    client.force_login(anna)
    before = _count(client, urls(table)["result"])
    game_result_enter(game=table, result=ResultInput.of_pair("normal", 300, 200), by=anna)
    client.force_login(bert)
    after = _count(client, urls(table)["result"])
    assert before == after <= 7
    client.force_login(secretary)
    assert _count(client, urls(table)["result"]) <= 9
