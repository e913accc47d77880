"""One home, one `bordpunt` that changes it: the lock `run` (and `demo`) holds while it
serves and `restore` while it restores (docs/installed.md, "One home, one server").

The lock is the operating system's own on `<home>/bordpunt.lock` (fcntl.flock on POSIX,
msvcrt.locking on Windows): the system lets go of it when the process ends, however it ends,
so a crashed or killed run leaves nothing stuck. The file itself stays: removing it would
let a second process lock a new file of that name while the first still holds the old one.
What it says (which command, its process, its address) is a note for the refusal, read only
while someone holds the lock; the holder writes it after taking the lock.

No Django here: the command takes the lock before Django is set up.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from bordpunt.i18n import _
from config.home import Home

#: The note's room at the start of the file: written over in place, never truncated, so the
#: lock below it (on Windows a lock is on bytes) is never touched.
NOTE_SIZE = 512


class HomeInUse(Exception):
    """Another `bordpunt` holds the home (the message is for the person at the keyboard)."""


def _try_lock(file: IO[bytes]) -> bool:
    """Take the lock without waiting; whether it was free."""
    if sys.platform == "win32":
        import msvcrt

        # A lock on Windows is on a range of bytes, and mandatory: the byte just past the
        # note, so that others may still read the note.
        file.seek(NOTE_SIZE)
        try:
            msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(file: IO[bytes]) -> None:
    if sys.platform == "win32":
        import msvcrt

        file.seek(NOTE_SIZE)
        msvcrt.locking(file.fileno(), msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(file.fileno(), fcntl.LOCK_UN)


class HomeLock:
    """The lock on one home, taken by `held`."""

    def __init__(self, home: Home, file: IO[bytes], command: str) -> None:
        self.home = home
        self._file = file
        self._note: dict[str, Any] = {"command": command, "pid": os.getpid()}
        self._write()

    def announce(self, url: str) -> None:
        """Say where this command serves: a refused second command names the address."""
        self._note["url"] = url
        self._write()

    def _write(self) -> None:
        text = json.dumps(self._note).encode()[:NOTE_SIZE]
        self._file.seek(0)
        self._file.write(text.ljust(NOTE_SIZE))
        self._file.flush()


@contextmanager
def held(home: Home, command: str) -> Iterator[HomeLock]:
    """The home's lock for `command` ("run", "demo", "restore") while the block runs;
    HomeInUse, saying who holds it and what to do, when another process does. The home's
    folder must exist (`cli.writable` makes it)."""
    fd = os.open(home.lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    with os.fdopen(fd, "r+b", buffering=0) as file:
        if not _try_lock(file):
            raise HomeInUse(_busy(home, file))
        try:
            yield HomeLock(home, file, command)
        finally:
            _unlock(file)


def _busy(home: Home, file: IO[bytes]) -> str:
    """Why the home cannot be had now, from the holder's note (which may be half written:
    the holder writes it just after taking the lock)."""
    file.seek(0)
    try:
        note = json.loads(file.read(NOTE_SIZE).decode().strip())
        command, pid, url = str(note["command"]), int(note["pid"]), str(note.get("url", ""))
    except (ValueError, KeyError, TypeError):
        command, pid, url = "run", 0, ""
    values = {"home": home.root, "pid": pid or "?", "url": url}
    if command == "restore":
        return (
            _(
                "`bordpunt restore` is busy with the data in %(home)s (process %(pid)s). "
                "Wait until it is done, then try again; nothing was changed."
            )
            % values
        )
    if url:
        return (
            _(
                "Bordpunt is running already with the data in %(home)s, at %(url)s "
                "(process %(pid)s). Stop it first (Ctrl+C in its window), then try again; "
                "nothing was changed."
            )
            % values
        )
    return (
        _(
            "Bordpunt is running already with the data in %(home)s (process %(pid)s). "
            "Stop it first (Ctrl+C in its window), then try again; nothing was changed."
        )
        % values
    )
