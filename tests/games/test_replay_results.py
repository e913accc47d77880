"""The public page of a game shows its result however it was entered (issue 38, point 1):
a final score typed without moves, moves on the board, a walk-over, a flag fall, an annulled
game, tables of 3 and 4 (with players who did not come). Whose turn it is and the board's
state are for a game still being played move by move."""

import re
from html import unescape

import pytest
from django.urls import reverse

import rules
from games.moves import move_add, moves_import_gcg
from games.services import ResultInput, game_record_result
from tests.games.tables import table_game

pytestmark = pytest.mark.django_db

TO_MOVE = "aan de beurt"


def page_of(client, game) -> str:
    response = client.get(reverse("replay", args=[game.pk]))
    assert response.status_code == 200
    return unescape(response.content.decode())


def summary(page: str) -> str:
    found = re.search(r'<p class="[^"]*" id="result-summary">([^<]*)</p>', page)
    assert found, "the page shows no result"
    return found.group(1)


def typed(game, kind: str, *scores: int | None):
    game_record_result(game=game, result=ResultInput(kind, tuple(scores)), by=None)
    return game


@pytest.mark.parametrize(
    ("kind", "scores", "expected"),
    [
        ("normal", (412, 380), "Anna 412 – 380 Bert, Anna wint"),
        ("normal", (350, 350), "Anna 350 – 350 Bert, gelijkspel"),
        ("forfeit_b", (None, None), "walk-over: Bert, Anna wint"),
        ("forfeit_both", (None, None), "walk-over: Anna en Bert, niemand wint"),
        ("flag_a", (420, 300), "vlag van Anna gevallen, Anna 420 – 300 Bert, Bert wint"),
        ("annulled", (None, None), "niet naar behoren gespeeld (geannuleerd), niemand wint"),
    ],
)
def test_a_pair_typed_without_moves_shows_its_result(client, make_game, kind, scores, expected):
    game = typed(make_game(), kind, *scores)
    page = page_of(client, game)
    assert summary(page) == expected
    assert TO_MOVE not in page
    # No empty board with 0 – 0 beside a typed result: there are no moves to step through.
    assert 'data-square="H8"' not in page and 'class="player-score' not in page
    assert "Alleen de uitslag is ingevoerd, geen zetten." in page


@pytest.mark.parametrize(
    ("count", "kind", "scores", "expected"),
    [
        (3, "normal", (300, 350, 200), "Anna 300, Bert 350, Cor 200, Bert wint"),
        (
            4,
            "normal",
            (300, 350, 200, 350),
            "Anna 300, Bert 350, Cor 200, Dirk 350, Bert en Dirk winnen",
        ),
        (
            3,
            "flag_b",
            (300, 350, 200),
            "vlag van Bert gevallen, Anna 300, Bert 350, Cor 200, Anna wint",
        ),
        # One did not come, the others played without Cor.
        (
            4,
            "forfeit_c",
            (300, 350, None, 250),
            "walk-over: Cor, Anna 300, Bert 350, Dirk 250, Bert wint",
        ),
        # Two did not come and nobody played: Anna and Dirk each win against Bert and Cor.
        (4, "forfeit_bc", (None, None, None, None), "walk-over: Bert en Cor, Anna en Dirk winnen"),
        # One alone came: she wins against each.
        (3, "forfeit_bc", (None, None, None), "walk-over: Bert en Cor, Anna wint"),
        (
            4,
            "annulled",
            (None, None, None, None),
            "niet naar behoren gespeeld (geannuleerd), niemand wint",
        ),
    ],
)
def test_a_table_typed_without_moves_shows_its_result(
    client, competition, count, kind, scores, expected
):
    game = typed(table_game(competition, count), kind, *scores)
    page = page_of(client, game)
    assert summary(page) == expected
    assert TO_MOVE not in page
    assert 'data-square="H8"' not in page


def test_a_table_its_rules_cannot_play_shows_its_typed_result(client, competition):
    """A table of 4 under Gouds 8 (for two) has no board; its typed result is still its page."""
    game = typed(table_game(competition, 4, rules.GOUDS_8), "normal", 300, 350, 200, 250)
    page = page_of(client, game)
    assert summary(page) == "Anna 300, Bert 350, Cor 200, Dirk 250, Bert wint"
    assert 'id="not-on-board"' not in page


def test_a_table_its_rules_cannot_play_without_a_result_says_so(client, competition):
    page = page_of(client, table_game(competition, 4, rules.GOUDS_8))
    assert 'id="not-on-board"' in page and 'id="game-result"' not in page


def test_a_game_finished_on_the_board_shows_the_result_and_its_moves(client, game, demo_gcg):
    moves_import_gcg(game=game, data=demo_gcg("demo-1"), by=None)
    page = page_of(client, game)
    assert summary(page) == "Anna 165 – 161 Bert, Anna wint"
    assert "zet 16 van 16" in page and 'data-square="H8"' in page
    assert TO_MOVE not in page and 'id="game-over"' not in page
    # Stepping back through a finished game shows the board then, and still no one to move.
    earlier = unescape(client.get(reverse("replay", args=[game.pk]), {"zet": 3}).content.decode())
    assert summary(earlier) == "Anna 165 – 161 Bert, Anna wint"
    assert TO_MOVE not in earlier and "to-move" not in earlier


def test_a_game_under_way_on_the_board_says_whose_turn_it_is(client, game):
    move_add(game=game, notation="8H WOORD", by=None)
    page = page_of(client, game)
    assert "Bert is aan de beurt" in page
    assert 'id="game-result"' not in page


def test_a_game_not_begun_shows_the_empty_board_and_no_result(client, game):
    page = page_of(client, game)
    assert "Anna is aan de beurt" in page and 'id="game-result"' not in page


def test_the_page_says_it_in_english_too(english, make_game):
    page = page_of(english, typed(make_game(), "forfeit_b", None, None))
    assert summary(page) == "forfeit: Bert, Anna wins"
    assert "Only the final result was entered, no moves." in page


def test_a_provisional_result_is_marked(client, make_game):
    from games.models import Confirmation, Game

    game = typed(make_game(), "normal", 412, 380)
    Game.objects.filter(pk=game.pk).update(confirmation=Confirmation.PROVISIONAL, claimed_by=0)
    page = page_of(client, game)
    assert re.search(
        r'id="game-result-title">Uitslag <span class="[^"]*provisional">voorlopig', page
    )


def test_the_typed_result_page_keeps_the_replay_query_budget(
    client, make_game, competition, django_assert_num_queries
):
    pair = typed(make_game(), "normal", 412, 380)
    table = typed(table_game(competition, 4), "forfeit_c", 300, 350, None, 250)
    for game in (pair, table):
        with django_assert_num_queries(3):  # the game with its round, its seats, the moves
            page_of(client, game)


def test_the_board_pages_of_a_typed_result_say_the_result(secretary_client, make_game):
    """The board entry and the analysis show a board too: with the stored result above it,
    not 0 – 0 and someone to move (issue 52, point 1)."""
    game = typed(make_game(), "normal", 412, 380)
    for name in ("board", "game_analysis"):
        response = secretary_client.get(reverse(name, args=[game.pk]))
        page = unescape(response.content.decode())
        assert summary(page) == "Anna 412 – 380 Bert, Anna wint", name
        assert TO_MOVE not in page and "to-move" not in page, name
