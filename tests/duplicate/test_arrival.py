"""A slip from the phone is judged by when it reached us (issue 50, point 2), not by when a
worker took it: the trusted proxy's request start, else the moment our process first saw
it (`clubs.timing`); and the turn's draw, deadline and the arrival on the one clock all app
servers share (the database's on PostgreSQL)."""

from __future__ import annotations

import datetime
import time
from ipaddress import ip_network

import pytest
from django.db import connection
from django.utils import timezone

from clubs.timing import FIRST_SEEN
from duplicate.models import Slip, Turn
from duplicate.services.evenings import evening_create
from duplicate.services.turns import turn_draw
from tests.duplicate.test_clock_pages import time_run_out
from tests.duplicate.test_pages import url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"
PHONE = "198.51.100.7"


@pytest.fixture(autouse=True)
def behind_a_proxy(settings):
    settings.TRUSTED_PROXIES = [ip_network("10.0.0.0/24")]


@pytest.fixture
def turn(competition, secretary):
    evening = evening_create(competition=competition, number=1, by=secretary)
    return turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)


@pytest.fixture
def phone(client, four_entrants):
    """Anna's phone, logged in."""
    anna = four_entrants[0]
    anna.user = UserFactory(username="anna")
    anna.save()
    client.force_login(anna.user)
    return client


def hand_in(phone, turn, *, remote: str, started_ago: float | None = None, **extra) -> Slip:
    """Anna's slip for `turn`, from `remote`, naming a request start `started_ago` seconds
    ago as nginx does (X-Request-Start)."""
    if started_ago is not None:
        extra["HTTP_X_REQUEST_START"] = f"t={time.time() - started_ago:.3f}"
    response = phone.post(
        url("duplicate_slip", turn.evening),
        {"turn": "1", "text": "8D KAArSEN", "claimed": "74"},
        REMOTE_ADDR=remote,
        **extra,
    )
    assert response.status_code == 302
    return Slip.objects.get()


def test_a_slip_that_reached_the_proxy_in_time_is_in_time_however_late_it_is_taken(phone, turn):
    # The deadline 5 s ago, the grace (2 s) 3 s ago; the slip reached nginx 10 s ago and
    # waited for a worker since.
    time_run_out(turn, seconds_ago=5)
    slip = hand_in(phone, turn, remote=PROXY, started_ago=10)
    assert (slip.late, slip.counted_score) == (False, 74)


def test_a_slip_that_reached_the_proxy_after_the_time_is_late(phone, turn):
    time_run_out(turn, seconds_ago=10)
    assert hand_in(phone, turn, remote=PROXY, started_ago=5).late


def test_a_phone_s_own_request_start_is_not_believed(phone, turn):
    time_run_out(turn, seconds_ago=5)
    assert hand_in(phone, turn, remote=PHONE, started_ago=10).late


def test_a_request_start_beyond_the_cap_is_not_believed(phone, turn):
    """Not earlier than 60 s before our process saw the slip: a proxy whose clock is far
    behind makes no late slip in time."""
    time_run_out(turn, seconds_ago=100)
    assert hand_in(phone, turn, remote=PROXY, started_ago=120).late


def test_a_request_start_in_the_future_counts_as_when_we_saw_it(phone, turn):
    time_run_out(turn, seconds_ago=5)
    assert hand_in(phone, turn, remote=PROXY, started_ago=-30).late


def test_without_a_proxy_the_moment_our_process_first_saw_the_slip_counts(phone, turn):
    """The WSGI application's stamp (config/wsgi.py): the slip waited 10 s in our process
    (for the session, a lock) after it came in."""
    time_run_out(turn, seconds_ago=5)
    slip = hand_in(phone, turn, remote=PHONE, **{FIRST_SEEN: time.time() - 10})
    assert not slip.late


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the shared clock is the database's on PostgreSQL; on SQLite the one server's",
)


@postgres_only
def test_the_draw_and_the_arrival_are_on_the_database_s_clock(
    database_clock_behind, phone, competition, secretary
):
    """This app server's clock is an hour ahead of the database's: the turn is drawn, and
    the slip handed in at once, on the database's clock, so the slip is in time (on this
    server's own clock it would be 57 minutes late)."""
    evening = evening_create(competition=competition, number=1, by=secretary)
    drawn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    ahead = timezone.now() - drawn.drawn_at
    assert datetime.timedelta(minutes=59) < ahead < datetime.timedelta(minutes=61)
    slip = hand_in(phone, drawn, remote=PHONE)
    assert not slip.late
    assert Turn.objects.get().deadline == drawn.drawn_at + datetime.timedelta(seconds=180)
