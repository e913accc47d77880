"""The board screen, its live preview, undo/correct/starter, the public replay page,
who may use them, and the pages' query budgets."""

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import rules
from games.models import Move, Outcome
from games.moves import move_add, moves_import_gcg
from tests.games.squares import shown
from tests.seats import Winner, winner

pytestmark = pytest.mark.django_db


def url(name: str, game) -> str:
    return reverse(name, args=[game.pk])


def text(response) -> str:
    return unescape(response.content.decode())


def notations(game) -> list[str]:
    return list(
        Move.objects.filter(game=game).order_by("number").values_list("notation", flat=True)
    )


@pytest.fixture
def manager(english, secretary_client):
    """The club's secretary, logged in, reading the site in English."""
    return secretary_client


def post_move(client, game, **data):
    game.refresh_from_db()
    return client.post(url("board", game), {"version": game.version, **data})


# --- the board page ----------------------------------------------------------------------


def test_board_shows_the_empty_board_and_asks_who_starts(manager, make_game):
    game = make_game(starter="")
    response = manager.get(url("board", game))
    assert response.status_code == 200
    page = text(response)
    assert page.count("data-square=") == 225
    assert 'data-square="H8"' in page and 'data-square="O15"' in page
    assert 'id="starter-form"' in page
    assert 'id="move-form"' not in page


def test_recording_who_starts(manager, make_game):
    game = make_game(starter="")
    response = manager.post(url("game_starter", game), {"version": game.version, "starter": "1"})
    assert response.status_code == 302
    assert response.url == url("board", game)
    game.refresh_from_db()
    assert game.starter == 1
    page = text(manager.get(url("board", game)))
    assert 'id="starter-form"' not in page
    assert 'id="move-form"' in page
    assert "Bert to move" in page


def test_a_typed_play_is_recorded(manager, game):
    response = post_move(manager, game, kind="play", notation="8h WOORD")
    assert response.status_code == 302
    row = Move.objects.get(game=game)
    assert (row.notation, row.seat, row.score, row.total) == ("8H WOORD", 0, 26, 26)
    page = text(manager.get(url("board", game)))
    assert shown(page, "H8") == "H8 W" and shown(page, "L8") == "L8 D"
    assert "WOORD 26" in page
    assert "Bert to move" in page


def test_a_play_by_start_square_direction_and_letters(manager, game):
    response = post_move(manager, game, kind="play", start="H8", direction="down", letters="WOORD")
    assert response.status_code == 302
    row = Move.objects.get(game=game)
    assert (row.notation, row.score) == ("H8 WOORD", 26)
    response = post_move(manager, game, kind="play", start="h8", direction="across", letters=".AAS")
    assert response.status_code == 302
    assert notations(game) == ["H8 WOORD", "8H .AAS"]


@pytest.mark.parametrize(
    ("data", "notation"),
    [
        ({"kind": "exchange", "tiles": "ABC"}, "-ABC"),
        ({"kind": "exchange", "tiles": "3"}, "-3"),
        ({"kind": "pass"}, "-"),
    ],
)
def test_exchange_and_pass(manager, game, data, notation):
    assert post_move(manager, game, **data).status_code == 302
    row = Move.objects.get(game=game)
    assert (row.notation, row.seat, row.score) == (notation, 0, 0)


def test_challenge_buttons(manager, game):
    post_move(manager, game, kind="play", notation="8H WOORD")
    assert post_move(manager, game, kind="challenge_removed").status_code == 302
    removed = Move.objects.get(game=game, number=2)
    assert (removed.notation, removed.score, removed.total) == ("--", -26, 0)

    post_move(manager, game, kind="play", notation="8H WOORD")  # Bert
    assert post_move(manager, game, kind="challenge_upheld").status_code == 302
    upheld = Move.objects.get(game=game, number=4)
    # Gouds 8: Anna challenged wrongly and loses her turn.
    assert (upheld.notation, upheld.seat, upheld.score) == ("(challenge)", 0, 0)
    assert "Bert to move" in text(manager.get(url("board", game)))


def test_blank_swap(manager, game):
    post_move(manager, game, kind="play", notation="8H wOORD")
    assert post_move(manager, game, kind="swap", squares="H8").status_code == 302
    row = Move.objects.get(game=game, number=2)
    assert (row.notation, row.seat, row.score) == ("swap H8", 1, 5)
    page = text(manager.get(url("board", game)))
    assert shown(page, "H8") == "H8 W"


