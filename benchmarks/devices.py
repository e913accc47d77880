"""A club evening of many devices: move saves against the real server, at once.

Starts the server that `make run` starts (`manage.py runserver --noreload`), and then the
one `make serve` starts (`config.serve`: gunicorn, debug off, 2 workers), each on a fresh
database: a temporary SQLite file, migrated, with one Gouds 8 round per device count.
Then 1, 5, 10 and 20 devices each enter their own game move by move at the same moment,
as the board screen in a browser does (htmx: the board is read once, then every save is
answered with the new board, from which the next move is saved), and the script prints the
p50 and p95 time of a move save (save to new board, one request) and the
number of server errors (5xx, or no answer). With DATABASE_URL pointing at PostgreSQL it
runs the same on a fresh database there (created beside that one, dropped afterwards).

Targets, 10 devices on SQLite on a 2-core machine, 0 errors: p95 under 300 ms on
`make run`'s server, under 200 ms on the production server.

    .venv/bin/python benchmarks/devices.py [--devices 1 5 10 20] [--server runserver production]
        [--database sqlite postgresql] [--time-limit 600]

Every server and database it makes, it removes; it stops by itself within --time-limit.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.live import Device, demo_scoresheets  # noqa: E402

PASSWORD = "bordpunt-bench"


def prepare(levels: list[int]) -> dict[str, list[int]]:
    """Migrate the database of DATABASE_URL and create, per device count, one published
    round with that many Gouds 8 games. Runs in a child process (its own settings)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from clubs.models import Club, Membership, Player
    from competition.models import Competition, Entrant, Round
    from competition.services.rounds import round_create, round_set_pairings, round_set_status
    from games.services import PairingSpec

    call_command("migrate", verbosity=0, interactive=False)
    sheets = demo_scoresheets()
    user = get_user_model().objects.create_user("secretaris", password=PASSWORD)
    club = Club.objects.create(name="Benchmarkclub", slug="bench")
    secretary = Player.objects.create(name="Secretaris", user=user)
    Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
    competition = Competition.objects.create(
        club=club, name="Apparaten", slug="apparaten", rules=Competition.Rules.GOUDS_8
    )
    games: dict[str, list[int]] = {}
    for level in levels:
        players = Player.objects.bulk_create(
            Player(name=f"Speler {level}-{index:02d}") for index in range(2 * level)
        )
        Membership.objects.bulk_create(Membership(club=club, player=p) for p in players)
        Entrant.objects.bulk_create(
            Entrant(competition=competition, player=p, joined_round=1) for p in players
        )
        round_obj = round_create(competition=competition)
        created = round_set_pairings(
            round=round_obj,
            pairings=[
                PairingSpec(
                    players=(players[2 * index].pk, players[2 * index + 1].pk),
                    table=index + 1,
                    starter=sheets[index % len(sheets)].starter,
                )
                for index in range(level)
            ],
        )
        round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
        games[str(level)] = [game.pk for game in created]
    return games


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


#: How each server is started: `make run`'s and `make serve`'s.
SERVERS = {
    "runserver": ("manage.py runserver --noreload", ["manage.py", "runserver", "--noreload"]),
    "production": ("config.serve (gunicorn, debug off, 2 workers)", ["-m", "config.serve"]),
}


def server_env(kind: str, database_url: str, folder: Path, port: int) -> dict[str, str]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))},
        "DATABASE_URL": database_url,
    }
    if kind == "runserver":
        return {**env, "DJANGO_DEBUG": "true"}
    return {
        **env,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_STATIC_ROOT": str(folder / "static"),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
    }


