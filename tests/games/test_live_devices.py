"""A club evening on a live server: many devices saving moves at the same moment.

Real HTTP from threads against pytest-django's `live_server` (a threaded WSGI server: one
thread, and so one database connection, per request), on SQLite and, in CI, on PostgreSQL.

Why the SQLite test database is a file (config/settings.py, `TEST["NAME"]`): Django's
default test database for SQLite is in memory, and for an in-memory database the live
server hands its request threads the test's own connection. Requests then interleave on
that one connection (one transaction for all of them) and meet SQLite's shared-cache table
locks, which answer at once with "database table is locked" and which no busy timeout
waits for. That is neither what `make run` does nor what a club evening meets. On a file
each request thread opens its own connection with the production OPTIONS (WAL, IMMEDIATE
transactions, busy timeout) and they really queue for SQLite's one write lock, as the
devices of a club evening do. Without those OPTIONS these tests fail with HTTP 500
"database is locked"; with an in-memory database they fail whatever the OPTIONS.
"""

import pytest

from clubs.models import Player
from competition.models import Entrant, Round
from competition.services.rounds import round_set_pairings
from games.models import Game, Move
from tests.factories import PASSWORD
from tests.live import at_once, demo_scoresheets, logged_in_devices
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db(transaction=True)


def _pair(round_obj: Round, starters: list[str]) -> list[Game]:
    players = Player.objects.bulk_create(
        Player(name=f"Speler {index:02d}") for index in range(2 * len(starters))
    )
    Entrant.objects.bulk_create(
        Entrant(competition=round_obj.competition, player=player) for player in players
    )
    return round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(
                player_a=players[2 * index].pk,
                player_b=players[2 * index + 1].pk,
                table=index + 1,
                starter=starter,
            )
            for index, starter in enumerate(starters)
        ],
    )


def test_ten_devices_enter_ten_games_move_by_move_at_once(live_server, club_evening):
    sheets = demo_scoresheets()
    plan = [sheets[index % len(sheets)] for index in range(10)]
    games = _pair(club_evening, [sheet.starter for sheet in plan])
    devices = logged_in_devices(live_server.url, 10, "secretaris", PASSWORD)

    replies = at_once(
        [
            lambda device=device, game=game, sheet=sheet: device.enter_game(game.pk, sheet)
            for device, game, sheet in zip(devices, games, plan, strict=True)
        ]
    )

    statuses = [status for device in devices for _method, _path, status, _s in device.log]
    assert not [status for status in statuses if status >= 500]
    # Each device enters its own game: no save may be refused, none tried twice, and each
    # answer is the new board (the screen reads the board once, at the start).
    saves = [reply.saved for device_replies in replies for reply in device_replies]
    assert saves == [True] * sum(len(sheet.moves) for sheet in plan)
    assert [method for device in devices for method, *_ in device.log].count("GET") == 10
    for game, sheet in zip(games, plan, strict=True):
        game.refresh_from_db()
        moves = list(Move.objects.filter(game=game).order_by("number"))
        assert [move.number for move in moves] == list(range(1, len(sheet.moves) + 1))
        assert [(move.notation, move.rack) for move in moves] == list(sheet.moves)
        # The same moves on one device (the rules engine replaying the file) give these.
        assert (game.scores[0], game.scores[1]) == sheet.final_scores
        assert game.has_result


def test_twenty_devices_save_the_first_move_of_one_game_at_once(live_server, club_evening):
    sheet = demo_scoresheets()[0]
    (game,) = _pair(club_evening, [sheet.starter])
    devices = logged_in_devices(live_server.url, 20, "secretaris", PASSWORD)
    notation, rack = sheet.moves[0]

    replies = at_once(
        [
            lambda device=device: device.save_move(game.pk, notation, rack, version=0)
            for device in devices
        ]
    )

    statuses = sorted(reply.status for reply in replies)
    # One save wins; every other device is told someone else entered a move (409).
    assert statuses == [302] + [409] * 19
    assert list(Move.objects.filter(game=game).values_list("number", "notation")) == [(1, notation)]
    game.refresh_from_db()
    assert game.version == 1