def test_flag_fall_ends_the_game(manager, game):
    post_move(manager, game, kind="play", notation="8H WOORD")
    assert post_move(manager, game, kind="flagfall").status_code == 302
    game.refresh_from_db()
    assert (game.outcome, winner(game), game.scores[0], game.scores[1]) == (
        Outcome.FLAG_FALL,
        Winner.A,
        26,
        0,
    )
    page = text(manager.get(url("board", game)))
    assert 'id="game-over"' in page and "Anna wins" in page
    assert 'id="move-form"' not in page


def _standard_game_without_end_racks(manager, make_game):
    game = make_game(rules.STANDARD)
    for data in [{"kind": "play", "notation": "8H WOORD"}, *[{"kind": "pass"}] * 4]:
        assert post_move(manager, game, **data).status_code == 302
    return game


def test_end_racks_settle_the_score(manager, make_game):
    game = _standard_game_without_end_racks(manager, make_game)
    assert post_move(manager, game, kind="endrack", tiles="EEEIINN").status_code == 302
    game.refresh_from_db()
    assert game.outcome == Outcome.PENDING
    assert post_move(manager, game, kind="endrack", tiles="AEEIOUB").status_code == 302
    game.refresh_from_db()
    assert (game.outcome, winner(game), game.scores[0], game.scores[1]) == (
        Outcome.NORMAL,
        Winner.A,
        19,
        -12,
    )
    assert [r.seat for r in Move.objects.filter(game=game, number__gt=5)] == [0, 1]
    page = text(manager.get(url("board", game)))
    assert "Anna wins" in page and "(19 – -12)" in page


def test_the_board_asks_for_the_end_racks(manager, make_game):
    game = _standard_game_without_end_racks(manager, make_game)
    page = text(manager.get(url("board", game)))
    assert 'id="game-over"' not in page  # no result yet: the racks are not known
    assert "enter the tiles left on the racks" in page
    assert 'name="kind" value="endrack"' in page


def test_an_illegal_move_is_refused_with_the_engines_reason(manager, game):
    response = post_move(manager, game, kind="play", notation="7H WOORD")
    assert response.status_code == 422
    assert "The first word must cover the centre square H8." in text(response)
    assert not Move.objects.exists()
    game.refresh_from_db()
    assert game.version == 0
    # What was typed is still in the field, to be corrected.
    assert 'value="7H WOORD"' in text(response)


def test_an_incomplete_move_is_refused(manager, game):
    response = post_move(manager, game, kind="play", start="H8")
    assert response.status_code == 422
    assert "Click the start square and type the letters" in text(response)
    assert not Move.objects.exists()


def test_a_stale_screen_gets_409_and_the_current_state(manager, game):
    seen = game.version
    post_move(manager, game, kind="play", notation="8H WOORD")  # another secretary
    response = manager.post(
        url("board", game), {"version": seen, "kind": "play", "notation": "H8 .AAS"}
    )
    assert response.status_code == 409
    page = text(response)
    assert "Someone else entered a move in this game in the meantime." in page
    # The board shows the move entered meanwhile, and the form carries the new version.
    assert shown(page, "H8") == "H8 W" and "8H WOORD" in page
    game.refresh_from_db()
    assert re.search(rf'name="version" value="{game.version}"', page)
    assert notations(game) == ["8H WOORD"]


# --- the live preview ------------------------------------------------------------------


def test_preview_shows_score_and_words_without_saving(manager, game):
    post_move(manager, game, kind="play", notation="8H WOORD")
    response = manager.post(
        url("move_preview", game), {"version": 1, "kind": "play", "notation": "H8 .AAS"}
    )
    assert response.status_code == 200
    page = text(response)
    assert '<strong class="preview-score">9</strong>' in page
    assert "WAAS 9" in page
    assert re.search(r'class="sq[^"]* preview" data-square="H9"', page)
    assert Move.objects.filter(game=game).count() == 1


def test_preview_by_start_square_and_letters(manager, game):
    response = manager.post(
        url("move_preview", game),
        {"version": 0, "kind": "play", "start": "H8", "direction": "across", "letters": "XQZW"},
    )
    page = text(response)
    assert "preview-score" in page
    assert "XQZW is not in the word list." in page
    assert not Move.objects.exists()


