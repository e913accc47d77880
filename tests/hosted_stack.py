"""The hosted service on this machine, as an operator runs it (docs/deployment.md): nginx
in front (the project's own deploy/nginx/bordpunt-locations.conf), N app servers
(`python -m config.serve`: gunicorn, debug off) on one fresh PostgreSQL database, and one
redis-server as their shared cache. Each is a real process this module starts, as the
current user, in a folder of its own, on free ports; nothing system-wide is needed
beyond the installed programs. Used by tests/hosted/test_stack.py and benchmarks/hosted.py.

    with Stack(folder, servers=2) as stack:
        games = stack.seed(clubs=1, boards=2)   # the evening's clubs, in the database
        Device(stack.proxy_url, source_address=CLIENT).log_in(...)

The visitor's connections come from CLIENT (127.0.0.3, another loopback address), so the
app servers see nginx (127.0.0.1) as the connection and the visitor only in the
X-Forwarded-For that nginx adds: the trusted proxy of DJANGO_TRUSTED_PROXIES.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCATIONS = ROOT / "deploy" / "nginx" / "bordpunt-locations.conf"
#: The STATIC_ROOT the shipped locations name; the stack's own is put in its place.
SHIPPED_STATIC_ROOT = "/srv/bordpunt/staticfiles/"
#: Where the shipped locations find the proxy's own error page; the checkout's is used.
SHIPPED_DEPLOY = "/srv/bordpunt/deploy;"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
REDIS_SERVER = shutil.which("redis-server")
#: Where the visitors connect from: not the proxy's address.
CLIENT = "127.0.0.3"
PASSWORD = "hosted-evening-2026"


def postgres_admin_url() -> str:
    """A PostgreSQL connection that may create databases: BORDPUNT_POSTGRES_URL, else the
    suite's DATABASE_URL when it is PostgreSQL, else the role .ci/run creates."""
    url = os.environ.get("BORDPUNT_POSTGRES_URL", "")
    database_url = os.environ.get("DATABASE_URL", "")
    if not url and database_url.startswith(("postgres://", "postgresql://")):
        url = database_url
    return url or "postgres://bordpunt:bordpunt@127.0.0.1:5432/bordpunt"


def missing() -> str | None:
    """What of the stack this machine lacks, in words; None when all is there."""
    if NGINX is None:
        return "nginx not found; install Debian's nginx"
    if REDIS_SERVER is None:
        return "redis-server not found; install Debian's redis-server"
    return missing_postgres()


def missing_postgres() -> str | None:
    try:
        import psycopg

        psycopg.connect(postgres_admin_url(), connect_timeout=3).close()
    except Exception as error:  # any reason PostgreSQL cannot be used
        return f"PostgreSQL not reachable at {postgres_admin_url()}: {error}"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def free_ports(count: int) -> list[int]:
    ports: set[int] = set()
    while len(ports) < count:
        ports.add(free_port())
    return sorted(ports)


