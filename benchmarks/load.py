"""Load on the production server: requests per second under `make serve`'s own command.

Starts `python -m config.serve` (gunicorn, 2 workers, debug off) on a free port with a
temporary SQLite database holding the demo club: a 24-player Gouds 8 competition with
seven rounds played and an eighth just paired. Several client threads then send
requests for a few seconds each and the script prints, per kind of request, the
requests per second and the ratio to the static file:

- a static file (whitenoise), the ceiling of what the server can answer;
- the full standings page of the 24-player competition (a first visit);
- a round page;
- a repeat visit to the standings page that is answered 304 (If-None-Match);
- a move saved on the board (a pass, POST, by the secretary; one client by default, as
  at one board: on SQLite, concurrent writers need the database's concurrency settings).

Targets on this machine: the 304 at least 0.5 of the static file; the standings page at
least 0.1. Timings on a shared machine are noisy: compare ratios, not absolute figures.

    .venv/bin/python benchmarks/load.py [--seconds 3] [--threads 4] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import os
import queue
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COMPETITION = "/gouda/competitie-2026/"


def machine_speed() -> float:
    """How fast this machine runs Python right now: ms for a fixed loop (95 on the quiet
    2-core machine of docs/duplicate.md). Timings on a shared machine swing by half or
    more: this, measured before and after, says how far."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number * number
        best = min(best, time.perf_counter() - start)
    return best * 1000 * 3


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare_database(env: dict[str, str]) -> None:
    """Migrate and seed the demo club, then pair a fresh round whose games get moves."""
    for command in (["migrate", "-v0"], ["seed_demo", "--force"]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def pair_a_new_round() -> list[tuple[int, int]]:
    """Round 8, everyone present, published, starters drawn: (game id, version) per table."""
    from competition.models import Competition, Round
    from competition.selectors import (
        entrants_active_in,
    )
    from competition.services.rounds import (
        round_create,
        round_set_attendance,
        round_set_status,
    )
    from games.moves import game_set_starter
    from pairing.services import round_pair

    season = Competition.objects.get(club__slug="gouda", slug="competitie-2026")
    round_obj = round_create(competition=season)
    round_set_attendance(
        round=round_obj, present_player_ids=[e.player_id for e in entrants_active_in(round_obj)]
    )
    round_pair(round=round_obj)
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
    games = []
    for game in round_obj.games.exclude(outcome="bye").order_by("table"):
        game = game_set_starter(game=game, starter=0)
        games.append((game.pk, game.version))
    return games


def secretary_cookies() -> str:
    """A logged-in session of the demo secretary and a CSRF cookie, as a Cookie header."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    user = get_user_model().objects.get(username="secretaris")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    csrf = secrets.token_hex(16)
    return (
        f"{settings.SESSION_COOKIE_NAME}={session.session_key}; {settings.CSRF_COOKIE_NAME}={csrf}"
    )


class Server:
    def __init__(self, env: dict[str, str], port: int, log: Path) -> None:
        self.port = port
        self.log = log
        with log.open("wb") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "config.serve"],
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"server stopped:\n{self.log.read_text()}")
            try:
                status, _headers, _body = request(self.port, "GET", "/gezond/")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit("server did not answer /gezond/ in time")

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def request(
    port: int, method: str, path: str, headers: dict[str, str] | None = None, body: str = ""
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data
    finally:
        connection.close()


def measure(
    name: str, seconds: float, threads: int, one: Callable[[], int | None], expected: int
) -> float:
    """Requests per second of `one` from `threads` threads during `seconds`."""
    counts = [0] * threads
    wrong: list[int] = []
    stop_at = time.monotonic() + seconds

    def loop(index: int) -> None:
        while time.monotonic() < stop_at:
            status = one()
            if status is None:  # nothing left to do: the measurement ends here
                return
            if status != expected:
                wrong.append(status)
                return
            counts[index] += 1

    start = time.monotonic()
    workers = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.monotonic() - start
    if wrong:
        raise SystemExit(f"{name}: answered {wrong[0]} instead of {expected}")
    return sum(counts) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--move-threads",
        type=int,
        default=1,
        help="clients saving moves at once (on SQLite >1 needs the concurrency settings)",
    )
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bordpunt-load-"))
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "DJANGO_STATIC_ROOT": str(folder / "static"),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": str(args.workers),
    }
    print(f"Preparing the demo club in {folder} ...", flush=True)
    prepare_database(env)
    setup_django(env)
    games = pair_a_new_round()
    cookies = secretary_cookies()
    csrf = cookies.rsplit("=", 1)[1]

    server = Server(env, port, folder / "server.log")
    try:
        server.wait_ready()
        status, headers, _body = request(port, "GET", COMPETITION, {"Cookie": cookies})
        status, headers, _body = request(port, "GET", COMPETITION, {"Cookie": cookies})
        etag = headers.get("etag")
        if status != 200 or not etag:
            raise SystemExit(f"standings page: {status}, ETag {etag!r}")
        anonymous = {"Cookie": cookies.split("; ")[1]}  # the CSRF cookie only: a visitor
        status, headers, _body = request(port, "GET", COMPETITION, anonymous)
        visitor_etag = headers["etag"]

        pending: queue.Queue[list[int]] = queue.Queue()  # [game id, version, moves]
        for game_id, version in games:
            pending.put([game_id, version, 0])

        def move() -> int | None:
            try:
                game = pending.get_nowait()
            except queue.Empty:
                return None  # every game has all its turns: the measurement ends
            body = urllib.parse.urlencode({"kind": "pass", "version": game[1]})
            status, _h, _b = request(
                port,
                "POST",
                f"/partij/{game[0]}/bord/",
                {
                    "Cookie": cookies,
                    "X-CSRFToken": csrf,
                    "Content-Type": "application/x-www-form-urlencoded",
                },
                body,
            )
            game[1] += 1
            game[2] += 1
            if game[2] < 16:  # Gouds 8: eight turns each
                pending.put(game)
            return status

        measurements = [
            ("static file", lambda: request(port, "GET", "/static/css/bordpunt.css")[0], 200),
            (
                "standings page (24 players)",
                lambda: request(port, "GET", COMPETITION, anonymous)[0],
                200,
            ),
            (
                "round page",
                lambda: request(port, "GET", f"{COMPETITION}ronde/7/", anonymous)[0],
                200,
            ),
            (
                "standings page, 304",
                lambda: request(
                    port, "GET", COMPETITION, {**anonymous, "If-None-Match": visitor_etag}
                )[0],
                304,
            ),
            ("move save (POST)", move, 302),
        ]
        rates = {}
        for name, one, expected in measurements:
            if one is move:
                rates[name] = measure(name, min(args.seconds, 2.0), args.move_threads, one, 302)
            else:
                rates[name] = measure(name, args.seconds, args.threads, one, expected)
    except SystemExit:
        print(server.log.read_text()[-4000:], file=sys.stderr)
        raise
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)

    base = rates["static file"]
    print(
        f"gunicorn, {args.workers} workers, SQLite; {args.threads} client threads "
        f"({args.move_threads} for the move saves)"
    )
    print(f"{'request':32} {'req/s':>8} {'ratio':>7}")
    for name, rate in rates.items():
        print(f"{name:32} {rate:8.1f} {rate / base:7.2f}")
    print("targets: 304 >= 0.50, standings page >= 0.10")


if __name__ == "__main__":
    main()
