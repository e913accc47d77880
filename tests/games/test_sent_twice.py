"""A move sent twice from the board (its answer or the connection lost) is saved once:
the form's key (clubs/submissions.py), on SQLite and on PostgreSQL; two copies at once,
in two threads, save once too."""

import threading
import uuid

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils.timezone import now

from clubs.models import HistoryEntry, Submission, Throttle, ThrottleScope
from clubs.submissions import KEPT, AlreadySaved, Sent, submission_once
from games.confirmation import game_moves_write
from games.models import Move
from games.moves import move_add
from tests.test_lock_order import Beside

HTMX = {"HTTP_HX_REQUEST": "true"}


def _move(game, key, notation="8H WOORD", version=None):
    return {
        "version": game.version if version is None else version,
        "kind": "play",
        "notation": notation,
        "submission": str(key),
    }


@pytest.mark.django_db
def test_the_same_move_sent_twice_is_saved_once(secretary_client, game):
    url = reverse("board", args=[game.pk])
    key = uuid.uuid4()
    first = secretary_client.post(url, _move(game, key), **HTMX)
    assert first.status_code == 200
    history = HistoryEntry.objects.count()
    # The same form again: its answer was lost. The board as it is now, nothing saved.
    again = secretary_client.post(url, _move(game, key, version=game.version), **HTMX)
    assert again.status_code == 200
    assert 'data-move="1"' in again.content.decode()
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == ["8H WOORD"]
    assert HistoryEntry.objects.count() == history
    (submission,) = Submission.objects.all()
    assert (submission.key, submission.kind) == (key, "move")
    assert submission.led_to.startswith(f"game {game.pk} move ")
    # Without the page's script (a plain form post), the answer is the board's address.
    plain = secretary_client.post(url, _move(game, key, version=game.version))
    assert plain.status_code == 302 and Move.objects.filter(game=game).count() == 1
    # A new key is a new move, checked as always: this one is out of date.
    other = secretary_client.post(url, _move(game, uuid.uuid4(), "H8 WAAS", 0), **HTMX)
    assert other.status_code == 200 and Move.objects.filter(game=game).count() == 1
    assert Submission.objects.count() == 1


@pytest.mark.django_db
def test_a_move_changed_after_it_was_sent_is_refused_in_words(secretary_client, game):
    """Sent, its answer lost, then changed and sent again with the same key: the first is
    on the board, the change is refused in words (409), nothing saved twice or dropped
    in silence. The same move on another version (one that waited behind another and went
    out on the version that one's save gave) is the same move: answered as the first."""
    url = reverse("board", args=[game.pk])
    key = uuid.uuid4()
    version = game.version
    assert secretary_client.post(url, _move(game, key), **HTMX).status_code == 200
    history = HistoryEntry.objects.count()
    changed = secretary_client.post(url, _move(game, key, "8H WOORDEN", version))
    assert changed.status_code == 409
    text = changed.content.decode()
    assert "Deze zet was al opgeslagen zoals hij eerst werd verstuurd" in text
    assert 'data-move="1"' in text  # the board as it is now
    # With htmx the same words, swapped in like any refusal (200: no console error).
    swapped = secretary_client.post(url, _move(game, key, "8H WOORDEN", version), **HTMX)
    assert swapped.status_code == 200
    assert "Deze zet was al opgeslagen" in swapped.content.decode()
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == ["8H WOORD"]
    assert HistoryEntry.objects.count() == history
    # The same move on the version after it: a repeat, not a change.
    again = secretary_client.post(url, _move(game, key, "8H WOORD", version + 1), **HTMX)
    assert again.status_code == 200 and "Deze zet was al opgeslagen" not in again.content.decode()
    assert Move.objects.filter(game=game).count() == 1 and Submission.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "nonsense", "0" * 200, "\x00"])
def test_a_missing_or_odd_key_saves_as_before(secretary_client, game, key):
    url = reverse("board", args=[game.pk])
    reply = secretary_client.post(url, {**_move(game, "x"), "submission": key}, **HTMX)
    assert reply.status_code == 200
    assert Move.objects.filter(game=game).count() == 1 and not Submission.objects.exists()


