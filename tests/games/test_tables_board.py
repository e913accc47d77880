"""The board at a table of 3 or 4 (issue 20, point 4): who starts and whose turn it is, the
score line, the standard end adjustment, Gouds 8's turns each, undo and correction, the
clock's flag, and a table whose rule set is for fewer players."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import rules
from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from games.clock import clock_flag, clock_press, clock_start, clock_view
from games.models import Game, Move, Outcome
from games.moves import MoveError, move_add
from tests.games.tables import self_played, table_game

pytestmark = pytest.mark.django_db


def url(name: str, game) -> str:
    return reverse(name, args=[game.pk])


def text(response) -> str:
    return unescape(response.content.decode())


def fresh(game) -> Game:
    return Game.objects.with_seats().get(pk=game.pk)


def post_move(client, game, **data):
    game.refresh_from_db()
    return client.post(url("board", game), {"version": game.version, **data})


def seats(game) -> list[tuple[int | None, int | None]]:
    """(score, place) of each seat in table order."""
    return [(seat.score, seat.place) for seat in fresh(game).seat_list]


def score_line(page: str) -> list[tuple[str, str]]:
    """The board's score line: (name, score) of each player, in table order."""
    status = page[page.index('id="status"') :]
    return re.findall(
        r'<span class="name">([^<]+)</span> <span class="fs-4 fw-bold score" '
        r'data-player="\d">(-?\d+)</span>',
        status[: status.index("in the bag")],
    )


@pytest.fixture
def manager(english, secretary_client):
    return secretary_client


# --- who starts, whose turn -------------------------------------------------------------


def test_the_starter_choice_offers_every_player_at_the_table(manager, competition):
    game = table_game(competition, 4, starter="")
    page = text(manager.get(url("board", game)))
    choice = page[page.index('id="starter-form"') :]
    choice = choice[: choice.index("</form>")]
    assert re.findall(r'name="starter" value="(\d)"[^>]*>([^<]+)<', choice) == [
        ("0", "Anna"),
        ("1", "Bert"),
        ("2", "Cor"),
        ("3", "Dirk"),
    ]
    response = manager.post(url("game_starter", game), {"version": game.version, "starter": "3"})
    assert response.status_code == 302
    assert fresh(game).starter == 3
    assert "Dirk to move" in text(manager.get(url("board", game)))


def test_the_turn_goes_round_the_table_from_the_starter(manager, competition):
    game = table_game(competition, 4, starter=2)
    for notation in ("8H ZOEN", "-", "-", "-", "-"):
        assert post_move(manager, game, kind="play", notation=notation).status_code == 302
    rows = Move.objects.filter(game=game).order_by("number")
    assert [row.seat for row in rows] == [2, 3, 0, 1, 2]
    page = text(manager.get(url("board", game)))
    assert "Dirk to move" in page
    # Z 4 + O 1 + E 1 + N 1 = 7, on H8 (double word): 14, Cor's; the others have nothing yet.
    assert score_line(page) == [("Anna", "0"), ("Bert", "0"), ("Cor", "14"), ("Dirk", "0")]
    sheet = page[page.index('id="scoresheet"') :]
    for name in ("Anna", "Bert", "Cor", "Dirk"):
        assert name in sheet


def test_a_table_of_three_exchanges_and_passes_in_turn(manager, competition):
    game = table_game(competition, 3, starter=1)
    assert post_move(manager, game, kind="play", notation="8H ZOEN").status_code == 302
    assert post_move(manager, game, kind="exchange", tiles="3").status_code == 302
    assert post_move(manager, game, kind="pass").status_code == 302
    rows = list(Move.objects.filter(game=game).order_by("number"))
    assert [(row.seat, row.notation) for row in rows] == [(1, "8H ZOEN"), (2, "-3"), (0, "-")]
    page = text(manager.get(url("board", game)))
    assert "Bert to move" in page
    # 102 tiles, 3 racks of 7 drawn: 81; ZOEN drew 4 more: 77; an exchange keeps the count.
    assert "77 in the bag" in page


