"""The SQLite backend's writer queue (config/sqlite): one turn per transaction, always given
back, whatever ends the transaction."""

import threading

import pytest
from django.db import connection, transaction

from clubs.models import Club
from config.sqlite.base import _writer_lock

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the writer queue is SQLite's"),
]


def writer_lock():
    return _writer_lock(str(connection.settings_dict["NAME"]))


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
