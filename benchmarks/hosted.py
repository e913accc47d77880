"""The hosted service under a Thursday evening's load: 20 clubs' evenings at once.

Starts the hosted stack on this machine (tests/hosted_stack.py: nginx in front of two app
servers, `python -m config.serve` with gunicorn, debug off, one fresh PostgreSQL database
and one Redis) and drives it through nginx, with tests/live.py's devices, from threads:

- per club 8 boards, each a device entering a demo game move by move, as the board
  screen does (a save every `--move-seconds`, jittered);
- per club the secretary typing the round's other 8 results on the results page, one
  table per save (the page read, a row typed, saved), every `--result-seconds`;
- 500 spectators, spread over the clubs: each follows the club's room screen (its panels,
  asked every 15 s as the screen's htmx does, with the ETag the browser keeps) and
  reloads the standings every `--standings-seconds` (likewise conditional).

Then prints, per kind of request, the count, p50 and p95 in ms, the errors (a 5xx, a
refused save, no answer), and the requests per second; and the machine's load before and
after (2 shared cores: everything here, the client included, runs on them).
Targets: 0 errors, p95 under 250 ms for a move save and under 150 ms for a public page.

    .venv/bin/python benchmarks/hosted.py [--seconds 120] [--clubs 20] [--spectators 500]

Needs nginx, redis-server and PostgreSQL (BORDPUNT_POSTGRES_URL or DATABASE_URL, else
the role .ci/run creates): the stack creates and drops a database of its own.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hosted_stack import CLIENT, PASSWORD, Stack, missing  # noqa: E402
from tests.live import Device, demo_scoresheets, form_values  # noqa: E402

#: The kinds that are public pages (the 150 ms target) and the move save (250 ms).
PUBLIC = ("standings", "standings 304", "screen panels", "screen panels 304")
MOVE = "move save"


class Recorder:
    """Every request's kind, seconds and whether it failed; thread-safe."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.examples: list[str] = []
        self.measuring = False

    def record(self, kind: str, seconds: float, ok: bool, what: str = "") -> None:
        if not self.measuring:
            return
        with self.lock:
            self.times[kind].append(seconds)
            if not ok:
                self.errors[kind] += 1
                if len(self.examples) < 10:
                    self.examples.append(f"{kind}: {what}")

    def timed(self, kind: str, call, ok=lambda reply: reply.status < 400):
        start = time.perf_counter()
        try:
            reply = call()
        except OSError as error:
            self.record(kind, time.perf_counter() - start, False, repr(error))
            return None
        good = ok(reply)
        self.record(kind, time.perf_counter() - start, good, f"HTTP {reply.status}")
        return reply


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def board(device: Device, game_id: int, sheet, pace: float, stop: threading.Event, rec) -> None:
    if stop.wait(random.uniform(0, pace)):  # the boards start one by one, not at once
        return
    reply = rec.timed("board read", lambda: device.get(f"/partij/{game_id}/bord/"))
    version = reply.version if reply is not None else None
    for notation, rack in sheet.moves:
        if stop.wait(random.uniform(0.5, 1.5) * pace) or version is None:
            return
        reply = rec.timed(
            MOVE,
            lambda n=notation, r=rack, v=version: device.save_move(
                game_id, n, r, version=v, screen=True
            ),
            ok=lambda reply: reply.saved and reply.version is not None,
        )
        version = reply.version if reply is not None else None


def secretary(
    device: Device, club: dict, pace: float, stop: threading.Event, rec: Recorder
) -> None:
    url = f"{club['competition']}beheer/ronde/{club['round']}/uitslagen/"
    paper = club["paper"]
    for typed in range(len(paper)):
        if stop.wait(random.uniform(0.5, 1.5) * pace):
            return
        page = rec.timed("results page", lambda: device.get(url))
        if page is None or page.status != 200:
            continue
        data = form_values(page.body, "results-form")
        for index in range(len(paper)):
            if int(data.get(f"form-{index}-game", 0)) == paper[typed]:
                data |= {
                    f"form-{index}-score_a": str(380 + typed),
                    f"form-{index}-score_b": str(330 - typed),
                    f"form-{index}-kind": "normal",
                }
        rec.timed("results save", lambda data=data: device.post(url, data))


