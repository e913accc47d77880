"""`make serve`: Bordpunt in its production configuration, in one command.

    DJANGO_DEBUG=false DJANGO_SECRET_KEY=... python -m config.serve

Refuses to start with debug on or without a secret key (with the reason), migrates the
database, collects the static files, then runs gunicorn on `$HOST:$PORT` (127.0.0.1:8000;
`HOST=0.0.0.0` serves the club room's network) with `$WEB_CONCURRENCY` workers (2).
Requests are logged to stdout, errors with their traceback to stderr.

Several servers started at once from one installation (a club's laptop restarted, or N app
servers on one machine) each run this preparation on the same database and the same
STATIC_ROOT. Run at the same moment, two `collectstatic`s into one folder trip over each
other (one deletes a file the other is writing: FileNotFoundError, and that server never
starts), and two first `migrate`s on one SQLite file both create the same tables. So the
preparation takes an exclusive lock first, a file beside STATIC_ROOT (`.<name>.lock` in
its parent): one server at a time migrates and collects, the others wait and then find
nothing left to do. A collection is skipped when the static sources are unchanged since the
last one (a fingerprint of their names, sizes and times, kept beside the lock), so a server
starting later never rewrites files, or the manifest, that a running server is serving.
Servers on different machines share only the database (and perhaps a STATIC_ROOT on a
network share): on PostgreSQL the preparation also holds an advisory lock of the
database (`one_server_at_a_time`), so the migrations run once, never raced, wherever the
servers start.

Why a lock and not a collection into a temporary folder swapped in: a folder cannot be
renamed over a non-empty one in one step, the swap would need a symlink that existing
installations do not have, and the migrations need serialising anyway. The lock is
`fcntl.flock`: gunicorn runs on POSIX only, so nothing here needs Windows; the kernel
releases it when a server dies mid-way, so a crash leaves no stale lock.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2


class Refused(Exception):
    """A reason not to start, for the person at the terminal."""


def _positive_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip() or str(default)
    if not value.isascii() or not value.isdigit() or not 0 < int(value) < 65536:
        raise Refused(f"{name} must be a whole number from 1 to 65535, not {value!r}.")
    return int(value)


def prepare() -> list[str]:
    """Check the configuration, migrate and collect static files; the gunicorn command."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if os.environ.get("DJANGO_DEBUG", "").strip().lower() not in {"0", "false", "no", "off"}:
        raise Refused(
            "Debug is on: `make serve` runs the production configuration only. "
            "Set DJANGO_DEBUG=false (and DJANGO_SECRET_KEY); `make run` is for development."
        )
    if not os.environ.get("DJANGO_SECRET_KEY", "").strip():
        raise Refused(
            "DJANGO_SECRET_KEY is not set. Generate one with\n"
            "  python -c 'import secrets; print(secrets.token_urlsafe(50))'\n"
            "and keep it secret: it signs the sessions."
        )
    port = _positive_int("PORT", DEFAULT_PORT)
    workers = _positive_int("WEB_CONCURRENCY", DEFAULT_WORKERS)
    host = os.environ.get("HOST", "127.0.0.1").strip() or "127.0.0.1"
    # gunicorn's sync workers reuse one thread each: keeping its connection saves a connect
    # per request (runserver, a thread per request, must not; see config/settings.py).
    os.environ.setdefault("DATABASE_CONN_MAX_AGE", "60")

    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    if settings.DEBUG:  # pragma: no cover - the environment check above already refused
        raise Refused("Debug is on.")
    static_root = Path(settings.STATIC_ROOT)
    with one_at_a_time(static_root), one_server_at_a_time():
        call_command("migrate", interactive=False, verbosity=1)
        collect_static(static_root)
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi",
        f"--bind={host}:{port}",
        f"--workers={workers}",
        "--access-logfile=-",
        "--error-logfile=-",
        "--timeout=60",
        "--graceful-timeout=10",
        # Unused, and one path per user: several servers on one machine would each take
        # over the last one's socket.
        "--no-control-socket",
    ]


@contextmanager
def one_at_a_time(static_root: Path) -> Iterator[None]:
    """Hold the installation's preparation lock (see the module's docstring)."""
    static_root.parent.mkdir(parents=True, exist_ok=True)
    with open(static_root.parent / f".{static_root.name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


#: The advisory lock's key: any fixed number, the same in every server of one database.
PREPARATION_LOCK = 0x626F7264  # "bord"


@contextmanager
def one_server_at_a_time() -> Iterator[None]:
    """On PostgreSQL, hold the database's preparation lock (`pg_advisory_lock`): servers on
    other machines share the database but not the lock file. Held by this connection's
    session, across migrate's own transactions; PostgreSQL releases it when the
    connection ends, so a server that dies mid-way leaves no stale lock. SQLite is one
    machine's file: the lock file is enough."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [PREPARATION_LOCK])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [PREPARATION_LOCK])


def static_fingerprint() -> str:
    """The static sources as collectstatic would find them: names, sizes, modification
    times (a changed release changes them)."""
    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders

    entries = sorted(
        (path, storage.path(path))
        for finder in get_finders()
        for path, storage in finder.list(["CVS", ".*", "*~"])
    )
    digest = hashlib.sha256(repr(settings.STORAGES["staticfiles"]).encode())
    for name, path in entries:
        stat = os.stat(path)
        digest.update(f"{name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def collect_static(static_root: Path) -> None:
    """collectstatic, unless the sources are as they were at the last collection into
    `static_root` and its manifest is there. Call with the lock held."""
    from django.core.management import call_command

    stamp = static_root.parent / f".{static_root.name}.collected"
    fingerprint = static_fingerprint()
    manifest = static_root / "staticfiles.json"
    if manifest.exists() and stamp.exists() and stamp.read_text() == fingerprint:
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(fingerprint)


def main() -> None:
    try:
        command = prepare()
    except Refused as refusal:
        print(f"bordpunt serve: not started. {refusal}", file=sys.stderr)
        raise SystemExit(2) from None
    sys.stdout.flush()
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