def test_preview_gives_the_engines_reason_for_an_illegal_placement(manager, game):
    response = manager.post(
        url("move_preview", game), {"version": 0, "kind": "play", "notation": "7H WOORD"}
    )
    assert response.status_code == 200
    page = text(response)
    assert "preview-error" in page
    assert "The first word must cover the centre square H8." in page
    assert not Move.objects.exists()


# --- undo and correct -----------------------------------------------------------------


def test_undo(manager, game):
    post_move(manager, game, kind="play", notation="8H WOORD")
    post_move(manager, game, kind="play", notation="H8 .AAS")
    game.refresh_from_db()
    response = manager.post(url("move_undo", game), {"version": game.version}, follow=True)
    assert response.redirect_chain[-1] == (url("board", game), 302)
    assert "Last move undone." in text(response)
    assert notations(game) == ["8H WOORD"]


def test_undo_from_a_stale_screen_changes_nothing(manager, game):
    post_move(manager, game, kind="play", notation="8H WOORD")
    response = manager.post(url("move_undo", game), {"version": 0}, follow=True)
    assert "Someone else entered a move" in text(response)
    assert notations(game) == ["8H WOORD"]


def test_correct_rescores_the_later_moves(manager, game):
    post_move(manager, game, kind="play", notation="8H WOORD")
    post_move(manager, game, kind="play", notation="H8 .AAS")
    game.refresh_from_db()
    response = manager.post(
        url("move_correct", game),
        {"version": game.version, "number": 1, "notation": "8H ZOORD"},
        follow=True,
    )
    assert "Move corrected; all later moves scored again." in text(response)
    rows = list(Move.objects.filter(game=game).order_by("number"))
    assert [(r.notation, r.score, r.words) for r in rows] == [
        ("8H ZOORD", 24, [["ZOORD", 24]]),
        ("H8 .AAS", 8, [["ZAAS", 8]]),
    ]


def test_a_correction_sent_back_as_shown_says_nothing_changed(manager, game):
    post_move(manager, game, kind="play", notation="8H WOORD")
    post_move(manager, game, kind="play", notation="H8 .AAS")
    game.refresh_from_db()
    version = game.version
    response = manager.post(
        url("move_correct", game),
        {"version": version, "number": 1, "notation": " 8H  WOORD"},
        follow=True,
    )
    page = text(response)
    assert "Nothing changed: move 1 is as it was." in page
    assert "Move corrected" not in page
    game.refresh_from_db()
    assert game.version == version and notations(game) == ["8H WOORD", "H8 .AAS"]


def test_correct_marks_a_later_move_that_became_illegal(manager, game):
    post_move(manager, game, kind="play", notation="8H WOORD")
    post_move(manager, game, kind="play", notation="H8 .AAS")
    game.refresh_from_db()
    response = manager.post(
        url("move_correct", game),
        {"version": game.version, "number": 1, "notation": "H4 WOORD"},
        follow=True,
    )
    page = text(response)
    assert "the later moves marked in red are no longer legal" in page
    assert re.search(r'<tr class="table-danger" data-move="2">', page)
    assert "The word continues at H7: write the whole word." in page
    # A new move is refused until the marked one is fixed.
    refused = post_move(manager, game, kind="pass")
    assert refused.status_code == 422
    assert "Correct the marked moves before entering new ones." in text(refused)


# --- who may do what --------------------------------------------------------------------

MANAGE = [
    ("get", "board"),
    ("post", "board"),
    ("post", "move_preview"),
    ("post", "move_undo"),
    ("post", "move_correct"),
    ("post", "game_starter"),
    ("get", "gcg_upload"),
    ("post", "gcg_upload"),
]
FORM = {"version": 0, "kind": "pass", "number": 1, "notation": "-", "starter": "0"}


@pytest.mark.parametrize(("method", "name"), MANAGE)
def test_anonymous_visitors_are_sent_to_log_in(client, game, method, name):
    response = getattr(client, method)(url(name, game), FORM if method == "post" else None)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login") + "?next=")


@pytest.mark.parametrize("who", ["member", "other_secretary"])
@pytest.mark.parametrize(("method", "name"), MANAGE)
def test_only_the_clubs_secretaries_may_enter_moves(client, game, request, who, method, name):
    client.force_login(request.getfixturevalue(who))
    response = getattr(client, method)(url(name, game), FORM if method == "post" else None)
    assert response.status_code == 403
    assert not Move.objects.exists()
    game.refresh_from_db()
    assert game.version == 0


