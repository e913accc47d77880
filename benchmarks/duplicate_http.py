"""Benchmark: 160 players hand in a duplicate turn's slips at once, over HTTP, under the
production server (issue 22: every slip scored, p95 under 500 ms).

Run as ``.venv/bin/python benchmarks/duplicate_http.py [--players 160] [--workers 2]
[--turns 5]``; prints figures, asserts nothing. On a fresh temporary SQLite file it
migrates and makes a duplicate competition of N players with accounts and an evening whose
first two turns are on the board, starts ``python -m config.serve`` (gunicorn, debug off)
and logs every phone in. Then, turn after turn, as at a real evening: every phone opens its
slip page for the turn, all phones post their slip at the same moment (a fresh connection
each, all opened at once from one thread; the posts written beforehand and sent over plain
non-blocking sockets, so that this process leaves the two cores to the server), and the
spelleider puts the top on the board and the app draws the next rack. What the phones
write differs per turn: plays the engine finds on that rack (the top among them), and the
rack laid on the centre square, taken since the first turn (0, with the reason).
It prints p50/p95/max of the post per turn and over all turns (one room's figure swings
by a quarter from run to run on a shared machine: the turns together say more), the
answers that were not the page with the slip in (the phone posts as htmx does, and gets
its page back in the same answer), and the slips in the database afterwards, each scored
by the engine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.evening import server_env  # noqa: E402
from benchmarks.load import Server, free_port, machine_speed  # noqa: E402
from tests.live import SCREEN_HEADERS, Device  # noqa: E402

PASSWORD = "geheim-genoeg-123"
#: Where the app's draws start: the same racks on every run.
DRAW_SEED = 22


def _writings(game) -> list[str]:
    """What the phones write on the rack drawn: plays the engine finds, best first (the
    top, and lower ones), and one that scores 0: on the centre square, taken already."""
    plays = sorted(game.generator.plays(game.game, game.rack), reverse=True)
    chosen = [plays[n * len(plays) // 4] for n in range(4)] if plays else []
    written = [f"{play.notation.split(' ')[0]} {play.word}" for play in chosen]
    return [*written, f"8H {game.rack.replace('?', 'e')}"]


def _child(command: str, players: int = 0) -> None:
    """In a child with the server's environment: `--prepare` the evening, `--advance` to
    the next turn, or `--count`."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command

    from clubs.models import Club, Player
    from duplicate.models import DuplicateCompetition, Evening, Participant, Slip
    from duplicate.replay import master_game
    from duplicate.services.evenings import evening_create
    from duplicate.services.turns import turn_choose_top, turn_draw

    if command == "--advance":
        evening = Evening.objects.get()
        turn_choose_top(turn=evening.turns.order_by("number").last(), by=None)
        turn = turn_draw(evening=evening, by=None, rng=random.Random(DRAW_SEED + players))
        print(json.dumps({"turn": turn.number, "writings": _writings(master_game(evening))}))
        return
    if command == "--count":
        slips = Slip.objects.filter(turn__number__gte=3)
        reasons = sorted(set(slips.values_list("reason_code", flat=True)))
        print(
            json.dumps(
                {
                    "slips": slips.count(),
                    "scored": slips.filter(score__gt=0).count(),
                    "reasons": reasons,
                }
            )
        )
        return
    call_command("migrate", verbosity=0, interactive=False)
    club = Club.objects.create(name="Bench", slug="bench")
    competition = DuplicateCompetition.objects.create(
        club=club, name="Duplicate", slug="duplicate", rules=DuplicateCompetition.Rules.STANDARD
    )
    hashed = make_password(PASSWORD)  # once: 160 hashes would take a minute
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"speler{n:03d}", password=hashed) for n in range(players)
    )
    people = Player.objects.bulk_create(
        Player(name=f"Speler {n:03d}", user=user) for n, user in enumerate(users)
    )
    Participant.objects.bulk_create(Participant(competition=competition, player=p) for p in people)
    evening = evening_create(competition=competition, number=1, by=None)
    for tiles in ("KAAS?EN", "TWOORDA"):
        turn_choose_top(turn=turn_draw(evening=evening, tiles=tiles, by=None), by=None)
    turn_draw(evening=evening, tiles="EIGLMPU", by=None)
    print(
        json.dumps(
            {
                "usernames": [user.username for user in users],
                "writings": _writings(master_game(evening)),
            }
        )
    )


