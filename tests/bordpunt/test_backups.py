"""`bordpunt backup` and `bordpunt restore` on a home's SQLite database (bordpunt/backups.py):
a backup is a consistent copy; a restore refuses a damaged file, a file that is no Bordpunt
database and one made by a newer version, each with a clear message and the data untouched,
and keeps the current data in a backup before it replaces it."""

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bordpunt import backups
from bordpunt.cli import main
from bordpunt.server import known_migrations
from config.home import Home
from tests.packaging.installed import environment

ROOT = Path(__file__).resolve().parents[2]


def bordpunt_database(path: Path, clubs: list[str], *, extra_migration: str = "") -> Path:
    """A small database with Bordpunt's marks: this version's migrations and a club table."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app, name, applied)")
        db.executemany(
            "INSERT INTO django_migrations (app, name, applied) VALUES (?, ?, '2026-12-01')",
            sorted(known_migrations(Home(path.parent)))
            + ([("clubs", extra_migration)] if extra_migration else []),
        )
        db.execute("CREATE TABLE clubs_club (id INTEGER PRIMARY KEY, name)")
        db.executemany("INSERT INTO clubs_club (name) VALUES (?)", [(name,) for name in clubs])
        db.execute("PRAGMA journal_mode=WAL")
    return path


def clubs_in(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [name for (name,) in db.execute("SELECT name FROM clubs_club ORDER BY id")]


@pytest.fixture
def home(tmp_path) -> Home:
    home = Home(tmp_path / "home")
    home.prepare()
    bordpunt_database(home.database, ["De Goudse Letters"])
    return home


def bordpunt(home: Home, *args: str) -> int:
    return main(["--lang", "nl", "--home", str(home.root), *args])


def test_a_backup_round_trips(home, tmp_path, capsys):
    file = tmp_path / "zaterdag.sqlite3"
    assert bordpunt(home, "backup", str(file)) == 0
    assert "Reservekopie gemaakt" in capsys.readouterr().out
    with sqlite3.connect(home.database) as db:
        db.execute("INSERT INTO clubs_club (name) VALUES ('Later')")
    assert bordpunt(home, "restore", str(file)) == 0
    assert clubs_in(home.database) == ["De Goudse Letters"]
    # What was there before the restore is kept.
    (before,) = [path for path in backups.listed(home.backups) if "before-restore" in path.name]
    assert clubs_in(before) == ["De Goudse Letters", "Later"]


def test_a_backup_without_a_file_goes_into_the_home_and_restore_lists_it(home, capsys):
    assert bordpunt(home, "backup") == 0
    assert bordpunt(home, "restore") == 0
    (made,) = backups.listed(home.backups)
    assert str(made) in capsys.readouterr().out
    assert made.name.endswith("-backup.sqlite3") and clubs_in(made) == ["De Goudse Letters"]


def damaged_copy(home: Home, tmp_path: Path) -> Path:
    file = tmp_path / "beschadigd.sqlite3"
    backups.copy_database(home.database, file)
    data = bytearray(file.read_bytes())
    data[len(data) // 2 :] = b"\xff" * (len(data) - len(data) // 2)  # the second half gone
    file.write_bytes(bytes(data))
    return file


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (damaged_copy, "is beschadigd"),
        (lambda home, tmp: tmp / "bestaat-niet.sqlite3", "bestaat niet"),
        (
            lambda home, tmp: (tmp / "lijst.txt").write_text("geen database") and tmp / "lijst.txt",
            "geen reservekopie van Bordpunt",
        ),
        (
            lambda home, tmp: bordpunt_database(
                tmp / "toekomst.sqlite3", ["X"], extra_migration="9999_later"
            ),
            "nieuwere versie",
        ),
    ],
    ids=["damaged", "missing", "not-a-database", "newer-version"],
)
def test_a_bad_file_is_refused_and_the_data_stays(home, tmp_path, capsys, make, message):
    before = home.database.read_bytes()
    file = make(home, tmp_path)
    assert bordpunt(home, "restore", str(file)) == 2
    assert message in capsys.readouterr().err
    assert home.database.read_bytes() == before
    assert backups.listed(home.backups) == []


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (damaged_copy, "is damaged: it cannot be restored"),
        (
            lambda home, tmp: bordpunt_database(
                tmp / "toekomst.sqlite3", ["X"], extra_migration="9999_later"
            ),
            "was made by a newer version of Bordpunt",
        ),
    ],
    ids=["damaged", "newer-version"],
)
def test_a_bad_file_is_refused_in_english_too(home, tmp_path, capsys, make, message):
    before = home.database.read_bytes()
    file = make(home, tmp_path)
    assert main(["--lang", "en", "--home", str(home.root), "restore", str(file)]) == 2
    assert message in capsys.readouterr().err
    assert home.database.read_bytes() == before and backups.listed(home.backups) == []


def test_a_home_that_cannot_be_written_is_refused_with_the_reason(tmp_path, capsys):
    blocker = tmp_path / "een-bestand"
    blocker.write_text("")
    assert main(["--lang", "nl", "--home", str(blocker / "home"), "lexicon", str(blocker)]) == 2
    assert "kan niet worden geschreven" in capsys.readouterr().err


def test_an_evening_backup_only_after_changes_and_old_evenings_pruned(home):
    made = backups.evening_backup(home.database, home.backups)
    assert made is not None and made.name.endswith("-evening.sqlite3")
    assert backups.evening_backup(home.database, home.backups) is None  # nothing changed
    for day in range(1, 15):  # two weeks of evenings in January, and one backup by hand
        (home.backups / f"bordpunt-2026-01-{day:02}-230000-evening.sqlite3").write_text("")
    (home.backups / "bordpunt-2026-01-01-120000-backup.sqlite3").write_text("")
    with sqlite3.connect(home.database) as db:
        db.execute("INSERT INTO clubs_club (name) VALUES ('Later')")
    assert backups.evening_backup(home.database, home.backups) is not None
    kept = [backups.NAME.match(path.name) for path in backups.listed(home.backups)]
    evenings = [m["moment"][:10] for m in kept if m and m["reason"] == "evening"]
    # The newest ten (the two of today and 8 of January), and January's newest among them.
    assert len(evenings) == 10 and evenings[:8] == [f"2026-01-{day:02}" for day in range(7, 15)]
    assert [m[0] for m in kept if m and m["reason"] == "backup"] == [
        "bordpunt-2026-01-01-120000-backup.sqlite3"
    ]


def test_an_empty_database_is_not_backed_up(tmp_path, capsys):
    """The very first start opens the database before it migrates: an empty file, which
    `restore` would refuse as not Bordpunt's. Neither the start nor `backup` copies it."""
    home = Home(tmp_path / "home")
    home.prepare()
    with sqlite3.connect(home.database) as db:
        db.execute("PRAGMA journal_mode=WAL")  # as Django's first connection leaves it
    assert home.database.is_file() and not backups.holds_data(home.database)
    assert not backups.changed_since_last_backup(home.database, home.backups)
    assert backups.evening_backup(home.database, home.backups) is None
    assert bordpunt(home, "backup") == 2
    assert "Er is nog geen database" in capsys.readouterr().err
    assert list(home.backups.iterdir()) == []


