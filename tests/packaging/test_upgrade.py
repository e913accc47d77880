"""`bordpunt run` on a home that is not new: one made by the previous schema is backed up,
then migrated, its data kept; one made by a newer version, or a start on a port in use, is
refused with a clear message and the home untouched. The installed wheel, outside the
checkout (tests/packaging/installed.py)."""

import socket
import sqlite3
from pathlib import Path

from tests.packaging.installed import free_port, python, running


def applied(home: Path) -> set[tuple[str, str]]:
    with sqlite3.connect(home / "db.sqlite3") as db:
        return set(db.execute("SELECT app, name FROM django_migrations"))


def clubs(database: Path) -> list[str]:
    with sqlite3.connect(database) as db:
        return [name for (name,) in db.execute("SELECT name FROM clubs_club")]


def test_a_home_of_the_previous_schema_is_backed_up_then_migrated(installed, outside, club_home):
    latest = applied(club_home)
    # The previous schema: this version's newest duplicate migration not yet applied.
    python(installed, club_home, outside, "-m", "django", "migrate", "duplicate", "0008")
    assert ("duplicate", "0009_turn_rejected_draws") not in applied(club_home)
    with running(installed, club_home, outside) as server:
        assert server.url.endswith(":" + server.url.rsplit(":", 1)[1])
        assert "/eerste-start/" not in server.url  # the club is there: its home page
    assert applied(club_home) == latest
    (before,) = (club_home / "backups").glob("*-before-upgrade.sqlite3")
    assert ("duplicate", "0009_turn_rejected_draws") not in applied_in(before)
    assert clubs(before) == clubs(club_home / "db.sqlite3") == ["De Goudse Letters"]


def applied_in(database: Path) -> set[tuple[str, str]]:
    with sqlite3.connect(database) as db:
        return set(db.execute("SELECT app, name FROM django_migrations"))


def contents(home: Path) -> tuple[list[str], list[str]]:
    """The database's rows and schema, and the home's other files (an empty folder made
    for the backups or the logs holds nothing; the lock, bordpunt/home_lock.py, no data)."""
    with sqlite3.connect(home / "db.sqlite3") as db:
        dump = list(db.iterdump())
    return dump, sorted(
        path.name
        for path in home.rglob("*")
        if path.is_file() and "sqlite3" not in path.name and path.name != "bordpunt.lock"
    )


def test_a_home_of_a_newer_version_is_refused_untouched(installed, outside, club_home):
    with sqlite3.connect(club_home / "db.sqlite3") as db:
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('clubs', '9999_from_a_newer_version', '2027-01-01')"
        )
    before = contents(club_home)
    done = installed.run(
        ["run", "--no-browser", "--port", str(free_port())], home=club_home, cwd=outside
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "nieuwere versie van Bordpunt" in done.stderr and "Traceback" not in done.stderr
    english = installed.run(
        ["run", "--no-browser", "--port", str(free_port())],
        home=club_home,
        cwd=outside,
        LANG="en_GB.UTF-8",
    )
    assert english.returncode == 2 and "made by a newer version of Bordpunt" in english.stderr
    assert contents(club_home) == before


def test_a_port_in_use_is_refused_in_the_users_language(installed, outside, tmp_path):
    home = tmp_path / "home"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        dutch = installed.run(["run", "--no-browser", "--port", str(port)], home=home, cwd=outside)
        english = installed.run(
            ["run", "--no-browser", "--port", str(port)], home=home, cwd=outside, LANG="en_US.UTF-8"
        )
    assert dutch.returncode == english.returncode == 2
    assert f"Poort {port} op 127.0.0.1 is in gebruik" in dutch.stderr
    assert f"Port {port} on 127.0.0.1 is in use" in english.stderr
    assert "Traceback" not in dutch.stderr + english.stderr


def test_a_damaged_database_is_refused_with_the_way_out(installed, outside, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    damaged = b"SQLite format 3\x00" + b"\xff" * 4000
    (home / "db.sqlite3").write_bytes(damaged)
    done = installed.run(
        ["run", "--no-browser", "--port", str(free_port())], home=home, cwd=outside
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "is beschadigd" in done.stderr and "bordpunt restore" in done.stderr
    assert "Traceback" not in done.stderr
    assert (home / "db.sqlite3").read_bytes() == damaged


def evening_backups(home: Path) -> list[str]:
    return sorted(path.name for path in (home / "backups").glob("*-evening*.sqlite3"))


def test_an_evening_is_backed_up_at_its_end_or_at_the_next_start(installed, outside, club_home):
    with running(installed, club_home, outside):
        pass  # an evening with the club made before it: changed since the last backup
    first = evening_backups(club_home)
    assert len(first) == 1
    with running(installed, club_home, outside):
        pass
    assert evening_backups(club_home) == first  # nothing changed: no backup
    # An evening the command did not see end (the laptop switched off mid-way): the
    # database changed, no backup at the stop; the next start makes it first.
    with sqlite3.connect(club_home / "db.sqlite3") as db:
        db.execute("UPDATE clubs_club SET name = 'De Goudse Letters 2'")
    with running(installed, club_home, outside) as server:
        assert len(evening_backups(club_home)) == 2
        latest = club_home / "backups" / evening_backups(club_home)[-1]
        assert clubs(latest) == ["De Goudse Letters 2"]
        assert server.process.poll() is None