# --- the end of the game ----------------------------------------------------------------


def test_the_end_racks_are_asked_one_player_at_a_time_and_settle_every_score(manager, competition):
    """All pass twice after the first play: the game ends on scoreless turns with tiles in
    the bag, so no rack is known; each player loses what is left on their own rack."""
    game = table_game(competition, 4, starter=0)
    for notation in ("8H ZOEN", *["-"] * 8):
        move_add(game=game, notation=notation, by=None)
    page = text(manager.get(url("board", game)))
    assert re.search(r'id="end-rack-of">Anna</strong> <small[^>]*>\(then: Bert, Cor, Dirk\)', page)
    for tiles in ("AAEEIIO", "BCDEEFG", "AEIJKLM"):
        assert post_move(manager, game, kind="endrack", tiles=tiles).status_code == 302
        assert fresh(game).outcome == Outcome.PENDING
    assert re.search(
        r'id="end-rack-of">Dirk</strong></label>', text(manager.get(url("board", game)))
    )
    assert post_move(manager, game, kind="endrack", tiles="NNOOPRS").status_code == 302
    # Anna ZOEN 14, minus AAEEIIO (7 x 1) = 7; Bert BCDEEFG 3+5+2+1+1+4+3 = 19: -19;
    # Cor AEIJKLM 1+1+1+4+3+3+3 = 16: -16; Dirk NNOOPRS 1+1+1+1+3+2+2 = 11: -11.
    assert fresh(game).outcome == Outcome.NORMAL
    assert seats(game) == [(7, 1), (-19, 4), (-16, 3), (-11, 2)]
    page = text(manager.get(url("board", game)))
    assert "Anna wins" in page and "(7 – -19 – -16 – -11)" in page
    assert score_line(page) == [("Anna", "7"), ("Bert", "-19"), ("Cor", "-16"), ("Dirk", "-11")]


def test_equal_best_scores_at_a_table_share_the_win(client, secretary, competition):
    """Nobody plays: everyone passes twice, and Anna and Bert are left with 7 points each
    (A, A, E, E, I, I, O and A, A, E, E, N, N, O: seven tiles of 1), Cor and Dirk with more."""
    game = table_game(competition, 4)
    for _ in range(8):
        move_add(game=game, notation="-", by=None)
    for tiles in ("(AAEEIIO)", "(AAEENNO)", "(BCDFGHJ)", "(KLMPRST)"):
        move_add(game=game, notation=tiles, by=None)
    # Cor B 3 + C 5 + D 2 + F 4 + G 3 + H 4 + J 4 = 25; Dirk K 3 + L 3 + M 3 + P 3 + R 2 +
    # S 2 + T 2 = 18.
    assert seats(game) == [(-7, 1), (-7, 1), (-25, 4), (-18, 3)]
    client.force_login(secretary)
    assert "Anna & Bert winnen" in text(client.get(url("board", game)))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Anna & Bert win" in text(client.get(url("board", game)))


def test_the_winner_of_a_table_is_named_in_dutch(client, secretary, competition):
    game = table_game(competition, 3)
    move_add(game=game, notation="8H ZOEN", by=None)
    for notation in ("-", "-", "-", "-", "-", "-", "(AEIOU??)", "(AAEEIIN)", "(AEKLMRS)"):
        move_add(game=game, notation=notation, by=None)
    # Anna 14 - (A 1 + E 1 + I 1 + O 1 + U 4 + two blanks 0) = 6; Bert -7; Cor A 1 + E 1 +
    # K 3 + L 3 + M 3 + R 2 + S 2 = -15.
    assert seats(game) == [(6, 1), (-7, 2), (-15, 3)]
    client.force_login(secretary)
    assert "Anna wint" in text(client.get(url("board", game)))


