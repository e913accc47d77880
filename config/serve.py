"""`make serve`: Bordpunt in its production configuration, in one command.

    DJANGO_DEBUG=false DJANGO_SECRET_KEY=... python -m config.serve

Refuses to start with debug on or without a secret key (with the reason), migrates the
database, collects the static files, then runs gunicorn on `$HOST:$PORT` (127.0.0.1:8000;
`HOST=0.0.0.0` serves the club room's network) with `$WEB_CONCURRENCY` workers (2).
Requests are logged to stdout, errors with their traceback to stderr.
"""

from __future__ import annotations

import os
import sys

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
    call_command("migrate", interactive=False, verbosity=1)
    call_command("collectstatic", interactive=False, verbosity=0)
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
    ]


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
