"""A player's own result form (issue 19, point 7): the reader's own box first, "jouw score",
then the opponent's with the name, whatever the table order; the result stays stored in
table order; every message about a confirmation or a dispute said from the reader's side."""

import re

import pytest
from django.urls import reverse

from games.confirmation import game_result_enter
from games.models import Confirmation, Game
from games.services import ResultInput
from tests.seats import winner

pytestmark = pytest.mark.django_db


def _url(game) -> str:
    return reverse("game_result", args=[game.pk])


def _boxes(html: str) -> list[tuple[str, str]]:
    """The score boxes in page order: (label text, input name)."""
    form = html[html.index('id="result-form"') :]
    found = re.findall(
        r'<label[^>]*for="id_(score_[ab])"[^>]*>(.*?)</label>', form, flags=re.DOTALL
    )
    return [(" ".join(re.sub(r"<[^>]+>", " ", label).split()), name) for name, label in found]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_second_player_sees_their_own_box_first(client, table, bert):
    client.force_login(bert)
    boxes = _boxes(client.get(_url(table)).content.decode())
    assert boxes == [
        (f"Jouw score {bert.player.name}", "score_b"),
        (f"Tegenstander {table.players[0].name}", "score_a"),
    ]


def test_the_first_player_sees_their_own_box_first(client, table, anna):
    client.force_login(anna)
    boxes = _boxes(client.get(_url(table)).content.decode())
    assert [name for _label, name in boxes] == ["score_a", "score_b"]
    assert boxes[0][0] == f"Jouw score {anna.player.name}"


def test_the_secretary_sees_the_names_in_table_order(client, table, secretary):
    client.force_login(secretary)
    boxes = _boxes(client.get(_url(table)).content.decode())
    assert boxes == [(table.players[0].name, "score_a"), (table.players[1].name, "score_b")]


def test_the_second_players_own_score_is_stored_as_theirs(client, table, bert):
    """Bert, second at the table, types 412 into his own box (shown first): it is his."""
    client.force_login(bert)
    response = client.post(
        _url(table),
        {"action": "enter", "version": 0, "kind": "normal", "score_b": "412", "score_a": "388"},
    )
    assert response.status_code == 302
    game = Game.objects.get(pk=table.pk)
    assert (game.scores[0], game.scores[1], winner(game), game.claimed_by) == (388, 412, "b", 1)
    page = _text(client.get(_url(table)).content.decode())
    assert f"Jouw invoer; wacht op bevestiging door {table.players[0].name}." in page
    assert f"{table.players[0].name} bevestigt de uitslag met een eigen account." in page


def test_the_outcomes_name_the_players(client, table, bert):
    client.force_login(bert)
    html = client.get(_url(table)).content.decode()
    assert f"vlag gevallen: {table.players[0].name}<" in html
    assert f"vlag gevallen: {bert.player.name} (jij)<" in html
    assert "eerste speler" not in html and "tweede speler" not in html


def test_a_dispute_reads_from_each_side(client, table, anna, bert, secretary):
    entered = game_result_enter(game=table, result=ResultInput.of_pair("normal", 412, 388), by=anna)
    client.force_login(bert)
    response = client.post(
        _url(table),
        {
            "action": "enter",
            "version": entered.version,
            "kind": "normal",
            "score_b": "412",
            "score_a": "400",
        },
        follow=True,
    )
    assert Game.objects.get(pk=table.pk).confirmation == Confirmation.DISPUTED
    a, b = anna.player.name, bert.player.name
    page = _text(response.content.decode())
    assert f"Jouw invoer verschilt van de invoer van {a}: de secretaris beslist." in page
    # Bert reads his own entry as his, not as "the opponent's result".
    assert f"Invoer van {a}; jouw invoer is anders. De secretaris beslist." in page
    assert f"Jouw invoer: {a} 400 – 412 {b}, {b} wint" in page
    assert "Uitslag van de tegenstander" not in page

    client.force_login(anna)
    page = _text(client.get(_url(table)).content.decode())
    assert f"Jouw invoer; {b} voerde een andere uitslag in. De secretaris beslist." in page
    assert f"Invoer van {b}: {a} 400 – 412 {b}, {b} wint" in page

    client.force_login(secretary)
    page = _text(client.get(_url(table)).content.decode())
    assert f"Invoer van {a}; {b} voerde een andere uitslag in." in page
    assert f"Invoer van {b}: {a} 400 – 412 {b}, {b} wint" in page


def test_the_waiting_player_reads_whose_entry_it_is(client, table, anna, bert):
    game_result_enter(game=table, result=ResultInput.of_pair("normal", 412, 388), by=anna)
    client.force_login(bert)
    page = _text(client.get(_url(table)).content.decode())
    assert f"Invoer van {anna.player.name}; wacht op jouw bevestiging." in page
