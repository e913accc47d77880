"""Nothing typed is lost when the database cannot take a write: every form of the evening,
posted while another writer holds the database, gets the 503 page with what was posted
in a form that saves it again with one tap (passwords excepted: a browser never shows
them back).

The forms are read from the pages as tests/test_odd_forms.py finds them, so a form added
later is covered without touching this test.
"""

import sqlite3

import psycopg
import pytest
from django.db import connection

from tests.test_odd_forms import NOT_POSTED, page_addresses, post_forms
from tests.test_odd_forms import evening as evening  # the fixture

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def busy_database():
    """Another program writing for longer than a request may wait (0.2 s): on SQLite it
    holds the write lock; on PostgreSQL it holds the history table, which every change
    writes to (readers pass, as they would beside a long import)."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        other = sqlite3.connect(settings["NAME"], isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        original = settings["OPTIONS"].get("timeout")
        settings["OPTIONS"]["timeout"] = 0.2
        connection.close()  # the next query connects with the short timeout
        yield
        other.execute("ROLLBACK")
        other.close()
        settings["OPTIONS"]["timeout"] = original
    else:
        other = psycopg.connect(
            dbname=settings["NAME"],
            user=settings["USER"],
            password=settings["PASSWORD"],
            host=settings["HOST"],
            port=settings["PORT"] or 5432,
        )
        other.execute("LOCK TABLE clubs_historyentry IN EXCLUSIVE MODE")
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '200ms'")
        yield
        other.rollback()
        other.close()
    connection.close()


def as_posted(fields: dict[str, list[str]]) -> dict[str, str]:
    """What a browser posts of a form left as it is shown: each field's first value."""
    return {name: values[0] for name, values in fields.items() if values}


@pytest.mark.parametrize("who", ["secretary", "anna"])
def test_a_refused_write_of_any_form_keeps_what_was_posted(client, evening, who, request):
    client.force_login(evening[who])
    forms = {}
    for address in page_addresses(evening["values"]):
        response = client.get(address)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            for form in post_forms(response.content.decode(), address):
                if form["action"] not in NOT_POSTED:
                    forms[(form["action"], tuple(sorted(form["fields"])))] = form
    request.getfixturevalue("busy_database")

    refused = 0
    for form in forms.values():
        posted = as_posted(form["fields"])
        response = client.post(form["action"], posted)
        if response.status_code != 503:
            continue  # nothing to write (a preview, a language), or written elsewhere
        refused += 1
        kept = [
            again
            for again in post_forms(response.content.decode(), form["action"])
            if again["action"] == form["action"]
        ]
        assert len(kept) == 1, form["action"]
        expected = {name: value for name, value in posted.items() if "password" not in name}
        assert as_posted(kept[0]["fields"]) == expected, form["action"]
        assert "Opnieuw opslaan" in response.content.decode()
    # SQLite takes its write lock at BEGIN, so even a save that changes nothing waits;
    # PostgreSQL waits only where a change reaches the history.
    expected = {"sqlite": {"secretary": 20, "anna": 3}, "postgresql": {"secretary": 6, "anna": 1}}
    assert refused >= expected[connection.vendor][who]
