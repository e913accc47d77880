"""When a request reached us (clubs/timing.py): the proxy's request start, believed from a
trusted proxy only and only within `MAX_QUEUED_SECONDS` before our process saw the
request, never after it; else the moment the WSGI application first saw it; and that
moment on the shared clock, the database's on PostgreSQL."""

from __future__ import annotations

import datetime
import time
from ipaddress import ip_network

import pytest
from django.db import connection
from django.test import RequestFactory
from django.utils import timezone

from clubs.timing import FIRST_SEEN, arrived_at, clock_now, first_seen, request_start

PROXY = "10.0.0.2"
PHONE = "198.51.100.7"
#: The moment our process first saw the request, in these tests.
SEEN = 1_800_000_000.0


@pytest.fixture(autouse=True)
def behind_a_proxy(settings):
    settings.TRUSTED_PROXIES = [ip_network("10.0.0.0/24")]


def started(remote: str, header: str | None, *, seen: float | None = SEEN) -> float:
    meta = {"REMOTE_ADDR": remote}
    if header is not None:
        meta["HTTP_X_REQUEST_START"] = header
    if seen is not None:
        meta[FIRST_SEEN] = seen
    return request_start(meta, now=SEEN + 5)


@pytest.mark.parametrize(
    ("remote", "header", "start"),
    [
        # From our proxy: its start, nginx's "t=${msec}", 1.5 s before our process saw it.
        (PROXY, f"t={SEEN - 1.5:.3f}", SEEN - 1.5),
        (PROXY, f"t={SEEN - 60:.0f}", SEEN - 60),  # the oldest believed
        # From the phone itself: its own invention, whatever it says.
        (PHONE, f"t={SEEN - 1.5:.3f}", SEEN),
        ("niet-een-adres", f"t={SEEN - 1.5:.3f}", SEEN),
        # Beyond the cap: a proxy's clock far behind, or a forged header, is not believed.
        (PROXY, f"t={SEEN - 60.5:.3f}", SEEN),
        (PROXY, "t=0", SEEN),
        # In the future (the proxy's clock a little ahead): no later than we saw it.
        (PROXY, f"t={SEEN + 3:.3f}", SEEN),
        # Not nginx's format: ignored.
        (PROXY, f"{SEEN - 1.5:.3f}", SEEN),
        (PROXY, f"t={SEEN - 1.5:.3f}; d=3", SEEN),
        (PROXY, "t=-5", SEEN),
        (PROXY, "t=1e9", SEEN),
        (PROXY, "t=١٧٩٩٩٩٩٩٩٩", SEEN),  # other digits than 0-9
        (PROXY, "", SEEN),
        (PROXY, None, SEEN),
    ],
)
def test_the_proxy_s_start_is_believed_from_our_proxy_within_the_cap(remote, header, start):
    assert started(remote, header) == start


def test_without_a_stamp_the_request_arrived_when_asked():
    """The test client, a command: no WSGI server of ours stamped the request."""
    assert started(PHONE, None, seen=None) == SEEN + 5
    assert started(PROXY, f"t={SEEN:.3f}", seen=None) == SEEN


def test_the_wsgi_application_is_stamped_before_it_runs():
    seen = []

    def application(environ, start_response):
        seen.append(environ[FIRST_SEEN])
        start_response("204 No Content", [])
        return [b""]

    before = time.time()
    first_seen(application)({"REMOTE_ADDR": PHONE}, lambda status, headers: None)
    assert before <= seen[0] <= time.time()


@pytest.mark.django_db
def test_arrived_at_takes_the_time_since_the_start_off_the_shared_clock():
    request = RequestFactory().post(
        "/", REMOTE_ADDR=PROXY, HTTP_X_REQUEST_START=f"t={time.time() - 20:.3f}"
    )
    before = timezone.now()
    arrived = arrived_at(request)
    queued = before - arrived
    assert datetime.timedelta(seconds=19.9) <= queued <= datetime.timedelta(seconds=21)


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the shared clock is the database's on PostgreSQL; on SQLite the one server's",
)
@pytest.mark.django_db
def test_the_shared_clock_is_the_database_s(database_clock_behind):
    """An app server whose clock is an hour ahead of the database's still reads the
    database's now, as every other server does."""
    ahead = timezone.now() - clock_now()
    assert datetime.timedelta(minutes=59) < ahead < datetime.timedelta(minutes=61)
    request = RequestFactory().post("/", REMOTE_ADDR=PHONE)
    ahead = timezone.now() - arrived_at(request)
    assert datetime.timedelta(minutes=59) < ahead < datetime.timedelta(minutes=61)


def test_a_request_from_the_proxy_is_answered_with_its_time_in_the_queue():
    answered = []

    def application(environ, start_response):
        start_response("204 No Content", [("Content-Length", "0")])
        return [b""]

    def start_response(status, headers, exc_info=None):
        answered.append(dict(headers))

    stamped = first_seen(application)
    stamped(
        {"REMOTE_ADDR": PROXY, "HTTP_X_REQUEST_START": f"t={time.time() - 1.5:.3f}"},
        start_response,
    )
    queue = answered[0]["Server-Timing"]
    assert queue.startswith("queue;dur=") and 1499 <= float(queue.split("=")[1]) < 2500  # ms
    stamped({"REMOTE_ADDR": PHONE, "HTTP_X_REQUEST_START": "t=1"}, start_response)
    assert "Server-Timing" not in answered[1]
