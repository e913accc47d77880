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
