"""`/gezond/`: is this server able to serve, and to save? For a monitor, a load balancer or
a proxy.

200 when the database answers and can be written; 503 with the fault (`config.faults`)
and its explanation otherwise: unreachable, read-only (an SQLite file or folder without
write access, a PostgreSQL standby or read-only session) or disk full (little room left
beside the SQLite file). Nothing is written to find out: the check must not take the
write lock that the club evening's devices queue for.
"""

import logging

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


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    fault = database_fault()
    if fault is None:
        return JsonResponse({"status": "ok", "database": "ok"})
    logger.warning("Health check: %s", fault)
    return JsonResponse(
        {
            "status": "error",
            "database": fault.value,
            "reason": f"{EXPLANATIONS[fault]} {REMEDIES[fault]}",  # lazy: the request's language
        },
        status=503,
    )
