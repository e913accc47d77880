"""One lock order for every write (clubs/locks.py): every row lock is taken in its home,
and on PostgreSQL the writes that run beside a secretary's save never wait for it.

The deadlock these tests keep away: a results save held the club row FOR UPDATE while a
board save, holding the competition's row, inserted a history entry of that club, whose
foreign key needs a share lock on the club row. Each waited for the other. With every
lock FOR NO KEY UPDATE, the foreign-key checks pass beside it.
"""

import ast
import threading
import time
from pathlib import Path

import pytest
from django.db import connection, transaction

from clubs.locks import club_lock
from competition.services.importing import ImportDecisions, results_import_apply
from competition.services.rounds import round_lock
from competition.versioning import on_game_changed
from games.confirmation import game_result_enter
from games.locks import games_lock
from games.models import Game
from games.moves import move_add
from games.services import ResultInput
from tests.factories import (
    EntrantFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    UserFactory,
)

ROOT = Path(__file__).resolve().parent.parent
LOCK_HOMES = {"clubs/locks.py", "games/locks.py"}


def _calls_of(name: str, path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == name
    ]


def test_every_row_lock_is_taken_in_its_home():
    """A `select_for_update` anywhere else would be a lock outside the documented order."""
    strays = []
    for app in ("clubs", "competition", "games", "duplicate", "config"):
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative in LOCK_HOMES or "/migrations/" in relative:
                continue
            strays += [f"{relative}:{line}" for line in _calls_of("select_for_update", path)]
    assert strays == []


def test_the_lock_homes_take_no_lock_that_excludes_foreign_key_checks():
    for home in LOCK_HOMES:
        source = (ROOT / home).read_text(encoding="utf-8")
        calls = source.count(".select_for_update(")
        assert calls >= 1
        assert source.count("no_key=True") >= calls, home


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks are PostgreSQL's; on SQLite every write runs alone (config/settings.py)",
)


class Holding:
    """`hold()` run in a second thread's transaction, kept open until the block ends: a
    secretary's save that has taken its first locks and is still busy."""

    def __init__(self, hold):
        self.hold = hold
        self.ready = threading.Event()
        self.release = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run)

    def _run(self):
        try:
            with transaction.atomic():
                self.hold()
                self.ready.set()
                self.release.wait(30)
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error
            self.ready.set()
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        assert self.ready.wait(30)
        assert self.error is None
        with connection.cursor() as cursor:
            # Waiting at all is the failure: a wait would end in an error, not in a pass.
            cursor.execute("SET lock_timeout = '3s'")
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.thread.join(30)
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
        assert self.error is None


#: The marks of a test that fires writes from two connections at once: a database the
#: threads share committed, and PostgreSQL, where writers really run side by side.
AT_ONCE_ON_POSTGRESQL = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="on SQLite every write runs alone (config/settings.py): nothing runs at once",
    ),
]


def at_once(*calls):
    """Run the calls in threads, each on its own connection, that start together; their
    results (or errors) in order."""
    start = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            start.wait(10)
            results[index] = call()
        except BaseException as error:  # kept for the test, not lost in the thread
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.fixture
def table(competition):
    round_ = RoundFactory(competition=competition, status="published")
    anna = EntrantFactory(competition=competition).player
    bert = EntrantFactory(competition=competition).player
    game = GameFactory(round=round_, player_a=anna, player_b=bert, starter="a")
    return round_, game


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_board_save_goes_on_while_the_secretary_holds_club_and_round(table):
    round_, game = table
    with Holding(lambda: round_lock(round_)):
        move = move_add(game=game, notation="8H WOORD", by=None, expected_version=game.version)
    assert move.score == 26


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_players_result_goes_on_while_the_secretary_holds_the_club(table, club):
    _round, game = table
    player = UserFactory()
    first = game.players[0]
    first.user = player
    first.save()
    with Holding(lambda: club_lock(club.pk)):
        entered = game_result_enter(
            game=game,
            result=ResultInput.of_pair(kind="normal", score_a=300, score_b=250),
            by=player,
        )
    assert entered.confirmation == "provisional"


@pytest.mark.django_db
def test_a_board_save_moves_the_competitions_timestamp_last(table):
    """All boards of a competition update its one `changed_at` row, which stays locked
    from that update until the commit: a board save writes it after its own writes, so
    the next board waits for one commit at most, not for the rest of this save."""
    from django.test.utils import CaptureQueriesContext

    _round, game = table
    with CaptureQueriesContext(connection) as captured:
        move_add(game=game, notation="8H WOORD", by=None, expected_version=game.version)
    writes = [
        query["sql"].split()[0:3]
        for query in captured
        if query["sql"].startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert len(writes) >= 3  # the move, its history entry, the game
    assert writes[-1][:2] == ["UPDATE", '"competition_competition"']
    assert sum(write[1] == '"competition_competition"' for write in writes) == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_an_import_and_a_board_save_of_one_of_its_games_do_not_wait_in_a_circle(competition):
    """A board save holds its game, then touches the round's competition. An import that
    changes that game and an earlier one locks all its games first, in id order, so it
    waits for the board save while holding none of what the save touches next (locking
    them one by one, it held the competition row by then: a deadlock)."""
    names = ("Anna", "Bert", "Cor", "Dirk")
    for name in names:
        EntrantFactory(competition=competition, player=PlayerFactory(name=name))
    header = b"round,table,player,opponent,score,opponent_score,outcome\n"
    first = header + b"1,1,Anna,Bert,320,290,normal\n1,2,Cor,Dirk,300,310,normal\n"
    results_import_apply(competition=competition, data=first, decisions=ImportDecisions(), by=None)
    later = Game.objects.filter(round__competition=competition).order_by("pk").last()
    corrected = header + b"1,1,Anna,Bert,330,290,normal\n1,2,Cor,Dirk,305,310,normal\n"
    importer = Beside(
        lambda: results_import_apply(
            competition=competition,
            data=corrected,
            decisions=ImportDecisions(replace=True),
            by=None,
        )
    )
    with transaction.atomic():
        games_lock([later.pk])  # the board save has its game
        importer.start()
        importer.wait_for_a_lock()
        on_game_changed(Game, round_id=later.round_id)  # and touches the competition last
    importer.result()
    scores = Game.objects.filter(round__competition=competition).order_by("pk").with_seats()
    assert [game.scores for game in scores] == [(330, 290), (305, 310)]


class Beside:
    """`work()` in a second thread on its own connection, started while this thread holds
    a lock: `wait_for_a_lock()` returns once that connection waits for one (PostgreSQL's
    own view of it, no sleeping on a guess), `result()` gives what `work` returned.
    On SQLite (no such view) only `start()` and `result()`."""

    def __init__(self, work):
        self.work = work
        self.pid: int | None = None
        self.error: BaseException | None = None
        self.value = None
        self.thread = threading.Thread(target=self._run)

    def _run(self):
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    self.pid = cursor.fetchone()[0]
            self.value = self.work()
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error
        finally:
            connection.close()

    def start(self) -> None:
        self.thread.start()

    def wait_for_a_lock(self) -> None:
        """At most 10 s; at once when the work has failed."""
        for _ in range(1000):
            if self.error is not None or not self.thread.is_alive():
                return
            if self.pid is not None:
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [self.pid]
                    )
                    row = cursor.fetchone()
                if row and row[0] == "Lock":
                    return
            time.sleep(0.01)
        raise AssertionError("the other connection never came to wait for a lock")

    def result(self):
        self.thread.join(30)
        assert self.error is None, self.error
        return self.value
