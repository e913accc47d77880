"""The SQLite backend's writer queue (config/sqlite): one turn per transaction, always given
back, whatever ends the transaction; the threads of a process and the processes of a server
queue on it."""

import select
import subprocess
import sys
import threading

import pytest
from django.db import connection, transaction

from clubs.models import Club
from config.sqlite.base import WriterQueue, writer_queue

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the writer queue is SQLite's"),
]


def writer_lock():
    return writer_queue(str(connection.settings_dict["NAME"]))


def test_a_transaction_holds_the_turn_until_it_commits():
    with transaction.atomic():
        Club.objects.create(name="A", slug="a")
        assert writer_lock().locked()
    assert not writer_lock().locked()


def test_a_failed_transaction_gives_the_turn_back():
    with pytest.raises(RuntimeError), transaction.atomic():
        Club.objects.create(name="B", slug="b")
        raise RuntimeError
    assert not writer_lock().locked()
    assert not Club.objects.filter(slug="b").exists()


def test_writers_of_one_process_take_turns():
    """Eight threads each add a club in a transaction that reads, then writes: none is
    refused, all are written (SQLite alone would poll; here they queue)."""
    errors = []
    start = threading.Barrier(8)

    def add(number: int) -> None:
        try:
            start.wait()
            with transaction.atomic():
                count = Club.objects.count()
                Club.objects.create(name=f"Club {number}", slug=f"club-{number}-{count}")
        except Exception as error:  # recorded, asserted below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=add, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    assert Club.objects.count() == 8
    # The counts each transaction read differ: they ran one after another, not interleaved.
    assert sorted(
        int(slug.rsplit("-", 1)[1]) for slug in Club.objects.values_list("slug", flat=True)
    ) == list(range(8))
    assert not writer_lock().locked()


#: Another process (a second gunicorn worker) that holds the writers' turn of a database
#: file for a while: it prints "held" once it has the turn, and "releasing" just before it
#: gives the turn back.
HOLDER = """
import sys, time
from config.sqlite.base import WriterQueue
queue = WriterQueue(sys.argv[1])
assert queue.acquire(5) and queue._file_held
print("held", flush=True)
time.sleep(float(sys.argv[2]))
print("releasing", flush=True)
queue.release()
"""


def hold_in_another_process(database: str, seconds: float) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, database, str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_a_writer_waits_for_another_process_and_goes_on_when_it_is_done():
    """Without SQLite's polling: the transaction starts once the other process gives the
    turn back, and not before. (How soon after: benchmarks/devices.py.)"""
    holder = hold_in_another_process(str(connection.settings_dict["NAME"]), 0.5)
    with transaction.atomic():
        # The holder says "releasing" before it lets go: that it is already said (without
        # waiting for it here) shows this writer waited for the holder.
        assert select.select([holder.stdout], [], [], 0)[0], "went on before the holder"
        assert holder.stdout.readline().strip() == "releasing"
        Club.objects.create(name="Na de ander", slug="na-de-ander")
    holder.wait(timeout=10)
    assert Club.objects.filter(slug="na-de-ander").exists()


def test_a_writer_waits_no_longer_than_the_timeout(tmp_path):
    """A process that keeps the turn (a stuck command) holds nobody up past the busy
    timeout: the writer goes on to SQLite's own waiting, without the file's turn."""
    database = str(tmp_path / "club.sqlite3")
    holder = hold_in_another_process(database, 60)
    try:
        queue = WriterQueue(database)
        assert queue.acquire(0.2) and not queue._file_held
        # it went on while the other process still holds the turn (for 60 s)
        assert holder.poll() is None
        queue.release()
        assert not queue.locked()
    finally:
        holder.kill()
        holder.wait()
    # The holder is gone (killed): the kernel gave its turn back.
    queue = WriterQueue(database)
    assert queue.acquire(0.2) and queue._file_held
    queue.release()


def test_an_in_memory_database_has_no_file_to_queue_on():
    queue = WriterQueue(":memory:")
    assert queue.path is None
    assert queue.acquire(1) and not queue._file_held
    queue.release()
