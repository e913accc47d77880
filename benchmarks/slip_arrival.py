"""Benchmark: 150 phones hand in a duplicate turn's slips in its last second, through nginx
and 2 app servers x 2 gunicorn workers (issue 50, point 2: no slip sent in time marked late).

Starts the hosted stack (tests/hosted_stack.py: nginx with deploy/nginx's locations, two
app servers, one fresh PostgreSQL database, Redis), makes a duplicate evening of N players
with their sessions (no N password hashes) and an open turn, has every phone open its slip
page, then moves the turn's draw so that its time runs out `--lead` seconds later. Each
phone posts its slip (as htmx does, its own connection from another loopback address than
nginx's) at its own moment, spread evenly over the last second before the deadline, from
one thread over non-blocking sockets (so that the phones leave the two cores to the
stack). Prints how many slips sent before the deadline were marked late, the answers'
p50/p95 as the phones waited, and the queue's p50/p95: the time between nginx taking the
request and an app server's process seeing it (the `Server-Timing: queue` the servers
answer with, clubs/timing.py), with the machine's load.

    .venv/bin/python benchmarks/slip_arrival.py [--phones 150] [--before main]

``--before REV`` runs the app servers on that revision's code (``git archive`` into a
temporary folder; nginx keeps this checkout's locations, so it sends its request start,
which a release before issue 50 ignores): the figure before the change. Needs nginx,
redis-server and PostgreSQL (as benchmarks/hosted.py). Bounded: every wait has a limit,
about a minute in all.
"""

from __future__ import annotations

import argparse
import json
import os
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

from benchmarks.duplicate_http import _written_post, percentile  # noqa: E402
from tests.hosted_stack import CLIENT, Stack, missing  # noqa: E402
from tests.live import Device  # noqa: E402

SLIP_PAGE = "/bench/duplicate/duplicate/1/briefje/"


