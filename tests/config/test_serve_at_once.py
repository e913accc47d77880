"""Three production servers started at the same moment from one installation all come up
(issue 38, point 5): `config.serve` migrates and collects the static files of one
STATIC_ROOT before gunicorn starts, and two collectstatic runs at once into one folder
used to make one of them die (a file another run had just replaced). Each server answers
the health check and serves a static file by its manifest name."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import urllib.request

import pytest

from tests import hosted_stack
from tests.e2e.test_production_server import ROOT, Database, _wait_healthy, free_port

SERVERS = 3


@pytest.fixture
def servers_at_once(tmp_path):
    database = Database(tmp_path)
    ports: set[int] = set()
    while len(ports) < SERVERS:
        ports.add(free_port())
    static_root = tmp_path / "static"
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "EMAIL_", "BORDPUNT_"))
        and name not in {"DATABASE_URL", "PORT", "WEB_CONCURRENCY", "HOST"}
    }
    env.update(
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DATABASE_URL=database.url,
        DJANGO_STATIC_ROOT=str(static_root),
        HOST="127.0.0.1",
        WEB_CONCURRENCY="1",
    )
    started = []
    try:
        for number, port in enumerate(sorted(ports)):
            stderr = tmp_path / f"stderr-{number}.log"
            with stderr.open("wb") as err:
                process = subprocess.Popen(
                    [sys.executable, "-m", "config.serve"],
                    cwd=ROOT,
                    env={**env, "PORT": str(port)},
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                    start_new_session=True,
                )
            started.append((f"http://127.0.0.1:{port}", process, stderr))
        yield started, static_root
    finally:
        for _base, process, _stderr in started:
            if process.poll() is None:  # one that died (the old race) has nothing to stop
                os.killpg(process.pid, signal.SIGTERM)
        for _base, process, _stderr in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        database.drop()


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read()


def test_three_servers_started_at_once_all_come_up(servers_at_once):
    started, static_root = servers_at_once
    for base, process, stderr in started:
        _wait_healthy(base, process, stderr)  # fails with the server's stderr if it died
    manifest = json.loads((static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["css/paper.css"]
    expected = (ROOT / "static" / "css" / "paper.css").read_bytes()
    for base, process, _stderr in started:
        assert process.poll() is None
        assert get(f"{base}/gezond/")[0] == 200
        assert get(f"{base}/static/{hashed}") == (200, expected)


MACHINES = 4


def test_servers_of_several_machines_started_at_once_migrate_once(tmp_path):
    """Servers on machines of their own share the database only (each its own lock file
    and STATIC_ROOT): on PostgreSQL the preparation's advisory lock lets one migrate a
    fresh database while the others wait, then find nothing to do. Raced, two migrations
    would create the same table at once and one server would never start."""
    reason = hosted_stack.missing_postgres()
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    database = hosted_stack.FreshDatabase("bordpunt_machines")
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "EMAIL_", "BORDPUNT_", "REDIS_"))
        and name not in {"DATABASE_URL", "PORT", "WEB_CONCURRENCY", "HOST"}
    }
    env.update(
        DJANGO_DEBUG="false", DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DATABASE_URL=database.url
    )
    preparations = []
    try:
        for machine in range(MACHINES):
            static_root = tmp_path / f"machine-{machine}" / "static"
            preparations.append(
                subprocess.Popen(
                    [sys.executable, "-c", "from config.serve import prepare; prepare()"],
                    cwd=ROOT,
                    env={**env, "DJANGO_STATIC_ROOT": str(static_root)},
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
            )
        outputs = [process.communicate(timeout=300)[0] for process in preparations]
        assert [process.returncode for process in preparations] == [0] * MACHINES, outputs
        migrated = [output for output in outputs if "Applying " in output]
        assert len(migrated) == 1, outputs  # one migrated, the others found nothing to do
        assert sum("No migrations to apply." in output for output in outputs) == MACHINES - 1
        assert not database.query(
            "SELECT app, name FROM django_migrations GROUP BY app, name HAVING count(*) > 1"
        )
        for machine in range(MACHINES):
            assert (tmp_path / f"machine-{machine}" / "static" / "staticfiles.json").exists()
    finally:
        for process in preparations:
            if process.poll() is None:
                process.kill()
                process.wait()
        database.drop()
