"""The demo club's copy (tests/demo_copy.py) is the demo club: row for row what
`seed_demo` wrote, in a test's transaction and outside one."""

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from tests import demo_copy


class _Undone(Exception):
    pass


def _seeded_then_undone(transactional: bool) -> tuple[str, demo_copy.Rows]:
    """Seed, read every row, and put the database back as it was."""
    if transactional:
        how = demo_copy.seed()
        found = demo_copy.rows()
        call_command("flush", interactive=False, verbosity=0)
        return how, found
    try:
        with transaction.atomic():
            how = demo_copy.seed()
            found = demo_copy.rows()
            raise _Undone
    except _Undone:
        return how, found


@pytest.mark.parametrize(
    "transactional",
    [
        pytest.param(False, marks=pytest.mark.django_db, id="in a transaction"),
        pytest.param(True, marks=pytest.mark.django_db(transaction=True), id="committed"),
    ],
)
def test_a_copy_is_what_the_command_wrote(monkeypatch, transactional):
    assert connection.in_atomic_block != transactional  # the test database, as marked
    if transactional:  # as the flush after each seed leaves it (no data migrations' rows)
        call_command("flush", interactive=False, verbosity=0)
    monkeypatch.setattr(demo_copy, "_kept", {})
    before = demo_copy.rows()

    first, written = _seeded_then_undone(transactional)
    assert demo_copy.rows() == before
    second, copied = _seeded_then_undone(transactional)

    assert (first, second) == ("command", "copy")
    assert copied == written
    assert sum(len(found) for found in written.values()) > 2000
    # Every table is a model's: no rows that the copy could not see.
    tables = set(connection.introspection.table_names())
    assert tables - set(connection.introspection.django_table_names()) <= {
        "django_migrations",
        "sqlite_sequence",
    }


def test_a_copy_is_made_only_into_the_state_it_was_kept_from(db, monkeypatch, other_club):
    """A database that holds other rows than when the copy was kept gets the command."""
    key = demo_copy._key()
    kept = demo_copy._Kept(before=demo_copy.rows(), added={})
    monkeypatch.setattr(demo_copy, "_kept", {key: kept})
    assert demo_copy.kept_for(key, demo_copy.rows()) is kept
    assert demo_copy.seed() == "copy"  # of no rows
    other_club.name = "Een andere naam"
    other_club.save()
    assert demo_copy.kept_for(key, demo_copy.rows()) is None
    assert demo_copy.kept_for((*key[:-1], "en"), kept.before) is None