def spectator(base: str, club: dict, screen_pace: float, standings_pace: float, stop, rec) -> None:
    device = Device(base)
    competition = club["competition"]
    panels = f"{competition}scherm/panelen/"
    tags: dict[str, str] = {}

    def follow(path: str, kind: str) -> None:
        headers = {"If-None-Match": tags[path]} if path in tags else {}
        name = f"{kind} 304" if path in tags else kind
        start = time.perf_counter()
        try:
            reply = device.request("GET", path, headers=headers)
        except OSError as error:
            rec.record(name, time.perf_counter() - start, False, repr(error))
            return
        if reply.status == 200:
            name = kind  # a change since the last visit: the whole page
            tags[path] = reply.headers.get("ETag", "")
            if not tags[path]:
                del tags[path]
        rec.record(name, time.perf_counter() - start, reply.status in (200, 304), str(reply.status))

    # Arrive at a random moment of the first interval, not all at once.
    if stop.wait(random.uniform(0, screen_pace)):
        return
    follow(competition, "standings")
    next_standings = time.monotonic() + standings_pace
    while not stop.wait(screen_pace):
        follow(panels, "screen panels")
        if time.monotonic() >= next_standings:
            follow(competition, "standings")
            next_standings += standings_pace


def cpu_seconds(roots: list[int]) -> float:
    """The CPU time (user and system) of these processes and all their descendants, alive."""
    ticks = os.sysconf("SC_CLK_TCK")
    parent, used = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks

    def under(pid: int) -> bool:
        while pid > 1:
            if pid in roots:
                return True
            pid = parent.get(pid, 0)
        return False

    return sum(seconds for pid, seconds in used.items() if under(pid))


