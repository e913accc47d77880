"""The results page when games change under it: the open rows are saved, exactly the rows
that changed are marked, and what the secretary typed in them is shown again.

The secretary's form is read from the page as the browser would post it (hidden fields
included), so these tests post what a real page posts.
"""

import pytest
from django.db import connection, transaction
from django.utils import translation

from competition.services.rounds import round_record_results
from games.models import Game, Move
from games.moves import move_add
from games.services import ResultEntry, ResultInput, game_record_result
from tests.competition.test_results_entry import results_url
from tests.competition.test_results_entry import round_games as round_games  # the fixture
from tests.test_lock_order import Beside
from tests.test_odd_forms import post_forms

pytestmark = pytest.mark.django_db

BOARD_DECIDES_NL = "Aan het bord ingevoerd in de tussentijd: het bord beslist."
CHANGED_NL = "Iemand anders heeft deze uitslag intussen gewijzigd."


def as_posted(fields: dict[str, list[str]]) -> dict[str, str]:
    """A read form's fields as the browser posts them: the first value of each (the
    outcome select: "normal", as every row here shows), no ticked checkbox."""
    data = {name: values[0] for name, values in fields.items() if values}
    data.update({name: "normal" for name in data if name.endswith("-kind")})
    return {name: value for name, value in data.items() if not name.endswith("-confirm")}


def page_form(client, url) -> dict[str, str]:
    html = client.get(url).content.decode()
    (form,) = [form for form in post_forms(html, url) if "form-TOTAL_FORMS" in form["fields"]]
    return as_posted(form["fields"])


def row_index(data: dict, game: Game) -> int:
    return next(
        int(name.split("-")[1])
        for name, value in data.items()
        if name.endswith("-game") and value == str(game.pk)
    )


def typed(data: dict, game: Game, a: int, b: int) -> None:
    index = row_index(data, game)
    data[f"form-{index}-score_a"], data[f"form-{index}-score_b"] = str(a), str(b)


def scores(game: Game) -> tuple:
    game.refresh_from_db()
    return game.scores[0], game.scores[1]


def test_a_first_board_move_meanwhile_saves_the_other_rows_and_marks_that_one(
    secretary_client, round_games
):
    round_obj, (one, two, three) = round_games
    url = results_url(round_obj)
    data = page_form(secretary_client, url)
    for game, (a, b) in zip((one, two, three), ((300, 200), (310, 210), (320, 220)), strict=True):
        typed(data, game, a, b)
    move_add(game=two, notation="8H WOORD", by=None)  # a tablet at table 2, after the page

    with translation.override("nl"):
        response = secretary_client.post(url, data)

    assert response.status_code == 200
    html = response.content.decode()
    assert scores(one) == (300, 200) and scores(three) == (320, 220)
    assert scores(two) == (None, None)
    assert Move.objects.filter(game=two).count() == 1
    assert BOARD_DECIDES_NL in html
    assert "Je typte 310 – 210; dat is niet opgeslagen." in html
    assert "2 uitslagen opgeslagen." in html
    assert "Er is niets opgeslagen" not in html


def test_a_result_from_another_device_meanwhile_is_marked_and_the_typed_one_kept(
    secretary_client, round_games
):
    round_obj, (one, two, _three) = round_games
    url = results_url(round_obj)
    data = page_form(secretary_client, url)
    typed(data, one, 300, 200)
    typed(data, two, 310, 210)
    game_record_result(game=two, result=ResultInput.of_pair("normal", 250, 260), by=None)

    with translation.override("nl"):
        response = secretary_client.post(url, data)

    html = response.content.decode()
    assert response.status_code == 200
    assert scores(one) == (300, 200)
    assert scores(two) == (250, 260)  # the other device's result stands
    assert CHANGED_NL in html
    assert "Nu opgeslagen: 250 – 260 (normaal)." in html
    (form,) = [form for form in post_forms(html, url) if "form-TOTAL_FORMS" in form["fields"]]
    again = as_posted(form["fields"])
    index = row_index(again, two)
    assert (again[f"form-{index}-score_a"], again[f"form-{index}-score_b"]) == ("310", "210")

    # Saving the page again, with a reason, is a deliberate overwrite of the other result.
    again[f"form-{index}-reason"] = "uitslag van het wedstrijdblad"
    response = secretary_client.post(url, again)
    assert response.status_code == 302
    assert scores(two) == (310, 210)