def prepare(phones: int) -> None:
    """In a child with the app servers' environment: the evening, its open turn, the
    players' sessions; printed as JSON."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password

    from benchmarks.duplicate_http import _writings
    from clubs.models import Club, Player
    from duplicate.models import DuplicateCompetition, Participant
    from duplicate.replay import master_game
    from duplicate.services.evenings import evening_create
    from duplicate.services.turns import turn_draw

    club = Club.objects.create(name="Bench", slug="bench")
    competition = DuplicateCompetition.objects.create(
        club=club, name="Duplicate", slug="duplicate", rules=DuplicateCompetition.Rules.STANDARD
    )
    hashed = make_password("geheim-genoeg-123")  # once: the phones get sessions, not logins
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"speler{n:03d}", password=hashed) for n in range(phones)
    )
    people = Player.objects.bulk_create(
        Player(name=f"Speler {n:03d}", user=user) for n, user in enumerate(users)
    )
    Participant.objects.bulk_create(Participant(competition=competition, player=p) for p in people)
    evening = evening_create(competition=competition, number=1, by=None)
    turn_draw(evening=evening, tiles="KAAS?EN", by=None)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    sessions = {}
    for user in users:
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        sessions[user.username] = session.session_key
    print(
        json.dumps(
            {
                "cookie": settings.SESSION_COOKIE_NAME,
                "sessions": sessions,
                "writings": _writings(master_game(evening)),
            }
        )
    )


def hand_in(posts: list[tuple[float, str, bytes]], address: tuple[str, int]) -> dict[str, dict]:
    """Each post sent at its own moment (`time.time()`, ascending): per username, when it
    went out, the answer's status (negative when not the page with the slip in), the
    seconds the phone waited, and the queue the server answered with (ms, or None)."""
    selector = selectors.DefaultSelector()
    pending: dict[socket.socket, list] = {}
    done: dict[str, dict] = {}
    waiting = list(posts)
    give_up = time.monotonic() + 60
    while (waiting or pending) and time.monotonic() < give_up:
        while waiting and waiting[0][0] <= time.time():
            _at, username, post = waiting.pop(0)
            connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            connection.bind((CLIENT, 0))  # not nginx's address: a visitor's
            connection.setblocking(False)
            sent = time.time()
            connection.connect_ex(address)
            pending[connection] = [memoryview(post), [], sent, username]
            selector.register(connection, selectors.EVENT_WRITE)
        wait = 0.05 if not waiting else max(0.0, min(0.05, waiting[0][0] - time.time()))
        for key, events in selector.select(timeout=wait):
            connection = key.fileobj
            unsent, chunks, sent, username = pending[connection]
            if events & selectors.EVENT_WRITE:
                try:
                    unsent = unsent[connection.send(unsent) :]
                except OSError:
                    unsent = memoryview(b"")
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
            selector.unregister(connection)
            connection.close()
            del pending[connection]
            done[username] = _answer(b"".join(chunks), sent)
    for connection, (_unsent, _chunks, sent, username) in pending.items():
        done[username] = {"sent": sent, "status": 0, "seconds": time.time() - sent, "queue": None}
        connection.close()
    selector.close()
    return done


def _answer(answer: bytes, sent: float) -> dict:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status_line = head[0].split()
    status = int(status_line[1]) if len(status_line) > 1 else 0
    queue = None
    for line in head[1:]:
        name, _colon, value = line.partition(":")
        if name.strip().lower() == "server-timing" and "queue;dur=" in value:
            queue = float(value.split("queue;dur=", 1)[1].split(";")[0].split(",")[0])
    saved = status == 200 and b'id="slip-sent"' in answer
    return {
        "sent": sent,
        "status": status if saved else -status,
        "seconds": time.time() - sent,
        "queue": queue,
    }


def run(phones: int, lead: float, code: Path, label: str) -> None:
    with (
        tempfile.TemporaryDirectory() as folder_name,
        Stack(Path(folder_name), servers=2, workers=2, code=code) as stack,
    ):
        done = subprocess.run(
            [sys.executable, __file__, "--prepare", str(phones)],
            cwd=ROOT,
            env=stack.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            raise SystemExit(done.stderr[-3000:])
        prepared = json.loads(done.stdout.strip().splitlines()[-1])
        devices = {}
        for username, key in prepared["sessions"].items():
            device = Device(stack.proxy_url, source_address=CLIENT, timeout=30)
            device.cookies[prepared["cookie"]] = key
            if device.get(SLIP_PAGE).status != 200:  # and its CSRF cookie
                raise SystemExit(f"{username}'s slip page did not open:\n{stack.logs()}")
            devices[username] = device
        writings = prepared["writings"]
        # The turn's time runs out `lead` s from now (one machine: the database's
        # clock is this one's); every phone sends in the last second before it.
        deadline = time.time() + lead
        stack.database.query(
            "UPDATE duplicate_turn SET drawn_at = to_timestamp(%s) - seconds * interval "
            "'1 second', added_seconds = 0 RETURNING id",
            (deadline,),
        )
        posts = sorted(
            (
                deadline - 1 + (n + 0.5) / len(devices),
                username,
                _written_post(
                    device,
                    SLIP_PAGE,
                    {"turn": "1", "text": writings[n % len(writings)], "claimed": ""},
                ),
            )
            for n, (username, device) in enumerate(devices.items())
        )
        load_before = os.getloadavg()[0]
        parts = urllib.parse.urlsplit(stack.proxy_url)
        answers = hand_in(posts, (parts.hostname or "127.0.0.1", parts.port or 80))
        load_after = os.getloadavg()[0]
        late = {
            username
            for (username,) in stack.database.query(
                "SELECT u.username FROM duplicate_slip s "
                "JOIN clubs_player p ON p.id = s.player_id "
                "JOIN auth_user u ON u.id = p.user_id WHERE s.late"
            )
        }
    in_time = [name for name, answer in answers.items() if answer["sent"] <= deadline]
    waited = [answer["seconds"] * 1000 for answer in answers.values()]
    queues = [answer["queue"] for answer in answers.values() if answer["queue"] is not None]
    refused = sorted(answer["status"] for answer in answers.values() if answer["status"] != 200)
    print(
        f"{len(answers)} phones through nginx, 2 app servers x 2 gunicorn workers, PostgreSQL; "
        f"code: {label}"
    )
    print(
        f"  sent before the deadline: {len(in_time)}; of those marked late: "
        f"{sum(name in late for name in in_time)} (late in all: {len(late)}); "
        f"not saved: {len(refused)} {sorted(set(refused))}"
    )
    print(
        f"  the phone's wait: median {statistics.median(waited):.0f} ms, "
        f"p95 {percentile(waited, 0.95):.0f} ms, max {max(waited):.0f} ms"
    )
    if queues:
        print(
            f"  the queue (nginx's start to the app's first sight): median "
            f"{statistics.median(queues):.0f} ms, p95 {percentile(queues, 0.95):.0f} ms, "
            f"max {max(queues):.0f} ms"
        )
    else:
        print("  the queue: not measured (these app servers answer no Server-Timing)")
    print(f"  the machine's load (1 min): {load_before:.1f} before, {load_after:.1f} after")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--prepare":
        prepare(int(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=150)
    parser.add_argument("--lead", type=float, default=3.0, help="seconds to the deadline")
    parser.add_argument("--before", default=None, help="a revision whose code the servers run")
    args = parser.parse_args()
    reason = missing()
    if reason is not None:
        raise SystemExit(reason)
    if args.before is None:
        run(args.phones, args.lead, ROOT, "this checkout")
        return
    with tempfile.TemporaryDirectory() as code:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.before], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", code], input=archive.stdout, check=True)
        run(args.phones, args.lead, Path(code), args.before)


if __name__ == "__main__":
    main()
