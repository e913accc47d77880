"""`/gezond/`: is this server able to serve, and to save? For a monitor, a load balancer or
a proxy.

The status code is for a load balancer: 200 while this server serves, 503 while it
cannot save (take it out). The body says more, for a monitor:

- `{"status": "ok", "database": "ok", "cache": "ok"}`, 200;
- `{"status": "degraded", "database": "ok", "cache": "failing"}`, 200: the shared cache
  (Redis) does not answer. Every page still works, computed without it, and sessions come
  from the database (config/cache.py): slower, not down, so the server stays in;
- `{"status": "error", "database": FAULT, "cache": ..., "reason": ...}`, 503: the fault
  (`config.faults`) and its explanation: unreachable, read-only (an SQLite file or folder
  without write access, a PostgreSQL standby or read-only session) or disk full (little
  room left beside the SQLite file).

Nothing is written to find out: the check must not take the write lock that the club
evening's devices queue for. The cache is asked with a PING, past the pause a server
takes after a failure, so its end is seen at once.
"""

import logging

from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.faults import EXPLANATIONS, REMEDIES, Fault, fault_of, sqlite_fault

logger = logging.getLogger(__name__)


def database_fault() -> Fault | None:
    """What stops this server from saving right now, if anything."""
    try:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(
                    "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'"
                )
                if cursor.fetchone()[0]:
                    return Fault.READ_ONLY
            else:
                cursor.execute("SELECT 1")
                cursor.fetchone()
    except DatabaseError as error:
        logger.exception("Health check: the database does not answer")
        connection.close()
        return fault_of(error) or Fault.UNREACHABLE
    if connection.vendor == "sqlite":
        fault = sqlite_fault(connection.settings_dict["NAME"])
        if fault is None and not getattr(connection, "opened_writable", True):
            return Fault.READ_ONLY
        return fault
    return None


def cache_fails() -> bool:
    """Whether the shared cache does not answer (each process's own memory always does).

    Asked of the backend, not of its class: importing config/cache.py imports redis, which
    an installed Bordpunt has no use for (and redis's own asyncio wants async-timeout on
    Pythons before 3.11.3, which pip installs only where it was installed)."""
    answers = getattr(caches["default"], "answers", None)  # config.cache.DegradingRedisCache
    return answers is not None and not answers()


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    fault = database_fault()
    cache = "failing" if cache_fails() else "ok"
    if fault is None:
        status = "ok" if cache == "ok" else "degraded"
        return JsonResponse({"status": status, "database": "ok", "cache": cache})
    logger.warning("Health check: %s", fault)
    return JsonResponse(
        {
            "status": "error",
            "database": fault.value,
            "cache": cache,
            "reason": f"{EXPLANATIONS[fault]} {REMEDIES[fault]}",  # lazy: the request's language
        },
        status=503,
    )
