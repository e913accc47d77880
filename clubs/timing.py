"""The one clock every app server shares, and the moment a request reached us on it.

`clock_now` is the site's now wherever a moment decides something (a flag on the board's
clock, a duplicate turn's draw and deadline, a slip's arrival): the database's clock on
PostgreSQL, which every app server reads alike (their own clocks may drift apart, and two
servers would judge the same moment that far apart); the server's own on SQLite, where
it is the only one.

`arrived_at` is when a request reached us, on that clock: the moment it is judged by, not
the moment a worker took it. Time spent queued (behind the proxy, in a server's backlog,
for a lock) never counts against the sender. Where it is taken:

- at the edge, when the request comes from a trusted proxy (`settings.TRUSTED_PROXIES`,
  the same as for X-Forwarded-For, `clubs.throttle.client_ip`): the proxy's request start
  in ``X-Request-Start: t=<seconds since the epoch>`` (nginx: ``"t=${msec}"``,
  deploy/nginx/bordpunt-locations.conf). Believed only within `MAX_QUEUED_SECONDS` before
  the moment our process first saw the request and never after it: a skewed proxy clock or
  a forged header cannot make a slip earlier than that, and a start in the future is
  taken as the moment we saw it;
- else the moment our process first saw it: `first_seen` wraps the WSGI application
  (config/wsgi.py), outermost, so it is stamped before Django, the session and any lock.
  Without either (the test client, a management command), the moment asked.

That moment is on this machine's clock; it becomes a moment on the shared clock as
``clock_now() - (time.time() - start)``. For the proxy's start this holds when the proxy
and the app server share a machine clock: one machine, or clocks kept by NTP (a few
milliseconds apart). The assumption is stated in docs/deployment.md.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.http import HttpRequest
from django.utils import timezone

from clubs.throttle import trusted_proxy

logger = logging.getLogger(__name__)

#: The WSGI environ's key for the moment our process first saw the request (`time.time()`).
FIRST_SEEN = "bordpunt.first_seen"
#: How long before we first saw a request a proxy may say it started (seconds): nginx and
#: gunicorn give up on a request after 60 s (deploy/nginx, config/serve.py).
MAX_QUEUED_SECONDS = 60.0
#: nginx's ``t=${msec}``: seconds since the epoch, with milliseconds.
_REQUEST_START = re.compile(r"t=(\d{1,11}(?:\.\d{1,6})?)", re.ASCII)


def clock_now() -> datetime:
    """Now, on the clock every app server shares: the database's on PostgreSQL, the
    server's own on SQLite."""
    if connection.vendor != "postgresql":
        return timezone.now()
    with connection.cursor() as cursor:
        # The moment of the query, after any lock was granted (now() is the transaction's start).
        cursor.execute("SELECT clock_timestamp()")
        return cursor.fetchone()[0]


WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def first_seen(application: WSGIApp) -> WSGIApp:
    """``application`` with every request stamped with the moment it first reached it
    (`FIRST_SEEN`). A request from a trusted proxy that names its start is answered with
    the time it waited between the proxy and us (``Server-Timing: queue;dur=<ms>``, the
    W3C header browsers' tools show): what a busy evening costs before any code runs."""

    def stamped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        seen = environ[FIRST_SEEN] = time.time()
        start = request_start(environ, seen)
        if start == seen:
            return application(environ, start_response)
        queue = ("Server-Timing", f"queue;dur={(seen - start) * 1000:.1f}")

        def start_timed(status: str, headers: list, exc_info: Any = None) -> Any:
            return start_response(status, [*headers, queue], exc_info)

        return application(environ, start_timed)

    return stamped


def request_start(meta: dict[str, Any], now: float) -> float:
    """When the request reached us, on this machine's clock (seconds since the epoch):
    the trusted proxy's start when it names a believable one, else the moment our process
    first saw the request, else ``now``."""
    seen = meta.get(FIRST_SEEN)
    seen = seen if isinstance(seen, float) else now
    if not trusted_proxy(meta.get("REMOTE_ADDR", "")):
        return seen
    header = _REQUEST_START.fullmatch(meta.get("HTTP_X_REQUEST_START", "").strip())
    if header is None:
        return seen
    start = float(header[1])
    if start < seen - MAX_QUEUED_SECONDS:
        logger.warning(
            "X-Request-Start %.3f is %.1f s before the request reached this server: "
            "ignored (is the proxy's clock behind?)",
            start,
            seen - start,
        )
        return seen
    return min(start, seen)


def arrived_at(request: HttpRequest) -> datetime:
    """When the request reached us, on the shared clock (`clock_now`; on PostgreSQL one
    query). The same moment whenever it is asked: the time since the start is read on this
    machine's clock next to the shared clock's now, and taken off."""
    shared = clock_now()
    now = time.time()
    return shared - timedelta(seconds=max(0.0, now - request_start(request.META, now)))
