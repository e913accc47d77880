"""The same results file confirmed twice at once (two officials, a double click on two
devices), on SQLite and on PostgreSQL: one import, one clear refusal, nothing doubled.

The first import is held open in a thread (everything written, not committed) while the
second comes in; on PostgreSQL the test waits until the database says the second waits for
a lock (the federation's row); on SQLite it waits for the write lock at its BEGIN.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from ranking.files_import import ResultsImportError, results_import_apply
from ranking.models import RankedEvent, RankedResult
from tests.ranking.files.files_data import as_json, interclub
from tests.test_lock_order import Beside

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_same_file_twice_at_once(season, official, clubs):
    data = as_json(interclub())
    ready, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def first():
        try:
            with transaction.atomic():
                results_import_apply(data=data, season=season, by=official)
                ready.set()
                release.wait(30)
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)
            ready.set()
        finally:
            connection.close()

    holder = threading.Thread(target=first)
    holder.start()
    assert ready.wait(30) and not errors, errors
    second = Beside(lambda: results_import_apply(data=data, season=season, by=official))
    second.start()
    if connection.vendor == "postgresql":
        second.wait_for_a_lock()
    release.set()
    holder.join(30)
    assert not errors, errors
    second.thread.join(30)
    assert isinstance(second.error, ResultsImportError), second.error
    assert "staat al in de ranglijst" in second.error.message  # its thread speaks Dutch
    assert RankedEvent.objects.count() == 1
    assert RankedResult.objects.count() == 10
