"""The production server as a club would run it, in a real browser.

Starts `python -m config.serve` (what `make serve` runs: migrate, collectstatic, gunicorn
with two workers, debug off) on a free port, on a database of the suite's own kind
(PostgreSQL when the suite runs on it, else a temporary SQLite file), seeds the demo
club, and crawls it in Chromium, first as a visitor, then as the secretary: every linked
page answers 200, is Dutch, logs no console error and violates no Content-Security-Policy.
Then the health endpoint, a 404 in Dutch, and a real server error: a table the round
page needs is renamed under the running server (as a failed migration or a broken
database would leave it); the visitor gets the Dutch 500 page and stderr the traceback.
No backdoor in the application is needed for that.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest
from django.conf import settings
from playwright.sync_api import Page

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DEMO_PASSWORD = "bordpunt-demo"
PER_KIND = 1  # pages of each kind (URL with its numbers left out) that are opened
MAX_PAGES = 40
DOWNLOADS = (".gcg", ".csv", ".json", ".t", ".zip", ".ics")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Database:
    """A database for the server alone, of the kind the suite runs on."""

    def __init__(self, folder: Path) -> None:
        default = settings.DATABASES["default"]
        self.postgres = default["ENGINE"] == "django.db.backends.postgresql"
        if self.postgres:
            self.params = {
                "user": default["USER"],
                "password": default["PASSWORD"],
                "host": default["HOST"] or "127.0.0.1",
                "port": default["PORT"] or 5432,
            }
            self.name = f"bordpunt_serve_{os.getpid()}_{secrets.token_hex(3)}"
            self._admin(f'CREATE DATABASE "{self.name}"')
            p = self.params
            self.url = f"postgres://{p['user']}:{p['password']}@{p['host']}:{p['port']}/{self.name}"
        else:
            self.path = folder / "db.sqlite3"
            self.url = f"sqlite:///{self.path}"

    def _admin(self, sql: str, dbname: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(dbname=dbname, autocommit=True, **self.params) as connection:
            connection.execute(sql)

    def break_table(self, table: str) -> None:
        """Rename a table under the running server."""
        sql = f"ALTER TABLE {table} RENAME TO {table}_weg"
        if self.postgres:
            self._admin(sql, dbname=self.name)
        else:
            with sqlite3.connect(self.path) as connection:
                connection.execute(sql)

    def drop(self) -> None:
        if self.postgres:
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


@pytest.fixture
def production_server(tmp_path):
    database = Database(tmp_path)
    port = free_port()
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
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="2",
    )
    stdout, stderr = tmp_path / "stdout.log", tmp_path / "stderr.log"
    process = None
    try:
        with stdout.open("wb") as out, stderr.open("wb") as err:
            process = subprocess.Popen(
                [sys.executable, "-m", "config.serve"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=err,
                start_new_session=True,
            )
        base = f"http://127.0.0.1:{port}"
        _wait_healthy(base, process, stderr)
        # The demo club, with debug off only by --force (seed_demo refuses otherwise).
        subprocess.run(
            [sys.executable, "manage.py", "seed_demo", "--force"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        yield base, database, stderr
    finally:
        if process is not None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        database.drop()


def _wait_healthy(base: str, process: subprocess.Popen, stderr: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"make serve stopped:\n{stderr.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/gezond/", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"make serve did not become healthy:\n{stderr.read_text()}")


def _kind(url: str) -> str:
    parts = urlsplit(url)
    query = ",".join(sorted(name.split("=")[0] for name in parts.query.split("&") if name))
    return re.sub(r"\d+", "#", parts.path) + "?" + query


def crawl(page: Page, base: str, start: str, *, skip: tuple[str, ...] = ()) -> list[str]:
    """Open every same-origin link reachable from `start`, up to PER_KIND of each kind;
    return what was wrong with any of them."""
    problems: list[str] = []
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            message.type == "error"
            and console.append(f"{message.text} {message.location.get('url', '')}")
        ),
    )
    page.on("pageerror", lambda error: console.append(str(error)))
    page.on(
        "response",
        lambda response: (
            response.status >= 400 and console.append(f"{response.status} {response.url}")
        ),
    )
    queue, seen, kinds, opened = [base + start], {base + start}, Counter(), 0
    while queue and opened < MAX_PAGES:
        url = queue.pop(0)
        if urlsplit(url).path.endswith(DOWNLOADS):
            response = page.request.get(url)
            if response.status != 200:
                problems.append(f"{url}: {response.status}")
            continue
        console.clear()
        response = page.goto(url)
        opened += 1
        page.wait_for_load_state("load")
        if response is None or response.status != 200:
            problems.append(f"{url}: {response.status if response else 'no response'}")
        if page.locator("html").get_attribute("lang") != "nl":
            problems.append(f"{url}: not Dutch")
        violations = page.evaluate("window.__cspViolations || []")
        problems += [f"{url}: CSP {violation}" for violation in violations]
        problems += [f"{url}: console: {text}" for text in console]
        for link in page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"):
            link = urldefrag(link).url
            if not link.startswith(base + "/") or link in seen:
                continue
            if any(part in link for part in ("/admin/", "/accounts/logout", *skip)):
                continue
            seen.add(link)
            if kinds[_kind(link)] < PER_KIND:
                kinds[_kind(link)] += 1
                queue.append(link)
    assert opened >= 10, f"only {opened} pages reachable from {start}"
    return problems


def board_with_htmx(page: Page, base: str) -> list[str]:
    """Enter a move on a pending game of the last round; what went wrong, if anything."""
    console: list[str] = []
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.goto(f"{base}/gouda/competitie-2026/ronde/7/")
    page.locator(".board-link").last.click()
    page.wait_for_url(re.compile(r"/partij/\d+/bord/$"))
    starter = page.locator('#starter-form button[value="0"]')
    if starter.count():
        starter.click()
        # The board page comes back (without the starter form); htmx must be set up before
        # typing triggers the preview.
        page.locator("#starter-form").wait_for(state="detached")
        page.wait_for_load_state("load")
    page.fill("#id_notation", "8H WOORD")
    # The first preview of a gunicorn worker loads the word list: slow on a busy machine.
    page.locator("#preview .preview-score").wait_for(timeout=30_000)
    page.locator("#save-play").click()
    page.locator("#undo").wait_for()
    violations = page.evaluate("window.__cspViolations || []")
    return [f"CSP {violation}" for violation in violations] + console


REPORT_CSP = """
document.addEventListener("securitypolicyviolation", (event) => {
  (window.__cspViolations = window.__cspViolations || []).push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`
  );
});
"""


# On purpose: an inline style set from the console (the CSP listener's own check) and a
# missing page. The crawl and the board collect every other console error themselves.
@pytest.mark.browser_errors(
    r"console error: Applying inline style violates .* \[on http://[^ ]*/partij/\d+/bord/\]$",
    r"404 .*/gouda/bestaat-niet/",
)
def test_make_serve_in_chromium(production_server, page: Page):
    base, database, stderr = production_server
    page.set_default_timeout(30_000)  # two gunicorn workers beside the other browser tests
    page.add_init_script(REPORT_CSP)

    # A visitor, then the secretary (the board, results and settings pages).
    assert crawl(page, base, "/") == []
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main form button").click()
    page.wait_for_url(f"{base}/")
    assert crawl(page, base, "/gouda/competitie-2026/", skip=("/accounts/",)) == []

    # The board of tonight's round, driven by htmx: the preview and a saved move.
    assert board_with_htmx(page, base) == []

    # The violation listener works: an inline style set from the console is refused.
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    page.wait_for_function("(window.__cspViolations || []).length > 0")
    assert "style-src" in page.evaluate("window.__cspViolations[0]")

    health = page.request.get(f"{base}/gezond/")
    assert health.status == 200
    assert health.json() == {"status": "ok", "database": "ok", "cache": "ok"}

    missing = page.goto(f"{base}/gouda/bestaat-niet/")
    assert missing is not None and missing.status == 404
    assert page.locator("html").get_attribute("lang") == "nl"
    assert page.locator("h1").inner_text() == "Pagina niet gevonden"

    # A real server error: the round page's table is gone under the running server.
    database.break_table("competition_round")
    with pytest.raises(urllib.error.HTTPError) as failed:
        urllib.request.urlopen(f"{base}/gouda/competitie-2026/ronde/1/", timeout=10)
    assert failed.value.code == 500
    body = failed.value.read().decode()
    assert '<html lang="nl">' in body
    assert "Er ging iets mis" in body
    deadline = time.monotonic() + 5
    while "Internal Server Error: /gouda/competitie-2026/ronde/1/" not in stderr.read_text():
        assert time.monotonic() < deadline, stderr.read_text()[-3000:]
        time.sleep(0.1)
    log = stderr.read_text()
    error = log[log.index("Internal Server Error: /gouda/competitie-2026/ronde/1/") :]
    assert "Traceback (most recent call last)" in error
    assert re.search(r"competition_round", error.split("Traceback", 1)[1])
    assert "ERROR django.request" in log
    # And the health check still answers: the database itself is reachable.
    assert json.loads(urllib.request.urlopen(f"{base}/gezond/").read())["status"] == "ok"