@pytest.mark.django_db
def test_old_keys_are_pruned(game, secretary):
    old = Submission.objects.create(key=uuid.uuid4(), made=now() - KEPT * 2, kind="x")
    recent = Submission.objects.create(key=uuid.uuid4(), made=now(), kind="x")
    pruning = uuid.UUID(int=64 * 12345)  # one key in 64 prunes
    submission_once(Sent(pruning, ""), by=secretary, kind="test", write=lambda: None)
    assert set(Submission.objects.values_list("pk", flat=True)) == {
        recent.pk,
        Submission.objects.get(key=pruning).pk,
    }
    assert not Submission.objects.filter(pk=old.pk).exists()


class HeldOpen:
    """`submission_once` in a thread whose transaction stays open (the move saved and its
    key written, not committed) until the block ends."""

    def __init__(self, write) -> None:
        self.write = write
        self.ready = threading.Event()
        self.release = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            with transaction.atomic():
                self.write()
                self.ready.set()
                self.release.wait(30)
        except BaseException as error:  # reported by the test
            self.error = error
            self.ready.set()
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        assert self.ready.wait(30) and self.error is None, self.error
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.thread.join(30)
        assert self.error is None, self.error


@pytest.mark.django_db(transaction=True)
def test_two_copies_at_once_save_once(game, secretary):
    """The first copy has saved the move and holds its transaction; the second comes in
    meanwhile (on PostgreSQL: the test waits until it waits for the game's lock), then
    the first commits. The second saves nothing and is answered as the first."""
    key = uuid.uuid4()
    version = game.version

    def save():
        return submission_once(
            Sent(key, "the same form"),
            by=secretary,
            kind="move",
            write=lambda: game_moves_write(
                game=game,
                by=secretary,
                write=lambda locked: move_add(
                    game=locked, notation="8H WOORD", by=secretary, expected_version=version
                ),
            ),
        )

    def second():
        try:
            save()
        except AlreadySaved:
            return "already saved"
        return "saved"

    with HeldOpen(save):
        beside = Beside(second)
        beside.start()
        if connection.vendor == "postgresql":
            beside.wait_for_a_lock()
    assert beside.result() == "already saved"
    assert Move.objects.filter(game=game).count() == 1
    assert Submission.objects.filter(key=key).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_changed_copy_at_the_same_moment_is_refused_as_changed(game, secretary):
    """The first copy has saved its move and holds its transaction; a second copy with the
    same key but another move comes in meanwhile (on PostgreSQL: it waits for the game's
    lock). Once the first commits, the second saves nothing and learns that its change
    was not saved."""
    key = uuid.uuid4()
    version = game.version

    def save(notation):
        return submission_once(
            Sent(key, notation),
            by=secretary,
            kind="move",
            write=lambda: game_moves_write(
                game=game,
                by=secretary,
                write=lambda locked: move_add(
                    game=locked, notation=notation, by=secretary, expected_version=version
                ),
            ),
        )

    def second():
        try:
            save("8H WOORDEN")
        except AlreadySaved as repeat:
            return "changed, not saved" if repeat.edited else "already saved"
        return "saved"

    with HeldOpen(lambda: save("8H WOORD")):
        beside = Beside(second)
        beside.start()
        if connection.vendor == "postgresql":
            beside.wait_for_a_lock()
    assert beside.result() == "changed, not saved"
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == ["8H WOORD"]
    assert Submission.objects.filter(key=key).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_copies_of_a_write_without_checks_of_its_own_save_once(secretary):
    """Only the key stands between them: the second waits for the first's key (PostgreSQL's
    unique index; SQLite's write lock) and its own write is rolled back."""
    key = uuid.uuid4()
    copies = iter(["first", "second"])

    def save():
        return submission_once(
            Sent(key, "the same form"),
            by=None,
            kind="test",
            write=lambda: Throttle.objects.create(
                scope=ThrottleScope.MAIL_SENDER, subject=next(copies), last_failure_at=now()
            ),
        )

    def second():
        try:
            save()
        except AlreadySaved:
            return "already saved"
        return "saved"

    with HeldOpen(save):
        beside = Beside(second)
        beside.start()
        if connection.vendor == "postgresql":
            beside.wait_for_a_lock()
    assert beside.result() == "already saved"
    assert list(Throttle.objects.values_list("subject", flat=True)) == ["first"]
