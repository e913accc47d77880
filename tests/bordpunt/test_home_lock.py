"""One home, one server (bordpunt/home_lock.py): while a `bordpunt` holds its home, `restore`,
a second `run` and a `demo` into it are refused with what to do, in the user's language,
and the home is as it was; once it lets go they go ahead. The lock is held here by this
process; tests/packaging/test_home_lock.py holds it by a real `bordpunt run`, and kills one.
"""

import sqlite3

import pytest

from bordpunt import backups
from bordpunt.cli import main
from bordpunt.home_lock import HomeInUse, held
from config.home import Home
from tests.bordpunt.test_backups import bordpunt_database, clubs_in
from tests.packaging.installed import free_port


@pytest.fixture
def home(tmp_path) -> Home:
    home = Home(tmp_path / "home")
    home.prepare()
    bordpunt_database(home.database, ["De Goudse Letters"])
    return home


@pytest.fixture
def saturday(home, tmp_path):
    """A backup of the home's data, then a club added after it."""
    file = tmp_path / "zaterdag.sqlite3"
    backups.copy_database(home.database, file)
    with sqlite3.connect(home.database) as db:
        db.execute("INSERT INTO clubs_club (name) VALUES ('Later')")
    return file


RUN = ("run", "--no-browser", "--port")


def bordpunt(home: Home, *args: str, lang: str = "nl") -> int:
    return main(["--lang", lang, "--home", str(home.root), *args])


DUTCH = "Bordpunt draait al met de gegevens in"
ENGLISH = "Bordpunt is running already with the data in"


@pytest.mark.parametrize(
    ("lang", "message", "stop"),
    [
        ("nl", DUTCH, "Stop het eerst (Ctrl+C in zijn venster)"),
        ("en", ENGLISH, "Stop it first (Ctrl+C in its window)"),
    ],
)
def test_a_home_being_served_refuses_restore_and_a_second_run(
    home, saturday, capsys, lang, message, stop
):
    before = home.database.read_bytes()
    with held(home, "run") as lock:
        lock.announce("http://127.0.0.1:8123/")
        for args in (("restore", str(saturday)), (*RUN, str(free_port()))):
            assert bordpunt(home, *args, lang=lang) == 2
            said = capsys.readouterr().err
            assert message in said and stop in said, said
            assert "http://127.0.0.1:8123/" in said and str(home.root) in said
    assert home.database.read_bytes() == before and backups.listed(home.backups) == []
    # Let go: the restore goes ahead.
    assert bordpunt(home, "restore", str(saturday)) == 0
    assert clubs_in(home.database) == ["De Goudse Letters"]


def test_a_demo_into_a_home_being_served_is_refused(tmp_path, capsys):
    """`bordpunt demo` serves `<home>/demo`: refused while a server holds that home."""
    demo = Home(tmp_path / "home" / "demo")
    demo.prepare()
    with held(demo, "demo"):
        assert bordpunt(Home(tmp_path / "home"), "demo", "--no-browser") == 2
    said = capsys.readouterr().err
    assert DUTCH in said and str(demo.root) in said
    assert not demo.database.exists()


def test_a_run_is_refused_while_a_restore_is_busy(home, capsys):
    with held(home, "restore"):
        assert bordpunt(home, *RUN, str(free_port())) == 2
    said = capsys.readouterr().err
    assert "`bordpunt restore` is bezig met de gegevens in" in said, said


def test_a_lock_whose_note_cannot_be_read_still_refuses(home, saturday, capsys):
    with held(home, "run"):
        # A note being written, or written by another version: the refusal stands.
        with home.lock_file.open("r+b") as note:
            note.write(b"{half")
        assert bordpunt(home, "restore", str(saturday)) == 2
    assert DUTCH in capsys.readouterr().err


def test_restore_holds_the_home_while_it_puts_the_data_back(home, saturday, monkeypatch):
    """What a run starting mid-restore would meet: the home held by the restore."""
    seen = []

    def restore(backup, database, folder):
        with pytest.raises(HomeInUse) as refused, held(home, "run"):
            pass
        seen.append(str(refused.value))
        return None

    monkeypatch.setattr(backups, "restore", restore)
    assert bordpunt(home, "restore", str(saturday)) == 0
    assert "`bordpunt restore` is bezig" in seen[0]
