"""Backups of a home's SQLite database: made, checked, listed, restored, pruned.

Pure sqlite3, no Django: a backup is the online backup API's copy of the whole database,
consistent while the server runs and writes (WAL readers never block it). A restore first
checks the file (an SQLite database, intact, a Bordpunt database), then backs up the
current database, then copies the backup in with the same API: a damaged file is refused
and the existing data stays as it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

SUFFIX = ".sqlite3"
SQLITE_HEADER = b"SQLite format 3\x00"
#: bordpunt-2026-12-06-211500Z-evening.sqlite3: the moment in UTC (Z), whatever the zone of
#: the process that made it, the reason last (and a number when a second backup falls in
#: the same second). Names without the Z are of before: local time, see OLD_NAMES_ZONE.
NAME = re.compile(
    r"^bordpunt-(?P<moment>\d{4}-\d{2}-\d{2}-\d{6})(?P<utc>Z?)-(?P<reason>[a-z-]+?)"
    r"(?:-(?P<number>\d+))?\.sqlite3$"
)
#: The zone of the names without a Z: the server and `restore` wrote them in the site's
#: zone (Django sets the process's zone to settings.TIME_ZONE), `backup` in the system's,
#: which on a Dutch club's laptop is the same.
OLD_NAMES_ZONE = ZoneInfo("Europe/Amsterdam")
#: Evening backups kept: the newest this many, and the newest of every month.
KEEP_EVENINGS = 10
#: The fingerprint of the database as it was at the newest backup into the home's folder.
LAST = ".last-backup"


class BackupError(Exception):
    """Why a file cannot be restored (the message is for the secretary)."""


def new_backup(folder: Path, reason: str, now: datetime | None = None) -> Path:
    """A name in `folder` for a new backup, not yet taken, its moment in UTC.

    >>> from datetime import timedelta, timezone
    >>> new_backup(Path("b"), "evening", datetime(2026, 12, 6, 22, 15, tzinfo=timezone.utc)).name
    'bordpunt-2026-12-06-221500Z-evening.sqlite3'
    >>> tokyo = timezone(timedelta(hours=9))
    >>> new_backup(Path("b"), "backup", datetime(2026, 12, 7, 7, 15, tzinfo=tokyo)).name
    'bordpunt-2026-12-06-221500Z-backup.sqlite3'
    """
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    stem = f"bordpunt-{moment.strftime('%Y-%m-%d-%H%M%S')}Z-{reason}"
    path, number = folder / f"{stem}{SUFFIX}", 1
    while path.exists():
        number += 1
        path = folder / f"{stem}-{number}{SUFFIX}"
    return path


def copy_database(source: Path, target: Path) -> None:
    """Copy the database `source` into the new file `target`, whole or not at all."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        _copy(source, partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)  # a full disk leaves no half copy behind
        raise


def _copy(source: Path, target: Path) -> None:
    if not source.is_file():
        raise FileNotFoundError(source)
    with _connect(source) as src, _connect(target, create=True) as dst:
        src.backup(dst)
    # The copy is a plain file, whatever the journal mode of the source: one file to keep.
    with _connect(target) as dst:
        dst.execute("PRAGMA journal_mode=DELETE")


class _connect:
    """sqlite3.connect that closes on leaving (sqlite3's own `with` only commits)."""

    def __init__(self, path: Path, *, create: bool = False, read_only: bool = False) -> None:
        mode = "ro" if read_only else "rwc" if create else "rw"
        self.connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True)

    def __enter__(self) -> sqlite3.Connection:
        return self.connection

    def __exit__(self, *exc: object) -> None:
        self.connection.close()


def applied_migrations(path: Path) -> set[tuple[str, str]]:
    """The migrations recorded in a checked Bordpunt database."""
    with _connect(path, read_only=True) as db:
        return set(db.execute("SELECT app, name FROM django_migrations"))


def check(path: Path) -> None:
    """Raise BackupError unless `path` is an intact Bordpunt database."""
    from bordpunt.i18n import _

    if not path.is_file():
        raise BackupError(_("The file %(file)s does not exist.") % {"file": path})
    with path.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if header != SQLITE_HEADER:
        raise BackupError(_("%(file)s is not a Bordpunt backup.") % {"file": path})
    try:
        with _connect(path, read_only=True) as db:
            verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError:
        verdict, tables = "damaged", set()
    if verdict != "ok":
        raise BackupError(_("%(file)s is damaged: it cannot be restored.") % {"file": path})
    if not {"django_migrations", "clubs_club"} <= tables:
        raise BackupError(_("%(file)s is not a Bordpunt backup.") % {"file": path})


def restore(backup: Path, database: Path, backups: Path) -> Path | None:
    """Put `backup` (checked) in the place of `database`; the current one is backed up
    first into `backups`. Returns that backup of the current database, if there was one."""
    check(backup)
    saved = None
    if holds_data(database):
        saved = backup_into(database, backups, "before-restore")
    database.parent.mkdir(parents=True, exist_ok=True)
    with _connect(backup, read_only=True) as src, _connect(database, create=True) as dst:
        src.backup(dst)
    return saved