def child(env: dict[str, str], *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _written_post(phone: Device, path: str, fields: dict[str, str]) -> bytes:
    """The phone's post as bytes, as its browser sends it (htmx, the session's cookies and
    CSRF token): written before the moment, as a phone has its slip typed before sending."""
    headers, body = phone.prepared(fields, headers=SCREEN_HEADERS)
    headers |= {
        "Host": urllib.parse.urlsplit(phone.base_url).netloc,
        "Content-Length": str(len(body)),
        "Connection": "close",
    }
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"POST {path} HTTP/1.1\r\n{head}\r\n".encode() + body


def _room(phones, slip_page: str, turn: int, writings: list[str]):
    """Every phone posts its slip for `turn` at the same moment: (status, seconds) each
    (the status negative when the answer is not the page with the slip in), the whole
    room's time, and the CPU time this measuring process took meanwhile. The posts are
    written beforehand and go out from one thread over plain non-blocking sockets, all
    connections opened at once: this machine's two cores are the server's, and a thread
    or a full HTTP client per phone would take a share of them that phones do not."""
    parts = urllib.parse.urlsplit(phones[0].base_url)
    address = (parts.hostname, parts.port)
    posts = [
        _written_post(
            phone,
            slip_page,
            {"turn": str(turn), "text": writings[n % len(writings)], "claimed": ""},
        )
        for n, phone in enumerate(phones)
    ]
    selector = selectors.DefaultSelector()
    pending: dict[socket.socket, list] = {}
    start, cpu = time.perf_counter(), time.process_time()
    for post in posts:
        connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        connection.setblocking(False)
        connection.connect_ex(address)
        # [the post still to send, the answer's chunks, when it went out]
        pending[connection] = [memoryview(post), [], time.perf_counter()]
        selector.register(connection, selectors.EVENT_WRITE)
    answers: list[tuple[int, float]] = []
    deadline = start + 120
    while pending and time.perf_counter() < deadline:
        for key, events in selector.select(timeout=1):
            connection = key.fileobj
            unsent, chunks, sent_at = pending[connection]
            if events & selectors.EVENT_WRITE:
                try:
                    unsent = unsent[connection.send(unsent) :]
                except OSError:
                    unsent = memoryview(b"")
                    chunks.append(b"")
                pending[connection][0] = unsent
                if not unsent:
                    selector.modify(connection, selectors.EVENT_READ)
                continue
            try:
                chunk = connection.recv(65536)
            except OSError:
                chunk = b""
            if chunk:
                chunks.append(chunk)
                continue
            seconds = time.perf_counter() - sent_at
            selector.unregister(connection)
            connection.close()
            del pending[connection]
            answer = b"".join(chunks)
            status_line = answer.split(b"\r\n", 1)[0].split()
            status = int(status_line[1]) if len(status_line) > 1 else 0
            saved = status == 200 and b'id="slip-sent"' in answer
            answers.append((status if saved else -status, seconds))
    for connection in pending:  # no answer in two minutes: counted as not saved
        answers.append((0, time.perf_counter() - start))
        connection.close()
    selector.close()
    return answers, time.perf_counter() - start, time.process_time() - cpu


def workers_cpu(master: int) -> float:
    """CPU seconds the server's workers (the children of gunicorn's `master`) have used so
    far, from Linux's /proc; 0 where there is none. Per slip it is what the room costs the
    two cores, whatever else the machine is doing meanwhile."""
    ticks = 0
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == master:  # ppid; then utime and stime, in clock ticks
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in ("--prepare", "--advance", "--count"):
        _child(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--turns", type=int, default=5)
    args = parser.parse_args()
    speed = machine_speed()
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        port = free_port()
        env = server_env(f"sqlite:///{folder}/bench.sqlite3", folder, port, args.workers)
        prepared = child(env, "--prepare", str(args.players))
        usernames, writings = prepared["usernames"], prepared["writings"]
        server = Server(env, port, folder / "server.log")
        rooms: list[tuple[int, list[tuple[int, float]], float, float, float]] = []
        try:
            server.wait_ready()
            base = f"http://127.0.0.1:{port}"
            slip_page = "/bench/duplicate/duplicate/1/briefje/"
            phones = []
            for username in usernames:
                phone = Device(base, timeout=120)
                phone.log_in(username, PASSWORD)
                phones.append(phone)
            turn = 3
            for number in range(args.turns):
                if number:
                    advanced = child(env, "--advance", str(number))
                    turn, writings = advanced["turn"], advanced["writings"]
                for phone in phones:
                    phone.get(slip_page)
                cpu = workers_cpu(server.process.pid)
                answers, room, client_cpu = _room(phones, slip_page, turn, writings)
                server_cpu = workers_cpu(server.process.pid) - cpu
                rooms.append((turn, answers, room, client_cpu, server_cpu))
        finally:
            server.stop()
        counted = child(env, "--count")
    everything: list[float] = []
    refused: list[int] = []
    print(
        f"{len(usernames)} phones, gunicorn {args.workers} workers, sqlite, one slip's post "
        f"(this machine's speed before and after: {speed:.0f} and {machine_speed():.0f} ms "
        "for benchmarks.load.machine_speed's loop):"
    )
    for turn, answers, room, client_cpu, server_cpu in rooms:
        times = [seconds * 1000 for _status, seconds in answers]
        everything += times
        refused += [status for status, _seconds in answers if status != 200]
        print(
            f"  turn {turn}: median {statistics.median(times):.0f} ms, "
            f"p95 {percentile(times, 0.95):.0f} ms, max {max(times):.0f} ms; "
            f"the whole room {room:.2f} s; the server's CPU "
            f"{server_cpu * 1000 / len(answers):.1f} ms a slip "
            f"(the phones' side: {client_cpu * 1000:.0f} ms CPU in all)"
        )
    print(
        f"  all {len(rooms)} turns: median {statistics.median(everything):.0f} ms, "
        f"p95 {percentile(everything, 0.95):.0f} ms, max {max(everything):.0f} ms; "
        f"{len(refused)} not saved {sorted(set(refused))}; "
        f"{counted['slips']} slips in the database, {counted['scored']} scoring more than 0 "
        f"(the zeros' reasons: {', '.join(r for r in counted['reasons'] if r)})"
    )


if __name__ == "__main__":
    main()
