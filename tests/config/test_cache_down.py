"""Redis is an accelerator (issue 51, point 4): with the cache down, every page answers,
computed without it; sessions come from the database, the throttles count in it anyway,
and `/gezond/` says "degraded" with a 200 (config/cache.py, config/health.py).

A real redis-server (tests/config/conftest.py), killed in the middle of the test and
started again, and frozen (SIGSTOP) to stand for a Redis out of reach: its calls time out.
"""

from __future__ import annotations

import os
import signal

import pytest
import redis
from django.contrib.sessions.models import Session
from django.test import Client, override_settings
from django.urls import reverse

from clubs.models import Throttle
from config.settings import cache_and_sessions
from tests.factories import PASSWORD, competition_with_results, secretary_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_redis(redis_server):
    """The settings with `REDIS_URL`: Redis as the cache, sessions `cached_db`."""
    caches, engine = cache_and_sessions(redis_server.url)
    with override_settings(CACHES=caches, SESSION_ENGINE=engine):
        yield redis_server


@pytest.fixture
def played(club):
    return competition_with_results(entrants=8, rounds=2, club=club)


def public_pages(played) -> list[str]:
    kwargs = played.competition.url_kwargs
    return [
        reverse("standings", kwargs=kwargs),
        reverse("round", kwargs={**kwargs, "number": 1}),
        reverse("crosstable", kwargs=kwargs),
    ]


def secretary_pages(played) -> list[str]:
    kwargs = played.competition.url_kwargs
    return [
        reverse("my_games"),
        reverse("competition_edit", kwargs=kwargs),
        reverse("round_results", kwargs={**kwargs, "number": 2}),
    ]


def logged_in(username: str) -> Client:
    client = Client()
    reply = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert reply.status_code == 302, reply.status_code
    return client


def health(client: Client) -> tuple[int, dict]:
    reply = client.get(reverse("health"))
    return reply.status_code, reply.json()


def assert_every_page_answers(played, secretary: Client, username: str) -> None:
    visitor = Client()
    for url in public_pages(played):
        reply = visitor.get(url)
        assert reply.status_code == 200, url
        assert played.players[0].name.encode() in reply.content, url
    assert visitor.get(reverse("login")).status_code == 200
    for url in secretary_pages(played):
        reply = secretary.get(url)
        assert reply.status_code == 200, url
        assert reply.wsgi_request.user.username == username


def test_with_redis_killed_every_page_answers_and_health_says_degraded(on_redis, played):
    username = secretary_of(played.competition.club).username
    secretary = logged_in(username)
    assert_every_page_answers(played, secretary, username)
    assert health(Client()) == (200, {"status": "ok", "database": "ok", "cache": "ok"})
    kept = redis.Redis.from_url(on_redis.url)
    assert kept.dbsize() > 0  # the session and the pages are in Redis

    on_redis.kill()
    assert health(Client()) == (200, {"status": "degraded", "database": "ok", "cache": "failing"})
    # The session made before, read from the database; the pages computed again.
    assert_every_page_answers(played, secretary, username)
    # A login, and a wrong password counted in the database.
    assert_every_page_answers(played, logged_in(username), username)
    guesser = Client()
    wrong = guesser.post(reverse("login"), {"username": username, "password": "fout"})
    assert wrong.status_code == 200 and Throttle.objects.filter(failures=1).exists()
    # A logout ends the session.
    assert secretary.post(reverse("logout")).status_code == 302
    assert secretary.get(secretary_pages(played)[0]).status_code == 302  # to the login

    on_redis.start()  # back, empty
    assert health(Client()) == (200, {"status": "ok", "database": "ok", "cache": "ok"})
    again = logged_in(username)
    assert_every_page_answers(played, again, username)
    assert kept.dbsize() > 0  # in use again


def test_a_logout_while_redis_is_out_of_reach_stays_a_logout_when_it_is_back(on_redis, played):
    """Frozen, Redis keeps what it held, the session too: the logout could not delete it
    there. The first call that reaches it again empties it, so the old session does not
    come back."""
    username = secretary_of(played.competition.club).username
    secretary = logged_in(username)
    page = secretary_pages(played)[0]
    assert secretary.get(page).status_code == 200
    kept = redis.Redis.from_url(on_redis.url)
    cookie = secretary.cookies["sessionid"].value
    assert any(cookie in key.decode() for key in kept.scan_iter())

    os.kill(on_redis.process.pid, signal.SIGSTOP)
    try:
        stolen = Client()
        stolen.cookies["sessionid"] = cookie
        assert secretary.post(reverse("logout")).status_code == 302
        assert not Session.objects.filter(session_key=cookie).exists()
        assert stolen.get(page).status_code == 302
    finally:
        os.kill(on_redis.process.pid, signal.SIGCONT)
    assert any(cookie in key.decode() for key in kept.scan_iter())  # still there, stale

    assert health(Client())[1]["cache"] == "ok"  # reached again: emptied
    assert not any(cookie in key.decode() for key in kept.scan_iter())
    assert stolen.get(page).status_code == 302