@pytest.mark.parametrize(("count", "seed"), [(3, 1), (4, 2)])
def test_who_goes_out_gains_the_racks_the_others_lose(manager, competition, count, seed):
    """A whole game, every turn entered with its rack: the engine knows the racks left."""
    played = self_played(count, seed)
    assert played.engine.ending == "going_out"
    game = table_game(competition, count, starter=0)
    for seat, notation, rack in played.turns:
        row = move_add(game=game, notation=notation, rack=rack, by=None)
        assert row.seat == seat
    before = {}
    for row in Move.objects.filter(game=game, score__isnull=False).order_by("number"):
        before[row.seat] = row.total
    value = rules.DUTCH.value
    lost = [sum(value(tile) for tile in left) for left in played.left]
    out = played.left.index("")
    expected = [before[seat] + (sum(lost) if seat == out else -lost[seat]) for seat in range(count)]
    stored = fresh(game)
    assert stored.outcome == Outcome.NORMAL
    assert [seat.score for seat in stored.seat_list] == expected
    assert [seat.place for seat in stored.seat_list] == list(
        rules.result.places("normal", scores=expected)
    )
    if seed == 2:
        # Dirk went out; left: Anna BN (3 + 1), Bert R (2), Cor QZD (10 + 4 + 2): Dirk + 22.
        assert (out, lost) == (3, [4, 2, 16, 0])
    page = text(manager.get(url("board", game)))
    assert 'id="game-over"' in page and 'id="move-form"' not in page


def test_gouds_8_at_a_table_of_three_ends_after_eight_turns_of_every_player(manager, competition):
    """A club variant of Gouds 8 for up to 4 players: 8 turns each, so 24 at a table of 3;
    the game does not end when the first player has had their 8th."""
    variant = rules.RuleSet.from_dict({**rules.GOUDS_8.to_dict(), "players_max": 4})
    game = table_game(competition, 3, variant, starter=0)
    move_add(game=game, notation="8H ZOEN", by=None)
    for _ in range(21):  # Anna's 8th turn is move 22
        move_add(game=game, notation="-", by=None)
    assert Move.objects.filter(game=game).count() == 22
    assert fresh(game).outcome == Outcome.PENDING
    page = text(manager.get(url("board", game)))
    assert "Bert to move" in page
    assert re.search(r"Anna</span>.*?8/8 turns", page, re.S)
    assert re.search(r"Bert</span>.*?7/8 turns", page, re.S)
    move_add(game=game, notation="-", by=None)
    assert fresh(game).outcome == Outcome.PENDING
    move_add(game=game, notation="-", by=None)
    # ZOEN: Z 4 + O 1 + E 1 + N 1 = 7, doubled on H8: 14 (Gouds 8 counts no racks).
    assert fresh(game).outcome == Outcome.NORMAL
    assert seats(game) == [(14, 1), (0, 2), (0, 2)]
    with pytest.raises(MoveError):
        move_add(game=game, notation="-", by=None)
    assert Move.objects.filter(game=game).count() == 24


# --- undo and correction ----------------------------------------------------------------