def taken_at(name: str) -> datetime | None:
    """When the backup of this name was made (in UTC), or None for a name not of a backup.

    >>> taken_at("bordpunt-2026-12-06-221500Z-evening.sqlite3").isoformat()
    '2026-12-06T22:15:00+00:00'
    >>> taken_at("bordpunt-2026-12-06-231500-evening-2.sqlite3").isoformat()  # CET, UTC+1
    '2026-12-06T22:15:00+00:00'
    >>> taken_at("bordpunt-2026-13-06-231500-evening.sqlite3") is None
    True
    """
    match = NAME.match(name)
    if not match:
        return None
    try:
        moment = datetime.strptime(match["moment"], "%Y-%m-%d-%H%M%S")
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC if match["utc"] else OLD_NAMES_ZONE).astimezone(UTC)


def _order(name: str) -> tuple[datetime, int, str]:
    """Oldest first by the moment, then by the number of a second backup in its second."""
    match = NAME.match(name)
    moment = taken_at(name)
    assert match and moment  # only names of backups are ordered
    return moment, int(match["number"] or 1), name


def local_time(backup: Path) -> str:
    """When a listed backup was made, in this computer's time (its name says it in UTC)."""
    return f"{_order(backup.name)[0].astimezone():%Y-%m-%d %H:%M:%S}"


def listed(backups: Path) -> list[Path]:
    """The home's backups, oldest first (old names and new ones by the moment they name)."""
    if not backups.is_dir():
        return []
    made = [path for path in backups.iterdir() if taken_at(path.name)]
    return sorted(made, key=lambda path: _order(path.name))


def fingerprint(database: Path) -> str:
    """A digest of the database's file, its write-ahead log checkpointed into it first: the
    same as long as nothing was written (reading, and opening it, change no page; the
    files' times do change, so they cannot tell)."""
    with _connect(database) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    digest = hashlib.sha256()
    with database.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def backup_into(database: Path, backups: Path, reason: str) -> Path:
    """A new backup in the home's folder of backups, remembered as the newest."""
    made = new_backup(backups, reason)
    before = fingerprint(database)
    copy_database(database, made)
    (backups / LAST).write_text(before)
    return made


def holds_data(database: Path) -> bool:
    """Whether the database is Bordpunt's with its tables made: not the empty file the very
    first start opens before it migrates (nothing to back up: `restore` refuses it). A file
    that cannot be read counts as data: the callers refuse it with the reason."""
    if not database.is_file():
        return False
    try:
        with _connect(database) as db:
            (tables,) = db.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                "AND name = 'django_migrations'"
            ).fetchone()
            return bool(tables) and bool(db.execute("SELECT 1 FROM django_migrations").fetchone())
    except sqlite3.DatabaseError:
        return True


def changed_since_last_backup(database: Path, backups: Path) -> bool:
    """Whether the database holds data that changed after the newest backup into `backups`."""
    if not holds_data(database):
        return False
    last = backups / LAST
    return not last.exists() or last.read_text() != fingerprint(database)


def to_prune(names: Iterable[str]) -> list[str]:
    """The evening backups to delete: all but the newest KEEP_EVENINGS and the newest of
    each month (in UTC). Other backups (by hand, before an upgrade or a restore) are kept.

    >>> names = [f"bordpunt-2026-{m:02}-{d:02}-220000Z-evening.sqlite3"
    ...          for m in (1, 2) for d in range(1, 8)]
    >>> [name[9:19] for name in to_prune(names)]
    ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']

    Names of before (local time, no Z) take their place by the moment they name:

    >>> to_prune([f"bordpunt-2026-01-{d:02}-223000Z-evening.sqlite3" for d in range(2, 12)]
    ...          + ["bordpunt-2026-01-02-230000-evening.sqlite3"])  # CET: 22:00 UTC
    ['bordpunt-2026-01-02-230000-evening.sqlite3']
    """
    evenings = sorted(
        (
            name
            for name in names
            if (match := NAME.match(name)) and match["reason"] == "evening" and taken_at(name)
        ),
        key=_order,
    )
    keep = set(evenings[-KEEP_EVENINGS:])
    newest_of_month = {_order(name)[0].strftime("%Y-%m"): name for name in evenings}
    keep |= set(newest_of_month.values())
    return [name for name in evenings if name not in keep]


def evening_backup(database: Path, backups: Path) -> Path | None:
    """At the end of an evening (the server stops, or starts after one it did not see
    end): a backup when the database changed since the newest one; then the old evening
    backups pruned."""
    if not changed_since_last_backup(database, backups):
        return None
    made = backup_into(database, backups, "evening")
    for name in to_prune(path.name for path in listed(backups)):
        (backups / name).unlink(missing_ok=True)
    return made
