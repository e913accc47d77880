"""A busy club evening under the production server: how long each kind of request takes.

Starts `python -m config.serve` (what `make serve` runs: gunicorn, debug off) with 2 and
then 4 workers, on a fresh database: a temporary SQLite file, and, when PostgreSQL is
reachable, a database `bordpunt_bench_evening` that it creates and drops itself (on the
server of DATABASE_URL when that is PostgreSQL, else postgres://bordpunt:bordpunt@
127.0.0.1:5432). Each run plays the evening of tests/evening.py, the same requests as
tests/test_busy_evening.py: 10 boards entering moves, 3 secretaries on results pages and
corrections, 4 players entering, confirming and disputing, a pairing generated and
published, a CSV import confirmed, all at once. It prints per kind of request the count
and p50/p95/max in ms, then the 5xx and 503 answers, writes refused (any answer but the
redirect of a saved form), devices that stopped, and the problems the database shows
afterwards (tests.evening.check_evening: lost, doubled or half-written writes, history,
round statuses).

Target on a 2-core machine: 0 errors, and the move save p95 under 250 ms with 10 devices
and 2 workers. Timings on a shared machine are noisy.

    .venv/bin/python benchmarks/evening.py [--workers 2 4] [--database sqlite postgresql]

Every server and database it makes, it removes.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import Server, free_port, machine_speed  # noqa: E402
from tests.evening import Evening, EveningRun, Write, request_kind, run_evening  # noqa: E402

SCRATCH = "bordpunt_bench_evening"
POSTGRES_DEFAULT = "postgres://bordpunt:bordpunt@127.0.0.1:5432/postgres"


# --- in a child process, with the server's settings --------------------------------------


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def _prepare_child(prefix: str) -> dict[str, Any]:
    _django()
    from django.core.management import call_command

    from tests.evening import history_baseline, prepare_evening, round_statuses

    call_command("migrate", verbosity=0, interactive=False)
    evening = prepare_evening(prefix=prefix)
    return {
        "evening": asdict(evening),
        "history_after": history_baseline(),
        "statuses": round_statuses(evening.club),
    }


def _check_child(payload: dict[str, Any]) -> dict[str, Any]:
    _django()
    from tests.evening import check_evening, cut_off_written

    evening = Evening(**payload["evening"])
    writes = [Write(**write) for write in payload["writes"]]
    problems = check_evening(
        evening,
        writes,
        history_after=payload["history_after"],
        statuses_before=payload["statuses"],
    )
    return {
        "problems": [[problem.category, problem.text] for problem in problems],
        "cut_off": dict(cut_off_written(evening, writes)),
    }


# --- in this process -------------------------------------------------------------------


def server_env(database_url: str, folder: Path, port: int, workers: int) -> dict[str, str]:
    """The environment of `make serve` on `port`, debug off, a throwaway secret key."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))},
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "DJANGO_STATIC_ROOT": str(folder / "static"),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": str(workers),
    }


