"""Kill the server with SIGKILL in the middle of writes, start it again, and count what is
left: acknowledged writes found, missing and duplicated, and writes left half-done.

For each database (a temporary SQLite file; PostgreSQL `bordpunt_bench_faults`, created
and dropped here, when reachable: see benchmarks/evening.py for which server) and each
server (`manage.py runserver --noreload`, as `make run`; gunicorn with 2 workers through
`python -m config.serve`, as `make serve`), and for each kind of write:

- board: a move saved on the board;
- results: a results page saved, or a correction;
- import: a CSV import confirmed;
- pairing: a round added, its pairing generated or published;

`--kills` times (once by default: four kills of each kind in all), it prepares a fresh
club evening in the running server's database (tests/evening.py, each under a prefix of
its own), starts the whole busy evening (every device at once, as
tests/test_busy_evening.py), and when the n-th write of that kind is sent (n drawn from a
seeded random), waits 0-150 ms and kills the server's process group with SIGKILL: in the
middle of that write, before it, or just after its commit. The devices stop at their
first request without an answer; a write without an answer is kept as such: it may or
may not be in the database, but only whole. Then the server is
started again (it must come back: SQLite recovers its WAL, PostgreSQL has rolled back the
dead connections) and `tests.evening.check_evening` reads the database: every
acknowledged write there exactly once, nothing half-written (moves with gaps, a game with a
result but its round's status not following from its games, a results save or an import
or a pairing partly there), no change nobody was told of, a history entry for each change.

    .venv/bin/python benchmarks/faults.py [--kills 1] [--seed 17] [--database sqlite postgresql]
        [--server runserver gunicorn] [--kind board results import pairing]

Prints one line per database, server and kind. Bounded: kills x kinds x servers x
databases evenings, each device with a 30 s timeout; every server and database it made
is removed at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.devices import start_server  # noqa: E402
from benchmarks.evening import check, postgres_scratch, prepare, server_env  # noqa: E402
from benchmarks.load import Server, free_port  # noqa: E402
from tests.evening import request_kind, run_evening  # noqa: E402
from tests.live import Device, Response  # noqa: E402

SCRATCH = "bordpunt_bench_faults"
KINDS = {
    "board": ({"move save"}, 80),  # the kinds of request, and how many an evening sends
    "results": ({"results page save", "correction save"}, 10),
    "import": ({"import upload and confirm"}, 1),
    "pairing": ({"round and pairing save"}, 3),
}
CATEGORIES = ("missing", "duplicated", "half-written", "unacknowledged", "history")


class Killer:
    """Kills the server when the n-th write of the watched kinds is on its way."""

    def __init__(self, kinds: set[str], nth: int, delay: float, kill) -> None:
        self.kinds, self.nth, self.delay, self.kill = kinds, nth, delay, kill
        self.seen = 0
        self.lock = threading.Lock()
        self.fired = threading.Event()

    def sending(self, method: str, path: str, data: dict[str, str] | None) -> None:
        if method != "POST" or request_kind(method, path) not in self.kinds:
            return
        if path.endswith("/importeren/") and not (data or {}).get("confirm"):
            return  # the upload only shows a preview: the confirmation is the write
        with self.lock:
            self.seen += 1
            if self.seen != self.nth or self.fired.is_set():
                return
            self.fired.set()
        threading.Timer(self.delay, self.kill).start()

    def device(self, base_url: str, timeout: float) -> Device:
        killer = self

        class Watched(Device):
            def request(self, method, path, data=None, files=None, headers=None) -> Response:
                killer.sending(method, path, data)
                return super().request(method, path, data, files, headers)

        return Watched(base_url, timeout=min(timeout, 30.0))


class Running:
    """A server of one kind on one database, that can be killed and started again."""

    def __init__(self, kind: str, env: dict[str, str], port: int, folder: Path) -> None:
        self.kind, self.env, self.port, self.folder = kind, env, port, folder
        self.starts = 0
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.starts += 1
        log = self.folder / f"{self.kind}-{self.starts}.log"
        if self.kind == "runserver":
            env = {**self.env, "DJANGO_DEBUG": "true"}  # runserver is the development server
            self.process = start_server(env, self.port, log)
        else:
            server = Server(self.env, self.port, log)
            server.wait_ready()
            self.process = server.process

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def wave(server: Running, kind: str, number: int, rng: random.Random) -> dict[str, int]:
    """One evening with one kill; the counts of what the database shows afterwards."""
    kinds, expected = KINDS[kind]
    prefix = f"{server.kind[0]}{kind[0]}{number}-"
    evening, prepared = prepare(server.env, prefix)
    killer = Killer(kinds, rng.randint(1, expected), rng.uniform(0.0, 0.15), server.kill)
    run = run_evening(server.url, evening, timeout=60, make_device=killer.device)
    if not killer.fired.is_set():
        server.kill()  # the evening ended first: kill it anyway, between writes
    time.sleep(0.3)  # the timer's kill has happened (SIGKILL is immediate)
    server.kill()
    server.start()
    checked = check(server.env, prepared, run.writes)
    problems = checked["problems"]
    counts = Counter(category for category, _text in problems)
    acknowledged = sum(w.acknowledged for w in run.writes)
    counts["acknowledged"] = acknowledged
    counts["found"] = acknowledged - counts["missing"]
    counts["no answer"] = sum(w.status == 0 for w in run.writes)
    counts["cut off, written"] = checked["cut_off"].get("written", 0)
    counts["refused"] = sum(w.status not in (0, 302) for w in run.writes)
    for category, text in problems[:3]:
        print(f"    {prefix} {category}: {text[:140]}", flush=True)
    return counts


def run_database(label: str, url: str, args, folder: Path, rng: random.Random) -> None:
    for server_kind in args.server:
        port = free_port()
        env = server_env(url, folder, port, workers=2)
        server = Running(server_kind, env, port, folder)
        server.start()
        try:
            for kind in args.kind:
                totals: Counter = Counter()
                for number in range(args.kills):
                    totals += wave(server, kind, number, rng)
                print(
                    f"{label:10} {server_kind:9} {kind:8} {args.kills:>5} "
                    f"{totals['acknowledged']:>6} {totals['found']:>6} {totals['missing']:>7} "
                    f"{totals['duplicated']:>6} {totals['half-written']:>5} "
                    f"{totals['unacknowledged']:>7} {totals['history']:>7} "
                    f"{totals['no answer']:>6} {totals['cut off, written']:>7} "
                    f"{totals['refused']:>7}",
                    flush=True,
                )
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=1, help="kills per kind of write")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument(
        "--database", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"]
    )
    parser.add_argument(
        "--server", nargs="+", choices=["runserver", "gunicorn"], default=["runserver", "gunicorn"]
    )
    parser.add_argument("--kind", nargs="+", choices=list(KINDS), default=list(KINDS))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="bordpunt-faults-"))
    print(
        f"{'database':10} {'server':9} {'write':8} {'kills':>5} {'acked':>6} {'found':>6} "
        f"{'missing':>7} {'double':>6} {'half':>5} {'untold':>7} {'history':>7} "
        f"{'no ans':>6} {'written':>7} {'refused':>7}"
    )
    try:
        if "sqlite" in args.database:
            run_database("SQLite", f"sqlite:///{folder / 'db.sqlite3'}", args, folder, rng)
        if "postgresql" in args.database:
            scratch = postgres_scratch(SCRATCH)
            if scratch is not None:
                url, drop = scratch
                try:
                    run_database("PostgreSQL", url, args, folder, rng)
                finally:
                    drop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(
        "acked: writes answered as saved; found/missing: of those, in the database; double: "
        "written twice; half: partly written, or a round status its games contradict; "
        "untold: a change nobody was told of; history: entries too many or too few; "
        "no ans: writes cut off by the kill (there whole or not at all); written: of those, "
        "the ones in the database (killed after the commit)"
    )


if __name__ == "__main__":
    main()