def restore_list(home: Home, zone: str) -> list[str]:
    """`bordpunt restore`'s list as a process in `zone` prints it (its own time zone)."""
    done = subprocess.run(
        [sys.executable, "-m", "bordpunt", "--lang", "nl", "restore"],
        cwd=ROOT,
        env=environment(home.root, TZ=zone),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


#: Three backups whose names sort otherwise than their moments: two of before (Amsterdam's
#: time, CET in December: UTC+1) around one in UTC.
MADE = {
    "bordpunt-2026-12-06-230000-evening.sqlite3": "22:00 UTC",
    "bordpunt-2026-12-06-221500Z-backup.sqlite3": "22:15 UTC",
    "bordpunt-2026-12-06-233000-before-restore.sqlite3": "22:30 UTC",
}


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        # New York in December: UTC-5; Tokyo: UTC+9, the next day.
        ("America/New_York", ["2026-12-06 17:00:00", "2026-12-06 17:15:00", "2026-12-06 17:30:00"]),
        ("Asia/Tokyo", ["2026-12-07 07:00:00", "2026-12-07 07:15:00", "2026-12-07 07:30:00"]),
    ],
)
def test_backups_are_listed_by_their_moment_in_the_computers_time(home, zone, shown):
    for name in MADE:
        backups.copy_database(home.database, home.backups / name)
    # One more by the command itself, in the zone of the list: now, in UTC, so the newest.
    made = subprocess.run(
        [sys.executable, "-m", "bordpunt", "backup"],
        cwd=ROOT,
        env=environment(home.root, TZ=zone),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    (new,) = [path for path in home.backups.glob("*.sqlite3") if path.name not in MADE]
    moment = backups.taken_at(new.name)
    assert new.name.endswith("Z-backup.sqlite3") and moment is not None
    assert abs(datetime.now(UTC) - moment) < timedelta(minutes=5)

    lines = restore_list(home, zone)
    assert [line.split("  ", 1)[1] for line in lines] == [
        *(str(home.backups / name) for name in MADE),
        str(new),
    ]
    assert [line.split("  ", 1)[0] for line in lines[:3]] == shown