def child(env: dict[str, str], command: str, argument: str = "", stdin: str = "") -> Any:
    """Run this script's `--prepare`/`--check` with `env`; its JSON answer."""
    done = subprocess.run(
        [sys.executable, __file__, command, argument],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{command} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def prepare(env: dict[str, str], prefix: str) -> tuple[Evening, dict[str, Any]]:
    prepared = child(env, "--prepare", prefix)
    return Evening(**prepared["evening"]), prepared


def check(env: dict[str, str], prepared: dict[str, Any], writes: list[Write]) -> dict[str, Any]:
    """The database after the evening: "problems" ([category, text]) and, of the writes
    without an answer, how many were "written" and "not written" ("cut_off")."""
    payload = {**prepared, "writes": [asdict(write) for write in writes]}
    return child(env, "--check", stdin=json.dumps(payload))


def postgres_scratch(name: str = SCRATCH):
    """A fresh PostgreSQL database and a function that drops it; None when PostgreSQL
    cannot be reached (the reason printed)."""
    import psycopg

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        url = POSTGRES_DEFAULT
    parts = urllib.parse.urlsplit(url)
    try:
        admin = psycopg.connect(
            urllib.parse.urlunsplit(parts._replace(path="/postgres")),
            autocommit=True,
            connect_timeout=3,
        )
    except psycopg.OperationalError as error:
        print(f"\nPostgreSQL not reachable ({str(error).strip()[:120]}): skipped")
        return None
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    return urllib.parse.urlunsplit(parts._replace(path=f"/{name}")), drop


def percentile(values: list[float], share: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def report(label: str, run: EveningRun, problems: list[list[str]], speeds: list[float]) -> None:
    times: dict[str, list[float]] = defaultdict(list)
    for method, path, _status, took in run.requests():
        times[request_kind(method, path)].append(took * 1000)
    print(
        f"\n{label}: the evening in {run.seconds:.1f} s after the logins (this machine's speed "
        f"before and after: {speeds[0]:.0f} and {speeds[1]:.0f} ms for "
        "benchmarks.load.machine_speed's loop)"
    )
    print(f"{'request':28} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for kind in sorted(times, key=lambda kind: -len(times[kind])):
        values = times[kind]
        print(
            f"{kind:28} {len(values):>6} {percentile(values, 0.5):>8.0f} "
            f"{percentile(values, 0.95):>8.0f} {max(values):>8.0f}"
        )
    statuses = [status for _m, _p, status, _s in run.requests()]
    refused = [w for w in run.writes if not w.acknowledged]
    print(
        f"5xx: {sum(s >= 500 for s in statuses)}  503: {statuses.count(503)}  "
        f"writes refused: {len(refused)}  devices stopped: {len(run.failures)}  "
        f"problems in the database: {len(problems)}"
    )
    for line in [f"{w.actor} {w.kind}: HTTP {w.status}" for w in refused[:5]] + run.failures[:5]:
        print(f"  {line[:160]}")
    for category, text in problems[:10]:
        print(f"  {category}: {text[:150]}")


def server_errors(log: Path) -> list[str]:
    """What the server logged as errors, one line per kind."""
    lines = log.read_text(errors="replace").splitlines()
    kinds = {line.strip()[:160] for line in lines if "Error" in line or "deadlock" in line}
    return sorted(kinds)[:5]


def measure(label: str, database_url: str, workers: list[int], folder: Path) -> None:
    for count in workers:
        port = free_port()
        env = server_env(database_url, folder, port, count)
        evening, prepared = prepare(env, prefix=f"w{count}-")
        log = folder / f"server-{count}.log"
        server = Server(env, port, log)
        try:
            server.wait_ready()
            speeds = [machine_speed()]
            run = run_evening(f"http://127.0.0.1:{port}", evening, timeout=120)
            speeds.append(machine_speed())
        finally:
            server.stop()
        problems = check(env, prepared, run.writes)["problems"]
        report(f"{label}, gunicorn {count} workers", run, problems, speeds)
        for line in server_errors(log):
            print(f"  server: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 4])
    parser.add_argument(
        "--database", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"]
    )
    parser.add_argument("--prepare", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    args, _rest = parser.parse_known_args()
    if args.prepare is not None:
        print(json.dumps(_prepare_child(args.prepare)))
        return
    if args.check:
        print(json.dumps(_check_child(json.loads(sys.stdin.read()))))
        return
    folder = Path(tempfile.mkdtemp(prefix="bordpunt-evening-"))
    try:
        if "sqlite" in args.database:
            measure("SQLite", f"sqlite:///{folder / 'db.sqlite3'}", args.workers, folder)
        if "postgresql" in args.database:
            scratch = postgres_scratch()
            if scratch is not None:
                url, drop = scratch
                try:
                    measure("PostgreSQL", url, args.workers, folder)
                finally:
                    drop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