def postgres_seconds() -> float:
    """The CPU time of every PostgreSQL process (the stack's database is the busy one)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().startswith("postgres"):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / ticks
        except OSError:
            continue
    return total


def machine_speed() -> float:
    """ms for a fixed loop (95 on the quiet 2-core machine of docs/duplicate.md)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number * number
        best = min(best, time.perf_counter() - start)
    return best * 1000 * 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=120, help="measured, after the start")
    parser.add_argument("--clubs", type=int, default=20)
    parser.add_argument("--boards", type=int, default=8, help="per club")
    parser.add_argument("--paper", type=int, default=8, help="results typed, per club")
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--move-seconds", type=float, default=30, help="between a board's saves")
    parser.add_argument("--result-seconds", type=float, default=15, help="between typed rows")
    parser.add_argument("--screen-seconds", type=float, default=15, help="the screen's poll")
    parser.add_argument("--standings-seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    args = parser.parse_args()
    reason = missing()
    if reason:
        # Skipped on a machine without them (`make benchmarks` goes on); in CI, a failure.
        print(f"benchmarks/hosted.py skipped: {reason}")
        raise SystemExit(1 if os.environ.get("CI", "").lower() == "true" else 0)

    print(f"load before: {os.getloadavg()[0]:.2f}; machine speed {machine_speed():.0f} ms")
    with tempfile.TemporaryDirectory(prefix="bordpunt-hosted-") as folder:
        started = time.monotonic()
        with Stack(Path(folder), servers=2, workers=args.workers, nginx_workers=1) as stack:
            clubs = stack.seed(clubs=args.clubs, boards=args.boards, paper=args.paper)
            print(
                f"stack up and {args.clubs} clubs seeded in {time.monotonic() - started:.0f} s: "
                f"nginx, 2 app servers x {args.workers} workers, PostgreSQL, Redis"
            )
            run(stack, clubs, args)
            print(f"load after: {os.getloadavg()[0]:.2f}; machine speed {machine_speed():.0f} ms")


def run(stack: Stack, clubs: list[dict], args) -> None:
    rec = Recorder()
    stop = threading.Event()
    sheets = demo_scoresheets()
    by_name = {sheet.name: sheet for sheet in sheets}
    base = stack.proxy_url
    threads = []
    for club in clubs:
        # One login per club, its cookies on the club's tablets (a login is a password
        # hash: 180 of them would only measure the start).
        login = Device(base, source_address=CLIENT)
        login.log_in(club["secretary"], PASSWORD)
        for game_id, name in zip(club["games"], club["sheets"], strict=True):
            device = Device(base, cookies=dict(login.cookies), source_address=CLIENT)
            threads.append(
                threading.Thread(
                    target=board,
                    args=(device, game_id, by_name[name], args.move_seconds, stop, rec),
                )
            )
        office = Device(base, cookies=dict(login.cookies), source_address=CLIENT)
        threads.append(
            threading.Thread(target=secretary, args=(office, club, args.result_seconds, stop, rec))
        )
    for number in range(args.spectators):
        club = clubs[number % len(clubs)]
        threads.append(
            threading.Thread(
                target=spectator,
                args=(base, club, args.screen_seconds, args.standings_seconds, stop, rec),
            )
        )
    processes = {
        "app servers": [server.process.pid for server in stack.servers],
        "nginx": [stack.nginx.process.pid],
        "redis": [stack.redis.process.pid],
    }
    cpu_before = {name: cpu_seconds(pids) for name, pids in processes.items()}
    cpu_before["postgres (all)"] = postgres_seconds()
    client_before = sum(os.times()[:2])
    rec.measuring = True
    start = time.monotonic()
    for thread in threads:
        thread.daemon = True
        thread.start()
    stop.wait(args.seconds)
    stop.set()
    for thread in threads:
        thread.join(70)
    elapsed = time.monotonic() - start
    used = {name: cpu_seconds(pids) - cpu_before[name] for name, pids in processes.items()}
    used["postgres (all)"] = postgres_seconds() - cpu_before["postgres (all)"]
    used["this client"] = sum(os.times()[:2]) - client_before
    report(rec, elapsed, args)
    print(f"CPU seconds used meanwhile (2 cores: at most {2 * elapsed:.0f}):")
    for name, seconds in used.items():
        print(f"  {name:<16} {seconds:>7.1f}")
    service_times(stack, clubs)
    server_errors = [
        line
        for server in stack.servers
        for line in server.log.read_text().splitlines()
        if "Traceback" in line or " 500 " in line or "ERROR" in line
    ]
    print(f"server log lines with errors: {len(server_errors)}")
    for line in server_errors[:5]:
        print(f"  {line[:160]}")


def service_times(stack: Stack, clubs: list[dict]) -> None:
    """Each kind alone, one request at a time, after the load: what one costs."""
    club = clubs[0]
    login = Device(stack.proxy_url, source_address=CLIENT)
    login.log_in(club["secretary"], PASSWORD)
    competition = club["competition"]
    panels = f"{competition}scherm/panelen/"
    anonymous = Device(stack.proxy_url)
    anonymous.get(competition)  # the CSRF cookie: the standings' ETag
    tag = anonymous.get(competition).headers.get("ETag", "")
    kinds = {
        "standings": lambda: Device(stack.proxy_url).get(competition),
        "standings 304": lambda: anonymous.request(
            "GET", competition, headers={"If-None-Match": tag}
        ),
        "screen panels (kept)": lambda: Device(stack.proxy_url).get(panels),
        "board read": lambda: login.get(f"/partij/{club['games'][0]}/bord/"),
        "results page": lambda: login.get(f"{competition}beheer/ronde/{club['round']}/uitslagen/"),
    }
    print("one at a time, after the load (p50 ms of 20):")
    for kind, call in kinds.items():
        times = []
        for _ in range(20):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        print(f"  {kind:<22} {percentile(times, 0.5):>6.0f}")


def report(rec: Recorder, elapsed: float, args) -> None:
    total = sum(len(times) for times in rec.times.values())
    errors = sum(rec.errors.values())
    print(
        f"\n{args.clubs} clubs x ({args.boards} boards + a secretary typing {args.paper} "
        f"results) + {args.spectators} spectators, {elapsed:.0f} s"
    )
    print(f"{'request':<20} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7} {'target':>8}")
    for kind in sorted(rec.times):
        times = rec.times[kind]
        target = "250" if kind == MOVE else "150" if kind in PUBLIC else ""
        print(
            f"{kind:<20} {len(times):>7} {percentile(times, 0.5):>8.0f} "
            f"{percentile(times, 0.95):>8.0f} {rec.errors[kind]:>7} {target:>8}"
        )
    print(f"{'all':<20} {total:>7} {'':>8} {'':>8} {errors:>7}")
    print(f"requests per second: {total / elapsed:.1f}")
    for example in rec.examples:
        print(f"  error: {example}")


if __name__ == "__main__":
    main()
