"""What is wrong when the database refuses: busy, read-only, disk full or unreachable.

One place names the fault of a database error, for the 503 page a person sees
(`config.middleware.DatabaseFaultMiddleware`, `config.errors.server_error`) and for the
health check a monitor polls (`config.health`). A fault is stored nowhere: each process
reads it from the error in hand, or from the database file and the server as they are now,
so several app servers agree without sharing memory.
"""

from __future__ import annotations

import os
import shutil
from enum import StrEnum
from pathlib import Path

from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils.translation import gettext_lazy as _

# Below this much free space next to an SQLite file, writes are about to fail: say so now.
SQLITE_MIN_FREE_BYTES = 5 * 1024 * 1024


class Fault(StrEnum):
    BUSY = "busy"
    READ_ONLY = "read_only"
    DISK_FULL = "disk_full"
    UNREACHABLE = "unreachable"


# PostgreSQL's codes (SQLSTATE) for each fault. Busy: serialization failure, deadlock,
# lock timeout. Read-only: a read-only transaction or a standby. Disk full: disk_full,
# out of memory. Unreachable: the connection classes 08 and the server going down (57P0x).
_POSTGRES = {
    Fault.BUSY: {"40001", "40P01", "55P03"},
    Fault.READ_ONLY: {"25006"},
    Fault.DISK_FULL: {"53100", "53200"},
    Fault.UNREACHABLE: {"57P01", "57P02", "57P03", "53300"},
}
# SQLite's messages for each fault (its Python module gives no codes on Python 3.11).
_SQLITE = {
    Fault.BUSY: ("database is locked", "database table is locked"),
    Fault.READ_ONLY: ("attempt to write a readonly database", "readonly database"),
    Fault.DISK_FULL: ("database or disk is full",),
    Fault.UNREACHABLE: ("unable to open database file",),
}

TITLES = {
    Fault.BUSY: _("Busy for a moment"),
    Fault.READ_ONLY: _("The database cannot be written"),
    Fault.DISK_FULL: _("The disk is full"),
    Fault.UNREACHABLE: _("The database cannot be reached"),
}
EXPLANATIONS = {
    Fault.BUSY: _("Many devices were saving at the same moment and this one had to wait too long."),
    Fault.READ_ONLY: _(
        "Bordpunt can read its database but not write to it: the database file, or the "
        "folder it is in, is read-only."
    ),
    Fault.DISK_FULL: _("The disk that holds the database is full: nothing more fits on it."),
    Fault.UNREACHABLE: _("Bordpunt cannot reach its database server."),
}
# For whoever runs the server: what to do about it.
REMEDIES = {
    Fault.BUSY: _("Save again in a few seconds."),
    Fault.READ_ONLY: _(
        "Whoever runs this server: give the program write access to the database file and "
        "its folder again. Saving works again within seconds."
    ),
    Fault.DISK_FULL: _(
        "Whoever runs this server: make room on the disk of the database. Saving works "
        "again within seconds."
    ),
    Fault.UNREACHABLE: _(
        "Whoever runs this server: check that the database server runs and can be reached "
        "(DATABASE_URL). Saving works again within seconds."
    ),
}


def fault_of(error: BaseException | None) -> Fault | None:
    """The fault a database error means, or None for any other error (a real bug)."""
    if not isinstance(error, DatabaseError):
        return None
    if isinstance(error, InterfaceError):
        return Fault.UNREACHABLE
    sqlstate = getattr(error.__cause__, "sqlstate", None)
    if sqlstate:
        for fault, codes in _POSTGRES.items():
            if sqlstate in codes or (fault is Fault.UNREACHABLE and sqlstate.startswith("08")):
                return fault
        return None
    if not isinstance(error, OperationalError):
        return None
    text = str(error).lower()
    for fault, phrases in _SQLITE.items():
        if any(phrase in text for phrase in phrases):
            return fault
    if getattr(error.__cause__, "__module__", "").startswith("psycopg"):
        return Fault.UNREACHABLE  # a connection that failed before any SQLSTATE
    return None


def sqlite_file_writable(path: str | os.PathLike) -> bool:
    """Whether SQLite can write the file: the file and its folder (the journal and WAL
    files live beside it). `os.access` asks the kernel, so an immutable file counts too."""
    file = Path(path)
    folder = file.parent
    return os.access(folder, os.W_OK) and (not file.exists() or os.access(file, os.W_OK))


def sqlite_fault(path: str | os.PathLike) -> Fault | None:
    """What stops writes to the SQLite file right now, if anything."""
    if not sqlite_file_writable(path):
        return Fault.READ_ONLY
    if shutil.disk_usage(Path(path).parent).free < SQLITE_MIN_FREE_BYTES:
        return Fault.DISK_FULL
    return None
