"""Another program writing for longer than a request may wait: the database "busy".

On SQLite it holds the database's write lock; on PostgreSQL the history table, which every
change writes to (readers pass, as they do beside a long import). Requests wait at most
`WAIT`, on the test's own connection and on the ones a live server opens meanwhile. Used by
the tests of the 503 "Even druk" page and of what it keeps (tests/config,
tests/test_busy_forms.py, tests/e2e).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.db import connection

#: Seconds a request waits for the held database. On SQLite every write waits it out and is
#: refused however long it is (readers never wait there), so it is short: a form test posts
#: some thirty writes. On PostgreSQL it is any lock wait of any request meanwhile, and a
#: live server's requests may briefly wait for each other's row locks: longer.
WAIT = {"sqlite": 0.05, "postgresql": 0.2}


@contextmanager
def database_held() -> Iterator[None]:
    options = connection.settings_dict["OPTIONS"]
    if connection.vendor == "sqlite":
        other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        setting, value = "timeout", WAIT["sqlite"]
    else:
        settings = connection.settings_dict
        other = psycopg.connect(
            dbname=settings["NAME"],
            user=settings["USER"],
            password=settings["PASSWORD"],
            host=settings["HOST"],
            port=settings["PORT"] or 5432,
        )
        other.execute("LOCK TABLE clubs_historyentry IN EXCLUSIVE MODE")
        setting, value = "options", f"-c lock_timeout={int(WAIT['postgresql'] * 1000)}"
    original = options.get(setting)
    options[setting] = value
    connection.close()  # the next query connects with the short wait
    try:
        yield
    finally:
        other.close()  # its transaction ends with it
        if original is None:
            options.pop(setting, None)
        else:
            options[setting] = original
        connection.close()