def test_staff_may_enter_moves(client, staff, game):
    client.force_login(staff)
    assert client.get(url("board", game)).status_code == 200


@pytest.mark.parametrize("name", ["replay", "gcg_download"])
def test_replay_and_gcg_are_public(client, game, name):
    move_add(game=game, notation="8H WOORD", by=None)
    response = client.get(url(name, game))
    assert response.status_code == 200
    assert "WOORD" in response.content.decode()


@pytest.mark.parametrize("name", ["replay", "gcg_download", "board"])
def test_a_bye_has_no_board(secretary_client, make_game, name):
    bye = make_game(player_b=None, outcome=Outcome.BYE, winner=Winner.A, table=None)
    assert secretary_client.get(url(name, bye)).status_code == 404


# --- the replay page ----------------------------------------------------------------------


@pytest.fixture
def demo_game(game, demo_gcg):
    moves_import_gcg(game=game, data=demo_gcg("demo-1"), by=None)
    return game


def test_replay_steps_through_the_moves(english, client, demo_game):
    # Move 1: 8G DORENS (D on G8); move 2: J6 SN.RP (S on J6).
    first = text(client.get(url("replay", demo_game), {"zet": 1}))
    assert shown(first, "G8") == "G8 D"
    assert shown(first, "J6") != "J6 S"
    assert "move 1 of 16" in first
    assert 'href="?zet=0" id="previous"' in first
    assert 'href="?zet=2" id="next"' in first
    assert '<tr class="table-info" data-move="1">' in first

    second = text(client.get(url("replay", demo_game), {"zet": 2}))
    assert shown(second, "J6") == "J6 S" and shown(second, "G8") == "G8 D"
    assert 'href="?zet=1" id="previous"' in second

    start = text(client.get(url("replay", demo_game), {"zet": 0}))
    assert shown(start, "G8") != "G8 D"
    assert "move 0 of 16" in start

    end = text(client.get(url("replay", demo_game)))
    assert "move 16 of 16" in end
    assert "Anna 165 – 161 Bert, Anna wins" in end  # the stored result, above the board
    # Disabled for a screen reader too (and for axe-core's contrast check, which skips it).
    assert re.search(
        r'class="[^"]*disabled" aria-disabled="true" tabindex="-1" href="\?zet=17" id="next"', end
    )
    assert 'aria-disabled="true"' not in first


def test_replay_after_a_blank_swap_and_back(client, demo_game):
    # Move 3 put a blank N on H12 (ORGAnDIE); move 9 swapped it for the real N.
    before = text(client.get(url("replay", demo_game), {"zet": 8}))
    assert re.search(r'class="sq[^"]* blank[^"]*" data-square="H12"', before)
    after = text(client.get(url("replay", demo_game), {"zet": 9}))
    assert not re.search(r'class="sq[^"]* blank[^"]*" data-square="H12"', after)
    assert shown(after, "H12") == "H12 N"


def test_replay_ignores_a_bad_step(client, demo_game):
    page = text(client.get(url("replay", demo_game), {"zet": "abc"}))
    assert shown(page, "G8") == "G8 D"
    assert text(client.get(url("replay", demo_game), {"zet": 99})).count("data-square=") == 225


# --- query budgets --------------------------------------------------------------------


def _queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(path)
    assert response.status_code == 200
    return len(context.captured_queries)


@pytest.fixture
def short_and_long(make_game, demo_gcg):
    short = make_game()
    move_add(game=short, notation="8H WOORD", by=None)
    move_add(game=short, notation="H8 .AAS", by=None)
    long = make_game()
    moves_import_gcg(game=long, data=demo_gcg("demo-1"), by=None)
    assert Move.objects.filter(game=long).count() == 16
    return short, long


def test_board_page_query_budget_does_not_grow_with_the_moves(secretary_client, short_and_long):
    short, long = short_and_long
    secretary_client.get(url("board", short))  # warm the session
    assert _queries(secretary_client, url("board", short)) == _queries(
        secretary_client, url("board", long)
    )


def test_replay_page_query_budget_does_not_grow_with_the_moves(client, short_and_long):
    short, long = short_and_long
    assert _queries(client, url("replay", short)) == _queries(client, url("replay", long))
    assert _queries(client, url("replay", short) + "?zet=1") == _queries(
        client, url("replay", long) + "?zet=9"
    )


