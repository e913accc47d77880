"""Sessions and the logged-in user, by Django's own engines and backend.

The settings choose the engine: cached_db over Redis when `REDIS_URL` names a cache that
every process shares, the database alone otherwise (config/settings.py,
`cache_and_sessions`). The tests that matter run a second process beside this one, as a
second gunicorn worker would be: a session logged out here must be gone there too.

Redis: a `redis-server` of the test's own on a free port (tests/config/conftest.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.parse
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config.settings import cache_and_sessions
from tests.factories import PASSWORD, UserFactory

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


def _settings_in_a_fresh_python(**env: str) -> dict:
    clean = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, django; django.setup(); from django.conf import settings as s; "
            "print(json.dumps([s.CACHES['default'], s.SESSION_ENGINE]))",
        ],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    cache, engine = json.loads(done.stdout.strip().splitlines()[-1])
    return {"cache": cache, "engine": engine}


def test_the_settings_keep_sessions_in_the_database_without_a_shared_cache():
    chosen = _settings_in_a_fresh_python()
    assert chosen["cache"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert chosen["engine"] == "django.contrib.sessions.backends.db"


def test_the_settings_cache_sessions_in_redis_when_it_is_configured():
    chosen = _settings_in_a_fresh_python(REDIS_URL="redis://127.0.0.1:6390/2")
    assert chosen["cache"] == {
        "BACKEND": "config.cache.DegradingRedisCache",
        "LOCATION": "redis://127.0.0.1:6390/2",
    }
    assert chosen["engine"] == "django.contrib.sessions.backends.cached_db"


def test_a_logged_in_request_reads_its_session_and_user_in_one_query_each(client):
    anke = UserFactory(username="anke")
    client.force_login(anke)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("my_games"))
    assert response.status_code == 200 and response.wsgi_request.user == anke
    tables = [query["sql"].split(" FROM ")[1].split()[0].strip('"') for query in queries]
    assert tables.count(Session._meta.db_table) == 1
    assert tables.count(get_user_model()._meta.db_table) == 1


def test_an_inactive_or_deleted_account_logs_nobody_in(client):
    anke = UserFactory(username="anke")
    client.force_login(anke)
    anke.is_active = False
    anke.save()
    assert client.get(reverse("my_games")).status_code == 302  # to the login page
    bert = UserFactory(username="bert")
    client.force_login(bert)
    bert.delete()
    assert client.get(reverse("my_games")).status_code == 302


# -------------------------------------------------------------------- a second process

#: A second worker: it reads each session key given on stdin with the settings' engine
#: and prints whose login it holds ("-": nobody). `argv[1]`: settings to change first.
SECOND_WORKER = """
import json, sys
import django
django.setup()
from importlib import import_module
from django.conf import settings
for name, value in json.loads(sys.argv[1]).items():
    setattr(settings, name, value)
store = import_module(settings.SESSION_ENGINE).SessionStore
print(settings.SESSION_ENGINE, flush=True)
for key in sys.stdin:
    print(store(key.strip()).get("_auth_user_id", "-"), flush=True)
"""


def _test_database_url() -> str:
    """This test's database, for a second process (its rows committed: transaction=True)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user, password = (urllib.parse.quote(db[k] or "", safe="") for k in ("USER", "PASSWORD"))
    return f"postgres://{user}:{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class SecondWorker:
    """A Python process beside this one, on the same database (and cache, if shared)."""

    def __init__(self, *, redis_url: str = "", **changed_settings) -> None:
        env = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
        env |= {"DATABASE_URL": _test_database_url(), "REDIS_URL": redis_url}
        self.process = subprocess.Popen(
            [sys.executable, "-c", SECOND_WORKER, json.dumps(changed_settings)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.engine = self.process.stdout.readline().strip()

    def logged_in(self, session_key: str) -> str:
        """Whose login the session holds, read there ("-": nobody)."""
        self.process.stdin.write(session_key + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(30)


def _logged_in_there_before_and_after_logout(
    client, second: SecondWorker, *, meanwhile=lambda key: None
) -> tuple[str, str]:
    """Log in here, read the session there, log out here, read it there again.
    `meanwhile(key)` runs while logged in."""
    anke = UserFactory(username="anke")
    try:
        login = client.post(reverse("login"), {"username": "anke", "password": PASSWORD})
        assert login.status_code == 302
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        before = second.logged_in(key)
        meanwhile(key)
        assert client.post(reverse("logout")).status_code == 302
        after = second.logged_in(key)
    finally:
        second.close()
    assert before == str(anke.pk), "the second worker never saw the login"
    return before, after


@pytest.mark.django_db(transaction=True)
def test_a_session_logged_out_in_one_worker_is_gone_in_the_other(client):
    second = SecondWorker()
    assert second.engine == "django.contrib.sessions.backends.db"
    assert _logged_in_there_before_and_after_logout(client, second)[1] == "-"


@pytest.mark.django_db(transaction=True)
def test_why_not_cached_db_over_a_cache_of_each_process(client):
    """What the settings avoid: cached_db over each process's own memory keeps a session
    the other worker logged out, until it expires."""
    engine = "django.contrib.sessions.backends.cached_db"
    second = SecondWorker(SESSION_ENGINE=engine)
    with override_settings(SESSION_ENGINE=engine):
        before, after = _logged_in_there_before_and_after_logout(client, second)
    assert after == before  # still logged in there


@pytest.mark.django_db(transaction=True)
def test_with_redis_a_session_logged_out_in_one_worker_is_gone_in_the_other(client, redis_server):
    redis_url = redis_server.url
    caches, engine = cache_and_sessions(redis_url)
    second = SecondWorker(redis_url=redis_url)
    assert second.engine == engine == "django.contrib.sessions.backends.cached_db"
    cached = []
    with override_settings(CACHES=caches, SESSION_ENGINE=engine):
        from django.core.cache import cache

        def in_the_shared_cache(key):
            cached.append(cache.get(import_module(engine).SessionStore(key).cache_key))

        before, after = _logged_in_there_before_and_after_logout(
            client, second, meanwhile=in_the_shared_cache
        )
    assert after == "-"
    assert cached[0]["_auth_user_id"] == before  # the login was read from Redis