class FreshDatabase:
    """An empty PostgreSQL database of its own, dropped at the end."""

    def __init__(self, prefix: str = "bordpunt_stack") -> None:
        self.admin = postgres_admin_url()
        self.name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
        self._execute(f'CREATE DATABASE "{self.name}"')
        parts = urllib.parse.urlsplit(self.admin)
        self.url = urllib.parse.urlunsplit(parts._replace(path=f"/{self.name}"))

    def _execute(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin, autocommit=True) as connection:
            connection.execute(sql)

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            return connection.execute(sql, params).fetchall()

    def drop(self) -> None:
        self._execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def _stop(process: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _wait_for(ready, process: subprocess.Popen, log: Path, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} stopped ({process.returncode}):\n{log.read_text()[-4000:]}")
        try:
            if ready():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come up in {timeout} s:\n{log.read_text()[-4000:]}")


def _healthy(url: str) -> bool:
    with urllib.request.urlopen(f"{url}/gezond/", timeout=5) as response:
        return response.status == 200


class Redis:
    """A redis-server without persistence, on a free port; killed and started again on
    the same port, it is Redis crashing and coming back (empty)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = folder / "redis.log"
        self.start()

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    *(REDIS_SERVER or "redis-server", "--port", str(self.port)),
                    *("--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
                    *("--dir", str(self.folder)),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

        def answers() -> bool:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")

        _wait_for(answers, self.process, self.log, "redis-server", 20)

    def kill(self) -> None:
        """Gone at once, as in a crash: no goodbye to its clients."""
        _stop(self.process, signal.SIGKILL)

    def stop(self) -> None:
        _stop(self.process)


class AppServer:
    """`python -m config.serve`: the preparation (migrate, collectstatic), then gunicorn."""

    def __init__(self, env: dict[str, str], port: int, folder: Path, code: Path = ROOT) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.port = port
        self.log = folder / f"server-{port}.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "config.serve"],
                cwd=code,
                env={**env, "PORT": str(port)},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 120) -> None:
        _wait_for(lambda: _healthy(self.url), self.process, self.log, "app server", timeout)

    def kill(self) -> None:
        """Gone at once, as a machine that fails: gunicorn and its workers."""
        _stop(self.process, signal.SIGKILL)

    def stop(self) -> None:
        _stop(self.process)


class Nginx:
    """nginx as the current user: its own prefix, configuration, pid and logs in `folder`,
    proxying to `upstreams` with the project's locations."""

    def __init__(
        self, folder: Path, upstreams: list[int], static_root: Path, *, workers: int = 1
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        locations = folder / "bordpunt-locations.conf"
        shipped = LOCATIONS.read_text()
        for shipped_path in (SHIPPED_STATIC_ROOT, SHIPPED_DEPLOY):
            if shipped_path not in shipped:
                raise RuntimeError(f"{LOCATIONS} no longer names {shipped_path}")
        locations.write_text(
            shipped.replace(SHIPPED_STATIC_ROOT, f"{static_root}/").replace(
                SHIPPED_DEPLOY, f"{ROOT / 'deploy'};"
            )
        )
        servers = "\n".join(f"        server 127.0.0.1:{port};" for port in upstreams)
        temp = "\n".join(
            f"    {kind}_temp_path {folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        self.error_log = folder / "error.log"
        self.config = folder / "nginx.conf"
        # Started as root, nginx's workers would be `nobody`, who cannot read the stack's
        # folder: they stay the user who started it, as they are for anyone else.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
        self.config.write_text(
            f"""{user}
worker_processes {workers};
pid {folder / "nginx.pid"};
error_log {self.error_log} warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
{temp}
    upstream bordpunt {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{self.port};
        server_name 127.0.0.1;
        # The stack's own: which app server answered, for the tests.
        add_header X-Bordpunt-Upstream $upstream_addr always;
        include {locations};
    }}
}}
"""
        )
        with self.error_log.open("ab") as errors:
            self.process = subprocess.Popen(
                [NGINX or "nginx", "-p", str(folder), "-c", str(self.config), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL,
                stderr=errors,
                start_new_session=True,
            )
        _wait_for(lambda: _healthy(self.url), self.process, self.error_log, "nginx", 30)

    def stop(self) -> None:
        _stop(self.process, signal.SIGQUIT)  # a graceful stop


class Stack:
    """nginx, `servers` app servers, PostgreSQL (a fresh database) and Redis."""

    def __init__(
        self,
        folder: Path,
        *,
        servers: int = 2,
        workers: int = 2,
        nginx_workers: int = 1,
        extra_env: dict[str, str] | None = None,
        code: Path = ROOT,
    ) -> None:
        """`code`: the checkout the app servers run (another release's, for a benchmark's
        figure before a change); nginx's locations are this checkout's."""
        self.folder = folder
        self.code = code
        self.server_count = servers
        self.workers = workers
        self.nginx_workers = nginx_workers
        self.extra_env = extra_env or {}
        self.database: FreshDatabase | None = None
        self.redis: Redis | None = None
        self.servers: list[AppServer] = []
        self.nginx: Nginx | None = None

    def __enter__(self) -> Stack:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        self.database = FreshDatabase()
        self.redis = Redis(self.folder / "redis")
        self.env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("DJANGO_", "EMAIL_", "BORDPUNT_", "REDIS_"))
            and name not in {"DATABASE_URL", "PORT", "WEB_CONCURRENCY", "HOST"}
        }
        self.env.update(
            DJANGO_DEBUG="false",
            DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
            DATABASE_URL=self.database.url,
            REDIS_URL=self.redis.url,
            DJANGO_TRUSTED_PROXIES="127.0.0.1",
            # Every server the same release, as when one release is installed on each.
            BORDPUNT_RELEASE=f"stack-{secrets.token_hex(4)}",
            HOST="127.0.0.1",
            WEB_CONCURRENCY=str(self.workers),
            **self.extra_env,
        )
        # Each server its own STATIC_ROOT, as on machines of their own: they share the
        # database and Redis only, and are started at the same moment.
        ports = free_ports(self.server_count)
        for number, port in enumerate(ports):
            static_root = self.folder / f"machine-{number}" / "static"
            env = {**self.env, "DJANGO_STATIC_ROOT": str(static_root)}
            self.servers.append(AppServer(env, port, self.folder, self.code))
        for server in self.servers:
            server.wait_ready()
        self.nginx = Nginx(
            self.folder / "nginx",
            ports,
            self.folder / "machine-0" / "static",
            workers=self.nginx_workers,
        )
        self.proxy_url = self.nginx.url

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for server in self.servers:
            server.stop()
        if self.redis is not None:
            self.redis.stop()
        if self.database is not None:
            self.database.drop()

    def seed(self, *, clubs: int, boards: int, paper: int = 0) -> list[dict]:
        """`clubs` clubs, each with a secretary and one published round of `boards` games
        entered on the board and `paper` more whose results the secretary types; written
        by a child process on the stack's database (see `seed_evening`)."""
        arguments = ["--seed", str(clubs), str(boards), str(paper)]
        done = subprocess.run(
            [sys.executable, "-m", "tests.hosted_stack", *arguments],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(f"seeding failed:\n{done.stderr[-4000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    def logs(self) -> str:
        """The app servers' and nginx's logs: what to show when something failed."""
        parts = [
            f"--- {server.log.name}\n{server.log.read_text()[-3000:]}" for server in self.servers
        ]
        if self.nginx is not None:
            parts.append(f"--- nginx\n{self.nginx.error_log.read_text()[-2000:]}")
        return "\n".join(parts)


def seed_evening(clubs: int, boards: int, paper: int = 0) -> list[dict]:
    """Per club: its slug, its secretary's username (whose address is
    USERNAME@example.org), a competition whose first round (published) has `boards` games
    for the board (with the starters of the demo scoresheets) and then `paper` games on
    paper. The secretaries' password is PASSWORD. Runs in the child process `Stack.seed`
    starts."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Membership, Player
    from competition.models import Competition, Entrant, Round
    from competition.services.rounds import round_create, round_set_pairings, round_set_status
    from games.services import PairingSpec
    from tests.live import demo_scoresheets

    sheets = demo_scoresheets()
    made = []
    for number in range(1, clubs + 1):
        slug = f"club{number:02d}"
        username = f"secretaris{number:02d}"
        user = get_user_model().objects.create_user(
            username, email=f"{username}@example.org", password=PASSWORD
        )
        club = Club.objects.create(name=f"Club {number:02d}", slug=slug, city="Gouda")
        secretary = Player.objects.create(name=f"Secretaris {number:02d}", user=user)
        Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
        competition = Competition.objects.create(
            club=club, name="Avondcompetitie", slug="avond", rules=Competition.Rules.GOUDS_8
        )
        players = Player.objects.bulk_create(
            Player(name=f"Speler {number:02d}-{index:02d}") for index in range(2 * (boards + paper))
        )
        Membership.objects.bulk_create(Membership(club=club, player=p) for p in players)
        Entrant.objects.bulk_create(
            Entrant(competition=competition, player=p, joined_round=1) for p in players
        )
        round_obj = round_create(competition=competition)
        games = round_set_pairings(
            round=round_obj,
            pairings=[
                PairingSpec(
                    players=(players[2 * index].pk, players[2 * index + 1].pk),
                    table=index + 1,
                    starter=sheets[index % len(sheets)].starter,
                )
                for index in range(boards + paper)
            ],
        )
        round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
        games = sorted(games, key=lambda game: game.table)
        made.append(
            {
                "club": slug,
                "competition": f"/{slug}/avond/",
                "secretary": user.username,
                "round": 1,
                "games": [game.pk for game in games[:boards]],
                "paper": [game.pk for game in games[boards:]],
                "sheets": [sheets[index % len(sheets)].name for index in range(boards)],
            }
        )
    return made


if __name__ == "__main__":
    if sys.argv[1:2] == ["--seed"]:
        print(json.dumps(seed_evening(*map(int, sys.argv[2:5]))))
