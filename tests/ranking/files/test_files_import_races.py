"""The same results file confirmed twice at once (two officials, a double click on two
devices), on SQLite and on PostgreSQL: one import, one clear refusal, nothing doubled.

The first import is held open in a thread (everything written, not committed) while the
second comes in; on PostgreSQL the test waits until the database says the second waits for
a lock (the federation's row); on SQLite it waits for the write lock at its BEGIN.
"""

from __future__ import annotations

import threading
from datetime import date

import pytest
from django.db import connection, transaction

from ranking.files_import import ResultsImportError, results_import_apply
from ranking.models import RankedEvent, RankedResult
from ranking.selectors import season_standings
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


def _between_the_rankings_two_reads(change):
    """An execute wrapper that runs `change` in a thread of its own (its own connection,
    committed) right before the season ranking reads its games, after it read the results."""

    def wrapper(execute, sql, params, many, context):
        if '"ranking_rankedgame"."winner_points"' in sql and not done:
            done.append(True)
            other = Beside(change)
            other.start()
            other.thread.join(30)
            assert other.error is None, other.error
        return execute(sql, params, many, context)

    done: list[bool] = []
    return wrapper


def _ranking(standings):
    return [(row.person, row.rank, row.average, row.games) for row in standings.ranking.persons]


def test_an_event_imported_or_removed_between_the_rankings_two_reads(season, official, clubs):
    """The season's ranking reads its results, then its games: an import or a removal
    committed in between is left out, as if it came after, not a server error."""
    results_import_apply(data=as_json(interclub()), season=season, by=official)
    kept = _ranking(season_standings(season))

    later = as_json(interclub(day=date(2026, 11, 7), name="Interclub Delft"))
    with connection.execute_wrapper(
        _between_the_rankings_two_reads(
            lambda: results_import_apply(data=later, season=season, by=official)
        )
    ):
        assert _ranking(season_standings(season)) == kept
    grown = _ranking(season_standings(season))
    assert grown != kept

    delft = RankedEvent.objects.get(name="Interclub Delft")
    with connection.execute_wrapper(
        _between_the_rankings_two_reads(lambda: RankedEvent.objects.filter(pk=delft.pk).delete())
    ):
        assert _ranking(season_standings(season)) == kept
    assert _ranking(season_standings(season)) == kept
