"""One lock order for every write (clubs/locks.py): every row lock is taken in its home,
and on PostgreSQL the writes that run beside a secretary's save never wait for it.

The deadlock these tests keep away: a results save held the club row FOR UPDATE while a
board save, holding the competition's row, inserted a history entry of that club, whose
foreign key needs a share lock on the club row. Each waited for the other. With every
lock FOR NO KEY UPDATE, the foreign-key checks pass beside it.
"""

import ast
import threading
from pathlib import Path

import pytest
from django.db import connection, transaction

from clubs.locks import club_lock
from competition.services.rounds import round_lock
from games.confirmation import game_result_enter
from games.moves import move_add
from games.services import ResultInput
from tests.factories import EntrantFactory, GameFactory, RoundFactory, UserFactory

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
    for app in ("clubs", "competition", "games", "config"):
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
    "connection.vendor != 'postgresql'",
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
