"""A home that cannot take what `bordpunt` would write: read-only for the user who runs it,
or on a full disk. The command says so in the user's language, exits 2 without a
traceback, and the home is as it was: the database, its backups and every other file.

Each case runs `python -m bordpunt` from this checkout in a subprocess, as a user would
meet it: read-only as the user `nobody` when the tests run as root (root may write
anywhere, so a folder's mode stops only another user), else by the folder's mode; full
by a file-size limit (`RLIMIT_FSIZE`, with SIGXFSZ ignored, so a write past it fails with
EFBIG as on a full disk instead of killing the process). (A home made by a newer version,
a port in use and a damaged database: tests/packaging/test_upgrade.py, on the installed
wheel; a damaged backup: tests/bordpunt/test_backups.py.)
"""

from __future__ import annotations

import os
import pwd
import random
import resource
import shutil
import signal
import sqlite3
import string
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.bordpunt.test_backups import bordpunt_database, clubs_in
from tests.packaging.installed import environment, free_port

ROOT = Path(__file__).resolve().parents[2]


def contents(home: Path) -> dict[str, bytes]:
    """Every file of the home with its bytes, but its lock (bordpunt/home_lock.py: a run
    that got so far took it, and the file stays; it holds no data)."""
    return {
        str(path.relative_to(home)): path.read_bytes()
        for path in home.rglob("*")
        if path.is_file() and path.name != "bordpunt.lock"
    }


@pytest.fixture
def home() -> Iterator[Path]:
    """A home with a club's database (a second of backups' worth: 256 kB) and a backup
    of it, in a folder every user may enter (pytest's own temporary folders are the
    owner's alone, and `nobody` must reach this one to be refused by it)."""
    base = Path(tempfile.mkdtemp(prefix="bordpunt-home-"))
    base.chmod(0o755)
    home = base / "home"
    home.mkdir()
    (home / "backups").mkdir()
    (home / "secret_key").write_text("geheim")
    database = bordpunt_database(home / "db.sqlite3", ["De Goudse Letters"])
    db = sqlite3.connect(database, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")  # as the site keeps it
    db.execute("CREATE TABLE ballast (data BLOB)")
    db.executemany("INSERT INTO ballast VALUES (?)", [(os.urandom(4096),) for _ in range(64)])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the database's own file
    db.close()
    shutil.copy(database, home / "backups" / "bordpunt-2026-12-01-220000-evening.sqlite3")
    # The database changed after its newest backup: `bordpunt run` backs it up first.
    try:
        yield home
    finally:
        for path in [base, *base.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(base)


def reachable_by_everyone(path: Path) -> bool:
    """Whether any user may run `path`: it and every folder above it open to others."""
    return all(folder.stat().st_mode & 0o001 for folder in path.parents) and bool(
        path.stat().st_mode & 0o001
    )


def python_for_everyone() -> Path:
    """This Python, or the system's of the same version when this one is where `nobody`
    cannot reach it (a pyenv in /root); the libraries come from this environment."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (Path(sys.executable).resolve(), Path("/usr/bin", version)):
        if candidate.is_file() and reachable_by_everyone(candidate):
            return candidate
    pytest.skip(f"no {version} that the user nobody may run")


def bordpunt(
    home: Path, *args: str, preexec: Callable[[], None] | None = None, lang: str = "nl"
) -> subprocess.CompletedProcess:
    """`python -m bordpunt ARGS` on `home`, in Dutch or English as the environment says."""
    libraries = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    return subprocess.run(
        [str(python_for_everyone()), "-m", "bordpunt", *args],
        cwd=ROOT,
        env=environment(
            home,
            PYTHONPATH=os.pathsep.join([str(ROOT), *sorted(libraries)]),
            LANG={"nl": "nl_NL.UTF-8", "en": "en_GB.UTF-8"}[lang],
        ),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=preexec,
    )


def read_only(home: Path) -> Callable[[], None] | None:
    """Make `home` read-only for the command: as root, run it as `nobody`; else take the
    write permission off every folder of the home (the fixture gives it back)."""
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")

        def as_nobody() -> None:
            os.setgid(nobody.pw_gid)
            os.setgroups([])
            os.setuid(nobody.pw_uid)

        return as_nobody
    for path in [home, *home.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    return None


RUN = ("run", "--no-browser")


@pytest.mark.parametrize(
    ("args", "lang", "message"),
    [
        (RUN, "nl", "kan niet worden geschreven"),
        (RUN, "en", "cannot be written"),
        (("backup",), "nl", "kan niet worden geschreven"),
        (("lexicon", str(ROOT / "tests" / "bordpunt" / "test_bad_homes.py")), "nl", "kan niet"),
    ],
    ids=["run", "run-english", "backup", "lexicon"],
)
def test_a_read_only_home_is_refused_in_the_users_language_and_kept(home, args, lang, message):
    before = contents(home)
    if args == RUN:
        args = (*RUN, "--port", str(free_port()))
    done = bordpunt(home, *args, preexec=read_only(home), lang=lang)
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert str(home) in done.stderr  # which folder: the secretary can look at it
    assert contents(home) == before


def full_disk(limit: int) -> Callable[[], None]:
    """A disk that takes no file beyond `limit` bytes: writing past it fails (EFBIG)."""

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limited


#: Above SQLite's shared-memory file (32 kB) and the small files, below the database.
LIMIT = 128 * 1024


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_a_full_disk_stops_the_start_before_anything_runs_without_a_backup(home, lang):
    before = contents(home)
    done = bordpunt(home, *RUN, "--port", str(free_port()), preexec=full_disk(LIMIT), lang=lang)
    assert done.returncode == 2, done.stdout + done.stderr
    expected = {
        "nl": "Er kon geen reservekopie worden gemaakt",
        "en": "No backup could be made",
    }[lang]
    assert expected in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "Bordpunt" not in done.stdout  # it never said it runs
    assert contents(home) == before  # no half backup left behind either
    assert clubs_in(home / "db.sqlite3") == ["De Goudse Letters"]


def test_a_backup_on_a_full_disk_is_refused_and_leaves_no_half_file(home, tmp_path):
    before = contents(home)
    done = bordpunt(home, "backup", preexec=full_disk(LIMIT))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "De reservekopie kon niet naar" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert contents(home) == before


def test_a_word_list_on_a_full_disk_is_refused_and_leaves_no_half_file(home, tmp_path):
    source = tmp_path / "groot.txt"
    rng = random.Random(1)
    # 60,000 words of random letters: lists far larger than the limit, however packed.
    words = (
        "".join(rng.choices(string.ascii_lowercase, k=rng.randint(4, 12))) for _ in range(60_000)
    )
    source.write_text("\n".join(words))
    before = contents(home)
    done = bordpunt(home, "lexicon", str(source), preexec=full_disk(LIMIT))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "De woordenlijst kon niet worden geschreven" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert contents(home) == before  # no half list in lexicons/