def test_undo_and_correction_at_a_table_of_four(manager, competition):
    game = table_game(competition, 4, starter=1)
    for notation in ("8H ZOEN", "-", "-", "-", "-", "-", "-", "-", "-"):
        move_add(game=game, notation=notation, by=None)
    for tiles in ("AAEEIIO", "BCDEEFG", "AEIJKLM", "NNOOPRS"):
        assert post_move(manager, game, kind="endrack", tiles=tiles).status_code == 302
    assert fresh(game).outcome == Outcome.NORMAL
    game.refresh_from_db()
    response = manager.post(url("move_undo", game), {"version": game.version})
    assert response.status_code == 302
    assert fresh(game).outcome == Outcome.PENDING
    assert seats(game) == [(None, None)] * 4
    game.refresh_from_db()
    response = manager.post(
        url("move_correct", game), {"version": game.version, "number": 1, "notation": "8H ZOENEN"}
    )
    assert response.status_code == 302
    rows = list(Move.objects.filter(game=game).order_by("number"))
    assert len(rows) == 12
    # Bert started: the seats stay his, Cor's, Dirk's, Anna's, ...; ZOENEN from H8: Z 4,
    # O 1, E 1, N 1, E on L8 (double letter) 2, N 1 = 10, doubled on H8: 20.
    assert [row.seat for row in rows[:9]] == [1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert (rows[0].score, rows[0].problem_code) == (20, "")
    assert all(not row.problem_code for row in rows)
    assert post_move(manager, game, kind="endrack", tiles="NNOOPRS").status_code == 302
    # The racks are as typed before: Bert 20 - 19 = 1; Anna -7, Cor -16, Dirk -11.
    assert seats(game) == [(-7, 2), (1, 1), (-16, 4), (-11, 3)]
    actions = list(HistoryEntry.objects.filter(game_id=game.pk).values_list("action", flat=True))
    assert HistoryAction.MOVE_UNDO in actions and HistoryAction.MOVE_CORRECT in actions


# --- the clock ---------------------------------------------------------------------------


def test_a_flag_that_falls_at_a_table_of_four_loses_against_every_other_player(
    secretary, competition
):
    """A club variant with the clock and flag fall (one minute each): Cor leads when his
    flag falls, and comes last all the same; the others are placed by their scores."""
    variant = rules.RuleSet.from_dict(
        {**rules.STANDARD.to_dict(), "flag_fall_loses": True, "clock_minutes": 1}
    )
    game = table_game(competition, 4, variant, starter=2)
    start = timezone.now()
    clock = clock_start(game=game, by=secretary, now=start)
    assert clock.budget_ms == [60_000] * 4
    move_add(game=game, notation="8H ZOEN", by=secretary, now=start + timedelta(seconds=5))
    clock_press(
        game=game,
        kind="switch",
        player=2,
        sequence=1,
        at=5_000,
        by=secretary,
        now=start + timedelta(seconds=5),
    )
    for seat, second in ((3, 10), (0, 15), (1, 20)):
        move_add(game=game, notation="-", by=secretary, now=start + timedelta(seconds=second))
        clock_press(
            game=game,
            kind="switch",
            player=seat,
            sequence=1 + (second // 5) - 1,
            at=second * 1000,
            by=secretary,
            now=start + timedelta(seconds=second),
        )
    # Cor's clock runs again from 20 s; he had used 5 s: his flag falls at 75 s.
    assert not clock_flag(game=fresh(game), by=secretary, now=start + timedelta(seconds=70))
    shown = clock_view(fresh(game), now=start + timedelta(seconds=70))
    # Anna, Bert and Dirk used 5 s each; Cor 5 s and then 50 s.
    assert (shown["left"], shown["running"]) == ([55_000, 55_000, 5_000, 55_000], 2)
    assert clock_flag(game=fresh(game), by=secretary, now=start + timedelta(seconds=80))
    stored = fresh(game)
    assert stored.outcome == Outcome.FLAG_FALL
    assert [(seat.score, seat.place, seat.flag_fell) for seat in stored.seat_list] == [
        (0, 1, False),
        (0, 1, False),
        (14, 4, True),
        (0, 1, False),
    ]


# --- a rule set for fewer players ---------------------------------------------------------


def test_a_table_its_rules_cannot_seat_is_explained_on_every_board_page(
    client, secretary, competition
):
    """Gouds 8 is for 2 players: a table of 4 paired under it has its final scores entered
    on the result page; its board pages say so in Dutch, and a post changes nothing."""
    game = table_game(competition, 4, rules.GOUDS_8)
    client.force_login(secretary)
    wanted = (
        "Deze partij volgt Gouds 8, voor hoogstens 2 spelers, en aan deze tafel zitten er 4: "
        "de zetten kunnen niet op het bord worden ingevoerd."
    )
    for name in ("board", "replay", "game_analysis", "gcg_download", "gcg_upload"):
        response = client.get(url(name, game))
        assert response.status_code == 200, name
        assert wanted in text(response), name
    response = client.post(
        url("board", game), {"version": game.version, "kind": "play", "notation": "8H ZOEN"}
    )
    assert response.status_code == 422
    assert wanted in text(response)
    for name in ("move_undo", "game_starter", "move_correct"):
        assert client.post(url(name, game), {"version": game.version}).status_code == 422
    assert client.get(url("game_result", game)).status_code == 200
    assert not Move.objects.filter(game=game).exists()
    assert fresh(game).version == game.version


# --- odd input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "data", "wanted"),
    [
        ("game_starter", {"starter": "3"}, "Kies wie er begint."),
        ("game_starter", {"starter": "9"}, "Kies wie er begint."),
        ("game_starter", {"starter": "-1"}, "Kies wie er begint."),
    ],
)
def test_a_starter_not_at_a_table_of_three_is_refused_in_dutch(
    client, secretary, competition, path, data, wanted
):
    game = table_game(competition, 3, starter="")
    client.force_login(secretary)
    response = client.post(url(path, game), {"version": game.version, **data}, follow=True)
    assert response.status_code == 200
    assert wanted in text(response)
    assert fresh(game).starter is None


def test_odd_end_racks_at_a_table_of_four_are_refused_in_dutch(client, secretary, competition):
    game = table_game(competition, 4)
    for notation in ("8H ZOEN", *["-"] * 8):
        move_add(game=game, notation=notation, by=None)
    client.force_login(secretary)
    for tiles in ("AAAAAAAAA", "ZZZ", "12", "ÅÆ", "AAEEIIO" * 40):
        response = post_move(client, game, kind="endrack", tiles=tiles)
        assert response.status_code == 422, tiles
        assert 'id="move-error"' in text(response)
    assert Move.objects.filter(game=game).count() == 9


# --- query budget -------------------------------------------------------------------------


def _queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(path)
    assert response.status_code == 200
    return len(context.captured_queries)


def test_the_board_pages_cost_the_same_queries_at_a_table_of_four_as_for_a_pair(
    client, secretary, competition, django_assert_num_queries
):
    pair, four = table_game(competition, 2), table_game(competition, 4)
    for game in (pair, four):
        for notation in ("8H ZOEN", "-", "-"):
            move_add(game=game, notation=notation, by=None)
    client.force_login(secretary)
    client.get(url("board", four))
    # session, user, game, its seats, the secretary check, the moves
    with django_assert_num_queries(6):
        client.get(url("board", four))
    assert _queries(client, url("board", four)) == _queries(client, url("board", pair))
    assert _queries(client, url("replay", four)) == _queries(client, url("replay", pair))


def test_the_live_preview_scores_for_the_player_to_move_at_a_table(manager, competition):
    game = table_game(competition, 4, starter=3)
    move_add(game=game, notation="8H ZOEN", by=None)  # Dirk's
    game.refresh_from_db()
    response = manager.post(
        url("move_preview", game),
        {"version": game.version, "kind": "play", "notation": "H8 .EE"},
    )
    assert response.status_code == 200
    # Anna's turn: down from Dirk's Z on H8 (its premium used): Z 4 + E 1 + E 1 = 6.
    assert re.search(r'class="preview-score">6<', text(response))
    assert Move.objects.filter(game=game).count() == 1


def test_a_correction_of_a_move_that_is_not_there_is_refused_in_dutch(
    client, secretary, competition
):
    game = table_game(competition, 4)
    move_add(game=game, notation="8H ZOEN", by=None)
    client.force_login(secretary)
    game.refresh_from_db()
    for number in ("2", "0", "99999999999", "x"):
        response = client.post(
            url("move_correct", game),
            {"version": game.version, "number": number, "notation": "8H ZOENEN"},
            follow=True,
        )
        assert response.status_code == 200, number
        page = text(response)
        assert "Er is geen zet" in page or "Typ de gecorrigeerde zet." in page, number
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == ["8H ZOEN"]
