"""SQLite for a club evening: writers take turns in order, woken as soon as the previous
one commits.

Every transaction takes SQLite's write lock at BEGIN (`transaction_mode` IMMEDIATE in
config/settings.py). SQLite lets a waiting writer poll for that lock with sleeps that grow
to 100 ms, and a newcomer can take the lock ahead of one who has waited long: with ten
devices saving moves, some saves waited most of a second (benchmarks/devices.py), and
gunicorn's two workers, each waiting out the other's sleeps, left a core idle while 160
phones handed in their slips (benchmarks/duplicate_http.py). So before BEGIN a writer
queues twice: on a thread lock with the other threads of its process, then on an `flock`
of a file beside the database (`<name>-writers`) with the other processes (gunicorn's
workers, a management command). The kernel gives an flock back the moment its holder
commits, rolls back or dies (a killed worker holds nothing). A writer that has waited
longer than the busy timeout goes on to SQLite's own waiting, so nothing can hang here;
an in-memory database, or a folder where the lock file cannot be made, has only SQLite's.
"""

from __future__ import annotations

import os
import threading
import time

from django.db.backends.sqlite3 import base
from django.db.backends.sqlite3.creation import DatabaseCreation

from config.faults import sqlite_file_writable

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: SQLite's own waiting only
    fcntl = None  # type: ignore[assignment]  # a module or None, checked before use

#: How often a writer of another process looks whether the file lock is free (seconds):
#: growing from the first to the second while it waits.
FILE_LOCK_POLL = (0.0002, 0.002)


class WriterQueue:
    """The turn to write one database file: one thread of one process at a time."""

    def __init__(self, database: str) -> None:
        self.threads = threading.Lock()
        self.path = None if DatabaseCreation.is_in_memory_db(database) else f"{database}-writers"
        self._file: int | None = None
        self._file_pid = 0
        self._file_held = False

    def locked(self) -> bool:
        return self.threads.locked()

    def acquire(self, timeout: float) -> bool:
        """Wait for the turn up to `timeout` seconds; False: go on without it."""
        deadline = time.monotonic() + timeout
        if not self.threads.acquire(timeout=timeout):
            return False
        self._file_held = self._lock_file(deadline)
        return True

    def release(self) -> None:
        if self._file_held and self._file is not None:  # held: the file is open
            self._file_held = False
            fcntl.flock(self._file, fcntl.LOCK_UN)
        self.threads.release()

    def _lock_file(self, deadline: float) -> bool:
        """The other processes' turn (held with `threads`, so one thread at a time)."""
        descriptor = self._descriptor()
        if descriptor is None:
            return False
        wait = FILE_LOCK_POLL[0]
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(wait)
                wait = min(wait * 2, FILE_LOCK_POLL[1])
            except OSError:
                return False

    def _descriptor(self) -> int | None:
        """The lock file, opened once per process: a forked child opens its own, since
        an flock belongs to the open file, which a fork shares."""
        if fcntl is None or self.path is None:
            return None
        if self._file is None or self._file_pid != os.getpid():
            try:
                self._file = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                return None
            self._file_pid = os.getpid()
        return self._file


_queues: dict[str, WriterQueue] = {}
_queues_guard = threading.Lock()


def writer_queue(database: str) -> WriterQueue:
    with _queues_guard:
        queue = _queues.get(database)
        if queue is None:
            queue = _queues[database] = WriterQueue(database)
        return queue


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_turn: WriterQueue | None = None
    #: Whether the file could be written when this connection opened it. SQLite opens a
    #: file it cannot write read-only, and the connection stays read-only after the file
    #: is writable again: such a connection is not kept (`is_usable`).
    opened_writable = True

    def get_new_connection(self, conn_params):
        self.opened_writable = sqlite_file_writable(self.settings_dict["NAME"])
        return super().get_new_connection(conn_params)

    def is_usable(self):
        """Django asks this before reusing a kept connection (CONN_HEALTH_CHECKS) and after
        an error: a read-only connection to a file that can be written again is replaced,
        so saves work again as soon as the file's permissions are put right."""
        if not self.opened_writable and sqlite_file_writable(self.settings_dict["NAME"]):
            return False
        return super().is_usable()

    def _start_transaction_under_autocommit(self):
        queue = writer_queue(str(self.settings_dict["NAME"]))
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        if queue.acquire(timeout):
            self._writer_turn = queue
        try:
            # Django's private hook, absent from the stubs:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._end_writer_turn()
            raise

    def _end_writer_turn(self) -> None:
        queue, self._writer_turn = self._writer_turn, None
        if queue is not None:
            queue.release()

    def _commit(self):
        try:
            return super()._commit()  # type: ignore[misc]  # private: not in stubs
        finally:
            self._end_writer_turn()

    def _rollback(self):
        try:
            return super()._rollback()  # type: ignore[misc]  # private: not in stubs
        finally:
            self._end_writer_turn()

    def _close(self):
        try:
            return super()._close()  # type: ignore[misc]  # private: not in stubs
        finally:
            self._end_writer_turn()
