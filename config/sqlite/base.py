"""SQLite for a club evening: the writers of one process take turns in order.

Every transaction takes SQLite's write lock at BEGIN (`transaction_mode` IMMEDIATE in
config/settings.py). SQLite lets a waiting writer poll for that lock with sleeps that grow
to 100 ms, and a newcomer can take the lock ahead of one who has waited long: with ten
devices saving moves, some saves waited most of a second (benchmarks/devices.py). Here the
threads of one server process wait on a lock of their own before BEGIN, so each is woken
as soon as the previous writer commits. Other processes (gunicorn's workers, a management
command) still queue through SQLite's own busy timeout, as before; a thread that has waited
longer than that timeout goes on to SQLite's own waiting, so nothing can hang here.
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base

from config.faults import sqlite_file_writable

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def _writer_lock(database: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(database, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_turn: threading.Lock | None = None
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
        lock = _writer_lock(str(self.settings_dict["NAME"]))
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        if lock.acquire(timeout=timeout):
            self._writer_turn = lock
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_writer_turn()
            raise

    def _end_writer_turn(self) -> None:
        lock, self._writer_turn = self._writer_turn, None
        if lock is not None:
            lock.release()

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._end_writer_turn()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._end_writer_turn()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._end_writer_turn()
