"""A database that cannot be written, on a live server: the page says why, in Dutch, and
keeps what was typed; `/gezond/` answers 503 with the reason while saves fail; once the
file is writable again, saves work at once, and the fault is logged once.

The database file is made read-only as an administrator would leave it: `chmod a-w` for
an ordinary user; as root (CI), whom file modes do not stop, the immutable attribute
(`chattr +i`), which stops root too.
"""

import contextlib
import logging
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from django.db import connection

from config.faults import Fault, fault_of, sqlite_file_writable
from config.sqlite.base import DatabaseWrapper
from games.models import Game
from tests.factories import PASSWORD
from tests.games.test_live_devices import _pair
from tests.live import Device
from tests.test_odd_forms import post_forms

sqlite_only = pytest.mark.skipif(
    "connection.vendor != 'sqlite'",
    reason="a read-only database file is SQLite's; PostgreSQL's faults are its server's",
)


@contextlib.contextmanager
def read_only(path: Path):
    """`path` not writable for this process (or fails the test in CI when that cannot be
    done here, and skips it on a developer's machine)."""
    as_root = os.geteuid() == 0
    if as_root:
        made = (
            shutil.which("chattr") and subprocess.run(["chattr", "+i", str(path)]).returncode == 0
        )
    else:
        path.chmod(0o444)
        made = True
    if not made or sqlite_file_writable(path):
        reason = f"cannot make {path} read-only here (chattr +i needs root and ext4 or similar)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield
    finally:
        if as_root:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o644)


class Collected(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def fault_log():
    handler = Collected()
    logger = logging.getLogger("config.middleware")
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)


def results_form(device: Device, path: str) -> dict[str, str]:
    html = device.get(path).body.decode()
    (form,) = [form for form in post_forms(html, path) if "form-TOTAL_FORMS" in form["fields"]]
    data = {name: values[0] for name, values in form["fields"].items() if values}
    data.update({name: "normal" for name in data if name.endswith("-kind")})
    return {name: value for name, value in data.items() if not name.endswith("-confirm")}


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_read_only_database_names_the_fault_and_keeps_what_was_typed(
    live_server, club_evening, fault_log
):
    (game,) = _pair(club_evening, ["a"])
    secretary = Device(live_server.url)
    secretary.log_in("secretaris", PASSWORD)
    path = f"/gouda/clubcompetitie/beheer/ronde/{club_evening.number}/uitslagen/"
    data = results_form(secretary, path)
    data["form-0-score_a"], data["form-0-score_b"] = "321", "287"
    database = Path(connection.settings_dict["NAME"])
    # SQLite hands a new connection a file descriptor that a closed one of the same
    # process left open, writable: as for a server restarted after the change, none is open.
    connection.close()

    with read_only(database):
        refused = secretary.post(path, data)
        health = secretary.get("/gezond/")

    page = refused.body.decode()
    assert refused.status == 503
    assert "De database kan niet worden beschreven" in page
    assert "alleen-lezen" in page
    assert "schrijfrechten" in page  # what whoever runs the server must do
    assert health.status == 503
    assert b'"database": "read_only"' in health.body
    assert [record.levelname for record in fault_log] == ["ERROR"]
    assert fault_log[0].exc_info is not None
    assert Game.objects.get(pk=game.pk).score_a is None

    # Writable again: the health is good at once, and "Opnieuw opslaan" saves what was typed.
    assert secretary.get("/gezond/").status == 200
    (again,) = [form for form in post_forms(page, path) if form["action"] == path]
    saved = secretary.post(path, {name: values[0] for name, values in again["fields"].items()})
    assert saved.status == 302
    stored = Game.objects.get(pk=game.pk)
    assert (stored.score_a, stored.score_b) == (321, 287)


@sqlite_only
@pytest.mark.django_db
def test_a_connection_opened_read_only_is_replaced_once_the_file_is_writable():
    """Under gunicorn a worker keeps its connection (CONN_MAX_AGE): one that SQLite opened
    read-only would stay read-only after the file is fixed, so it must not be kept."""
    folder = Path(tempfile.mkdtemp())
    path = folder / "fault.sqlite3"
    settings = {**connection.settings_dict, "NAME": str(path), "TEST": {}}
    first = DatabaseWrapper(settings, alias="fault")
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (x integer)")
    first.close()
    wrapper = DatabaseWrapper(settings, alias="fault")
    try:
        with read_only(path):
            wrapper.ensure_connection()
            assert wrapper.opened_writable is False
            assert wrapper.is_usable()  # still read-only: reconnecting would not help
            with pytest.raises(Exception) as refused, wrapper.cursor() as cursor:
                cursor.execute("INSERT INTO t VALUES (1)")
            assert fault_of(refused.value) is Fault.READ_ONLY
        assert not wrapper.is_usable()
    finally:
        wrapper.close()
        shutil.rmtree(folder)
