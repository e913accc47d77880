"""A database that cannot be written, on a live server: the page says why, in Dutch, and
keeps what was typed; `/gezond/` answers 503 with the reason while saves fail; once the
file is writable again, saves work at once, and the fault is logged once.

The database file is made read-only as an administrator would leave it: `chmod a-w` for
an ordinary user; as root (CI), whom file modes do not stop, the immutable attribute
(`chattr +i`), which stops root too.
"""

import contextlib
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from config.faults import Fault, fault_of, sqlite_file_writable
from config.sqlite.base import DatabaseWrapper
from tests.e2e.test_production_server import free_port
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


def results_form(device: Device, path: str) -> dict[str, str]:
    html = device.get(path).body.decode()
    (form,) = [form for form in post_forms(html, path) if "form-TOTAL_FORMS" in form["fields"]]
    data = {name: values[0] for name, values in form["fields"].items() if values}
    data.update({name: "normal" for name in data if name.endswith("-kind")})
    return {name: value for name, value in data.items() if not name.endswith("-confirm")}


@contextlib.contextmanager
def own_server(folder: Path, tmp_path: Path):
    """`manage.py runserver` (what `make run` serves), in a process of its own, on a copy
    of the test database in `folder`: SQLite hands a new connection a file descriptor that
    a closed connection of the same process left open, writable, so a server inside the
    test process could still write to a file made read-only."""
    copy = folder / "db.sqlite3"
    # VACUUM INTO, not a backup: the test database keeps the free pages of every test
    # before this one, and a copy of them could fill the small disk before the test does.
    source = sqlite3.connect(connection.settings_dict["NAME"])
    try:
        source.execute("VACUUM INTO ?", (str(copy),))
    finally:
        source.close()
    port = free_port()
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("DJANGO_") and name != "DATABASE_URL"
    }
    env.update(
        DATABASE_URL=f"sqlite:///{copy}",
        DJANGO_DEBUG="true",  # as `make run` serves
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    )
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not _healthy(base):
            assert process.poll() is None and time.monotonic() < deadline, "no server"
            time.sleep(0.2)
        yield base, copy, tmp_path / "server.log"
    finally:
        process.terminate()
        process.wait(20)
        log.close()


def _healthy(base: str) -> bool:
    try:
        return Device(base, timeout=5).get("/gezond/").status == 200
    except OSError:
        return False


def _stored_scores(database: Path, game_id: int) -> tuple:
    with sqlite3.connect(database) as reader:
        rows = reader.execute(
            "SELECT score FROM games_seat WHERE game_id = ? ORDER BY position", [game_id]
        ).fetchall()
    return tuple(score for (score,) in rows)


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_read_only_database_names_the_fault_and_keeps_what_was_typed(club_evening, tmp_path):
    (game,) = _pair(club_evening, ["a"])
    _server_password("secretaris")
    with own_server(tmp_path, tmp_path) as (base, database, server_log):
        _read_only_then_fixed(club_evening, game, base, database, server_log)


def _read_only_then_fixed(club_evening, game, base, database, server_log):
    secretary = Device(base)
    secretary.log_in("secretaris", PASSWORD)
    path = f"/gouda/clubcompetitie/beheer/ronde/{club_evening.number}/uitslagen/"
    data = results_form(secretary, path)
    data["form-0-score_a"], data["form-0-score_b"] = "321", "287"

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
    assert _stored_scores(database, game.pk) == (None, None)
    logged = server_log.read_text()
    assert logged.count("Database fault (read_only) on POST") == 1
    assert "attempt to write a readonly database" in logged

    # Writable again: the health is good at once, and "Opnieuw opslaan" saves what was typed.
    assert secretary.get("/gezond/").status == 200
    (again,) = [form for form in post_forms(page, path) if form["action"] == path]
    saved = secretary.post(path, {name: values[0] for name, values in again["fields"].items()})
    assert saved.status == 302
    assert _stored_scores(database, game.pk) == (321, 287)


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


def _server_password(username: str) -> None:
    """The suite's fast test hasher is not the server's: a password the server can check."""
    account = get_user_model().objects.get(username=username)
    account.password = PBKDF2PasswordHasher().encode(PASSWORD, "zout", 1000)
    account.save()


@contextlib.contextmanager
def small_disk(folder: Path, megabytes: int):
    """A file system of its own, `megabytes` large (tmpfs: needs root)."""
    folder.mkdir()
    mounted = (
        os.geteuid() == 0
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(folder)]
        ).returncode
        == 0
    )
    if not mounted:
        reason = "a small disk for the database needs root and mount (tmpfs)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    with filler.open("wb") as out, contextlib.suppress(OSError):
        while True:
            out.write(b"\0" * 65536)
            out.flush()
    return filler


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_full_disk_names_the_fault_and_saving_works_once_there_is_room(club_evening, tmp_path):
    (game,) = _pair(club_evening, ["a"])
    _server_password("secretaris")
    with (
        small_disk(tmp_path / "disk", 24) as disk,
        own_server(disk, tmp_path) as (base, database, server_log),
    ):
        secretary = Device(base)
        secretary.log_in("secretaris", PASSWORD)
        path = f"/gouda/clubcompetitie/beheer/ronde/{club_evening.number}/uitslagen/"
        data = results_form(secretary, path)
        data["form-0-score_a"], data["form-0-score_b"] = "321", "287"
        with sqlite3.connect(database) as writer:  # the next write must grow the files
            writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        filler = _fill(disk)

        refused = secretary.post(path, data)
        health = secretary.get("/gezond/")
        filler.unlink()

        page = refused.body.decode()
        assert refused.status == 503, page[:500]
        assert "De schijf is vol" in page
        assert "maak ruimte vrij" in page
        assert health.status == 503
        assert b'"database": "disk_full"' in health.body
        assert server_log.read_text().count("Database fault (disk_full) on POST") == 1
        assert secretary.get("/gezond/").status == 200
        (again,) = [form for form in post_forms(page, path) if form["action"] == path]
        saved = secretary.post(path, {name: values[0] for name, values in again["fields"].items()})
        assert saved.status == 302
        assert _stored_scores(database, game.pk) == (321, 287)