def start_server(kind: str, env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    arguments = SERVERS[kind][1] + ([f"127.0.0.1:{port}"] if kind == "runserver" else [])
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, *arguments],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped: {log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    raise RuntimeError("the server did not answer within 60 s")


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def run_level(base_url: str, game_ids: list[int], deadline: float) -> tuple[list[float], int]:
    """All devices enter their game at once; the save times in ms and the error count."""
    sheets = demo_scoresheets()
    devices = [Device(base_url, timeout=30) for _ in game_ids]
    for device in devices:
        device.log_in("secretaris", PASSWORD)
    for device in devices:
        device.log.clear()
    start = threading.Barrier(len(devices))
    failures: list[BaseException] = []

    def play(device: Device, game_id: int, index: int) -> None:
        start.wait()
        try:
            version = device.board_version(game_id)
            for notation, rack in sheets[index % len(sheets)].moves:
                if time.monotonic() > deadline:
                    return
                for _attempt in range(3):
                    reply = device.save_move(game_id, notation, rack, version=version, screen=True)
                    if reply.saved and reply.version is not None:
                        version = reply.version
                        break
                    version = device.board_version(game_id)
        except Exception as error:  # a refused connection or a page without a board
            failures.append(error)

    threads = [
        threading.Thread(target=play, args=(device, game_id, index))
        for index, (device, game_id) in enumerate(zip(devices, game_ids, strict=True))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, deadline - time.monotonic()))
    saves = [
        (status, seconds)
        for device in devices
        for method, _path, status, seconds in list(device.log)
        if method == "POST"
    ]
    errors = sum(status >= 500 for status, _seconds in saves) + len(failures)
    return [seconds * 1000 for _status, seconds in saves], errors


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def measure(
    label: str, kind: str, database_url: str, levels: list[int], deadline: float, folder: Path
) -> None:
    port = free_port()
    env = server_env(kind, database_url, folder, port)
    prepared = subprocess.run(
        [sys.executable, __file__, "--prepare", *map(str, levels)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=max(10.0, deadline - time.monotonic()),
    )
    if prepared.returncode != 0:
        raise RuntimeError(f"preparing the database failed:\n{prepared.stderr[-3000:]}")
    games = json.loads(prepared.stdout.strip().splitlines()[-1])
    log = Path(tempfile.mkstemp(prefix="bordpunt-devices-", suffix=".log")[1])
    server = start_server(kind, env, port, log)
    try:
        print(f"\n{label}: {SERVERS[kind][0]}, one game per device")
        print(f"{'devices':>8} {'saves':>6} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7}")
        for level in levels:
            if time.monotonic() > deadline:
                print(f"{level:>8} (stopped: time limit)")
                continue
            times, errors = run_level(f"http://127.0.0.1:{port}", games[str(level)], deadline)
            print(
                f"{level:>8} {len(times):>6} {percentile(times, 0.5):>8.0f} "
                f"{percentile(times, 0.95):>8.0f} {errors:>7}",
                flush=True,
            )
    finally:
        stop_server(server)
        # What the server said about its errors, one line per kind.
        kinds = sorted(
            {
                line
                for line in log.read_text().splitlines()
                if "Error:" in line and not line.startswith("Internal Server Error")
            }
        )
        for line in kinds[:5]:
            print(f"  server: {line.strip()[:160]}")
        log.unlink()


def postgres_scratch(database_url: str):
    """A fresh database beside DATABASE_URL's, and a function that drops it."""
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    name = f"{parts.path.lstrip('/')}_devices_bench"
    admin = psycopg.connect(database_url, autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    return urllib.parse.urlunsplit(parts._replace(path=f"/{name}")), drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--devices", type=int, nargs="+", default=[1, 5, 10, 20])
    parser.add_argument("--time-limit", type=float, default=600, help="seconds, in all")
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgresql"],
        nargs="+",
        default=["sqlite", "postgresql"],
        help="PostgreSQL only when DATABASE_URL points at one",
    )
    parser.add_argument(
        "--server", choices=list(SERVERS), nargs="+", default=list(SERVERS), help="which servers"
    )
    parser.add_argument("--prepare", type=int, nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        print(json.dumps(prepare(args.prepare)))
        return
    deadline = time.monotonic() + args.time_limit
    database_url = os.environ.get("DATABASE_URL", "")
    for kind in args.server:
        if "sqlite" in args.database:
            with tempfile.TemporaryDirectory(prefix="bordpunt-devices-") as name:
                folder = Path(name)
                sqlite = f"sqlite:///{folder}/db.sqlite3"
                measure("SQLite", kind, sqlite, args.devices, deadline, folder)
        if "postgresql" in args.database and database_url.startswith(("postgres", "postgresql")):
            scratch, drop = postgres_scratch(database_url)
            try:
                with tempfile.TemporaryDirectory(prefix="bordpunt-devices-") as name:
                    measure("PostgreSQL", kind, scratch, args.devices, deadline, Path(name))
            finally:
                drop()


if __name__ == "__main__":
    main()