def test_a_row_left_as_shown_is_not_marked_when_its_game_changes(secretary_client, round_games):
    round_obj, (one, two, _three) = round_games
    url = results_url(round_obj)
    data = page_form(secretary_client, url)
    typed(data, one, 300, 200)
    game_record_result(game=two, result=ResultInput.of_pair("normal", 250, 260), by=None)

    response = secretary_client.post(url, data)

    assert response.status_code == 302
    assert scores(one) == (300, 200)
    assert scores(two) == (250, 260)


def test_a_wrong_row_beside_a_changed_one_saves_nothing_and_marks_both(
    secretary_client, round_games
):
    round_obj, (one, two, three) = round_games
    url = results_url(round_obj)
    data = page_form(secretary_client, url)
    typed(data, one, 300, 200)
    typed(data, two, 310, 210)
    data[f"form-{row_index(data, three)}-score_a"] = "31O"
    move_add(game=two, notation="8H WOORD", by=None)

    with translation.override("nl"):
        response = secretary_client.post(url, data)

    assert response.status_code == 200
    assert scores(one) == (None, None)
    html = response.content.decode()
    assert "Er is niets opgeslagen: verbeter de gemarkeerde regels." in html
    assert 'value="31O"' in html  # what was typed is still there


# A score outside the usual range (above Gouds 8's 500, or 0 – 0) is saved once it is
# confirmed; a page that shows it later asks nothing about it, as long as the game still
# holds it. Once it changed under the page, the row as shown used to be asked about again:
# "nothing was saved yet: confirm the marked scores", and the typed rows waited.
UNUSUAL = [(510, 290), (0, 0)]


@pytest.mark.parametrize("shown", UNUSUAL)
def test_a_row_left_as_shown_with_an_unusual_score_does_not_hold_back_the_typed_ones(
    secretary_client, round_games, shown
):
    round_obj, (one, two, _three) = round_games
    game_record_result(game=two, result=ResultInput.of_pair("normal", *shown), by=None)
    url = results_url(round_obj)
    data = page_form(secretary_client, url)
    typed(data, one, 300, 200)
    # Another device corrects table 2 after the page was read.
    game_record_result(
        game=two, result=ResultInput.of_pair("normal", 410, 290), by=None, reason="telfout"
    )

    response = secretary_client.post(url, data)

    assert response.status_code == 302
    assert scores(one) == (300, 200)
    assert scores(two) == (410, 290)  # the correction stands


def test_a_typed_unusual_score_on_a_changed_row_is_still_asked_about(secretary_client, round_games):
    """What the secretary typed is checked as before: only the row left as shown is not."""
    round_obj, (one, two, _three) = round_games
    game_record_result(game=two, result=ResultInput.of_pair("normal", 510, 290), by=None)
    url = results_url(round_obj)
    data = page_form(secretary_client, url)
    typed(data, one, 520, 200)
    game_record_result(
        game=two, result=ResultInput.of_pair("normal", 410, 290), by=None, reason="telfout"
    )

    with translation.override("nl"):
        response = secretary_client.post(url, data)

    assert response.status_code == 200
    assert "520 is hoger dan gebruikelijk" in response.content.decode()
    assert "510 is hoger dan gebruikelijk" not in response.content.decode()
    assert scores(one) == (None, None)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("shown", UNUSUAL)
def test_two_secretaries_save_the_same_round_at_once(
    secretary_client, secretary, round_games, shown
):
    """The second secretary corrects table 2 on the results page while the first saves
    table 1 from a page that showed table 2's old score, from two connections at once: the
    first waits for the second's locks (on PostgreSQL the test waits until it does), then
    both are saved. (The refusal this guards against came from the form, before any lock:
    it needs the other save to land between reading the page and saving it, which the test
    above does one after the other.)"""
    round_obj, (one, two, _three) = round_games
    game_record_result(game=two, result=ResultInput.of_pair("normal", *shown), by=None)
    url = results_url(round_obj)
    data = page_form(secretary_client, url)
    typed(data, one, 300, 200)
    two.refresh_from_db()
    correction = ResultEntry(
        two.pk, ResultInput.of_pair("normal", 410, 290), "telfout", two.version
    )

    first = Beside(lambda: secretary_client.post(url, data))
    with transaction.atomic():
        round_record_results(round=round_obj, entries=[correction], by=secretary)
        first.start()
        if connection.vendor == "postgresql":
            first.wait_for_a_lock()
    response = first.result()

    assert response.status_code == 302
    assert scores(one) == (300, 200)
    assert scores(two) == (410, 290)
