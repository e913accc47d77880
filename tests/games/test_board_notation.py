"""Every special move typed in the board's one move field (issue 19, point 6): its short
form is recorded as the long notation, the preview says it in words before it is saved,
the page documents it, and garbage is refused in Dutch, under the field, changing nothing."""

import re
from html import unescape

import pytest
from django.urls import reverse

import rules
from games.models import Move
from tests.games.test_board_dutch import english_in
from tests.seats import winner

pytestmark = pytest.mark.django_db

#: A Gouds 8 game by the short forms: what is typed, and what the scoresheet keeps.
TYPED_GAME = [
    ("8H ZOEn", "8H ZOEn"),  # a play with a blank on K8
    ("?+", "(challenge)"),  # bezwaar: woord goed
    ("-", "-"),  # pass
    ("-ABC", "-ABC"),  # exchange as in GCG
    ("*K8", "swap K8"),  # blank swap
    ("L7 AS", "L7 AS"),
    ("?-", "--"),  # bezwaar: woord eraf
    ("!", "(flagfall)"),  # the flag of the player to move fell
]


def _post(client, game, headers=None, **data):
    game.refresh_from_db()
    return client.post(
        reverse("board", args=[game.pk]),
        {"version": game.version, "kind": "play", **data},
        headers=headers or {},
    )


def _page(response) -> str:
    return unescape(response.content.decode())


def _notations(game) -> list[str]:
    return list(game.moves.order_by("number").values_list("notation", flat=True))


def test_a_whole_game_of_short_forms_typed_in_the_move_field(secretary_client, game):
    for typed, _long in TYPED_GAME:
        response = _post(secretary_client, game, notation=typed)
        assert response.status_code == 302, (typed, _page(response))
    assert _notations(game) == [long for _typed, long in TYPED_GAME]
    game.refresh_from_db()
    assert game.outcome == "flag_fall" and winner(game) == "b"


@pytest.mark.parametrize(
    "typed, words",
    [
        ("-", "past"),
        ("-ABC", "ruilt 3 blokjes: ABC"),
        ("-2", "ruilt 2 blokjes"),
        ("?+", "bezwaar: woord goed"),
        ("?-", "bezwaar: woord eraf"),
        ("!", "vlag gevallen"),
    ],
)
def test_the_preview_says_a_short_form_in_words(secretary_client, game, play, typed, words):
    play(game, "8H ZOEn")
    response = secretary_client.post(
        reverse("move_preview", args=[game.pk]), {"version": 1, "kind": "play", "notation": typed}
    )
    preview = _page(response)
    assert re.search(r'class="preview-meaning">([^<]*)<', preview).group(1) == words
    assert not Move.objects.filter(game=game, number=2).exists()


def test_the_page_documents_each_short_form(secretary_client, game, make_game):
    legend = _page(secretary_client.get(reverse("board", args=[game.pk])))
    legend = legend.split('id="notation-legend"')[1].split("</details>")[0]
    for typed, meaning in [
        ("-", "passen"),
        ("-ABC", "A, B en C ruilen"),
        ("*H8", "blanco wisselen"),
        ("?+", "bezwaar: woord goed"),
        ("?-", "bezwaar: woord eraf"),
        ("!", "vlag gevallen"),
    ]:
        assert re.search(rf">{re.escape(typed)}</td><td>{meaning}", legend), typed
    # Under the standard rules there is no blank swap and a flag fall does not decide.
    standard = make_game(rules.STANDARD)
    legend = _page(secretary_client.get(reverse("board", args=[standard.pk])))
    legend = legend.split('id="notation-legend"')[1].split("</details>")[0]
    assert "*H8" not in legend and ">!<" not in legend and ">?+<" in legend


GARBAGE = [
    "?",
    "?x",
    "?+?",
    "*",
    "* ,",
    "*Z9",
    "*H8 K5 A1",
    "*H8",  # well formed, but H8 holds no blank
    "!x",
    "!!",
    "-é",
    "-*",
    "--x",
    "(((",
    "ÿ",
    "8H WOORD\x00",
    "*" * 40,
    "?" * 41,  # longer than the field allows
]


@pytest.mark.parametrize("typed", GARBAGE)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_garbage_is_refused_in_dutch_under_the_move_field(
    secretary_client, game, play, typed, htmx
):
    play(game, "8H ZOEn")
    game.refresh_from_db()
    version = game.version
    headers = {"HX-Request": "true"} if htmx else None
    response = _post(secretary_client, game, headers=headers, notation=typed)
    # htmx swaps the refusal in (a 4xx would log a console error); a plain post says 422.
    assert response.status_code == (200 if htmx else 422)
    page = _page(response)
    refusal = re.search(r'<div class="alert alert-danger[^"]*" id="move-error"[^>]*>([^<]*)<', page)
    assert refusal, typed
    assert refusal.group(1).strip() and not english_in(refusal.group(1)), refusal.group(1)
    # Right under the move field, which says it is described by it.
    field = page.split('id="id_notation"')[1].split('id="notation-help"')[0]
    assert 'id="move-error"' in field and 'aria-invalid="true"' in field
    assert page.count('id="move-error"') == 1
    game.refresh_from_db()
    assert game.version == version and _notations(game) == ["8H ZOEn"]


@pytest.mark.parametrize(
    "data, form_id",
    [
        ({"kind": "exchange", "tiles": "ZZZ"}, "exchange-form"),
        ({"kind": "exchange", "tiles": ""}, "exchange-form"),
        ({"kind": "swap", "squares": "A1"}, "swap-form"),
        ({"kind": "challenge_removed"}, "turn-form"),
        ({"kind": "play", "start": "A1", "letters": "WOORD"}, "move-form"),
        ({"kind": "play", "start": "A1", "rack": "12"}, "move-form"),
    ],
)
def test_each_refusal_stands_under_the_field_that_was_used(secretary_client, game, data, form_id):
    response = _post(secretary_client, game, **data)
    assert response.status_code == 422
    page = _page(response)
    assert page.count('id="move-error"') == 1
    # The refusal follows the form that was used, before the next form starts.
    after_form = page.split(f'id="{form_id}"')[1]
    assert 'id="move-error"' in after_form.split("<form")[0]
    assert "alert-danger" not in page.split('id="board-page"')[0]  # not at the top
    assert not game.moves.exists()