def test_board_and_replay_query_budgets(
    client, secretary, short_and_long, django_assert_num_queries
):
    _, long = short_and_long
    with django_assert_num_queries(3):  # the game with its round, its seats, the moves
        client.get(url("replay", long))
    client.force_login(secretary)
    client.get(url("board", long))
    # session, user, game, its seats, the secretary check, the moves
    with django_assert_num_queries(6):
        client.get(url("board", long))


def test_a_board_save_has_a_fixed_query_budget(client, secretary, make_game):
    """The write a club evening makes most, the same for the 1st and the 3rd move: session,
    user, the game to show and its seats, the secretary check (once: it is kept on the
    user), the game locked and its seats (once: the moves' service takes the row the
    confirmation check locked), the competition's last change, the moves, the new move,
    its history entry, the game's version, and two savepoints of two statements each.
    Nothing after the commit: a move mid-game cannot change the round's status
    (`test_round_status_is_read_only_...`)."""
    game = make_game()
    client.force_login(secretary)
    client.get(url("board", game))
    counts = []
    for notation in ("8H WOORD", "-", "-"):
        game.refresh_from_db()
        with CaptureQueriesContext(connection) as context:
            response = client.post(
                url("board", game), {"version": game.version, "kind": "play", "notation": notation}
            )
        assert response.status_code == 302
        counts.append(len(context.captured_queries))
        sql = [query["sql"] for query in context.captured_queries]
        assert sum('FROM "clubs_membership"' in each for each in sql) == 1
        assert sum("FOR UPDATE" in each for each in sql) <= 1  # PostgreSQL locks; SQLite not
    assert Move.objects.filter(game=game).count() == 3
    assert counts == [16, 16, 16]


def test_the_board_screen_gets_the_new_board_in_the_answer_to_its_save(manager, game):
    """htmx posts the board's form: the answer is the new board itself (one round trip per
    move on a phone, not a redirect and a second request), at the board's own address, so a
    reload reads it again instead of posting the move twice. Without htmx: the redirect."""
    data = {"version": game.version, "kind": "play", "notation": "8H WOORD"}
    response = manager.post(url("board", game), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Replace-Url"] == url("board", game)
    game.refresh_from_db()
    page = text(response)
    assert f'name="version" value="{game.version}"' in page
    assert "8H WOORD" in page and 'id="scoresheet"' in page
    plain = post_move(manager, game, kind="pass")
    assert plain.status_code == 302 and plain["Location"] == url("board", game)
    assert notations(game) == ["8H WOORD", "-"]


def test_the_board_screens_save_costs_fewer_queries_than_a_save_and_a_reload(
    client, secretary, make_game
):
    """The save's queries and nothing of a second request (no second session, user, game
    or secretary check); the moves are read once, before the write transaction (the move
    is scored there, so the write lock is held only to write), and the page shows them."""
    game = make_game()
    client.force_login(secretary)
    client.get(url("board", game))
    game.refresh_from_db()
    data = {"version": game.version, "kind": "play", "notation": "8H WOORD"}
    with CaptureQueriesContext(connection) as context:
        response = client.post(url("board", game), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    sql = [query["sql"] for query in context.captured_queries]
    moves_read = [i for i, each in enumerate(sql) if 'FROM "games_move"' in each]
    first_write = next(i for i, each in enumerate(sql) if each.startswith("SAVEPOINT"))
    assert len(moves_read) == 1 and moves_read[0] < first_write
    assert len(sql) == 16  # the seats read with the game shown and with the game locked


def test_squares_are_buttons_only_where_pressing_one_does_something(manager, game):
    """The board entry waiting for a move is a grid of square buttons, one of them (H8) in
    the tab order; the replay, and the board entry of a finished game, a table of plain
    cells (issue 52, point 2)."""
    square_buttons = re.compile(r'<button type="button" class="sq[^"]*" data-square="([^"]+)"')
    post_move(manager, game, kind="play", notation="8H WOORD")
    page = text(manager.get(url("board", game)))
    assert 'role="grid" aria-label="Board"' in page
    assert len(square_buttons.findall(page)) == 225
    assert re.findall(r'data-square="([^"]+)" tabindex="0"', page) == ["H8"]
    for finished in (False, True):
        if finished:
            post_move(manager, game, kind="flagfall")
        for name in ("replay", "board") if finished else ("replay",):
            page = text(manager.get(url(name, game)))
            assert 'role="table" aria-label="Board"' in page and 'role="grid"' not in page
            assert page.count('role="cell"') == 225 and not square_buttons.search(page), name
