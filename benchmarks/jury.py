"""Benchmark: the jury room of an interclub (issue 43 point 3): 6 jury members type the
150 paper slips of a turn at the same time, over HTTP, under the production server on
PostgreSQL (target: p95 under 300 ms a slip).

Run as ``.venv/bin/python benchmarks/jury.py [--players 150] [--jury 6] [--turns 3]
[--workers 2] [--database postgres://...]`` (default: the local PostgreSQL database
``bordpunt_jury``, whose schema it drops and makes anew); prints figures, asserts nothing.
A child migrates and makes an event with a duplicate division of N players at tables of
10, its jury, and an evening; then ``python -m config.serve`` (gunicorn, debug off)
starts and each jury member logs in. Turn after turn, as in the room: the spelleider
draws (the app, the same racks every run) and puts the top on the board; then the six
jury members, each in a thread of its own with its own connection per request, type
their stack of paper slips (a sixth of the tables each) one after the other, all six at
once: each slip is the jury room's post (the slip scored by the engine, held on its turn)
followed, as in the browser, by the jury room page it redirects to (the missing slips per
table). The slips written are plays the engine finds on the rack (the top and lower
ones, some with a wrong score claimed) and a blank slip ("-", 0). It prints, per turn and
over all, p50/p95/max of the post alone and of post + page (what a jury member waits for
before typing the next slip), the server's CPU per slip, and then the slips in the
database, each once.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.duplicate_http import percentile, workers_cpu  # noqa: E402
from benchmarks.evening import server_env  # noqa: E402
from benchmarks.load import Server, free_port, machine_speed  # noqa: E402
from tests.live import Device  # noqa: E402

PASSWORD = "geheim-genoeg-123"
DATABASE = "postgres://bordpunt:bordpunt@127.0.0.1:5432/bordpunt_jury"
#: Where the app's draws start: the same racks on every run.
DRAW_SEED = 43
TABLE_SIZE = 10
JURY_ROOM = "/bench/interclub/beheer/duplicate/1/jury/"


def _writings(game) -> list[tuple[str, int | None]]:
    """What the slips say on the rack drawn (`game`: the master game with the rack drawn,
    the top not played): plays the engine finds, best first, with their score claimed
    (one claimed 1 too high), and a blank slip."""
    plays = sorted(game.generator.plays(game.game, game.rack), reverse=True)
    chosen = [plays[n * len(plays) // 6] for n in range(6)] if plays else []
    written = [(f"{p.notation.split(' ')[0]} {p.word}", p.score) for p in chosen]
    if written:
        written[-1] = (written[-1][0], written[-1][1] + 1)
    return [*written, ("-", None)]


def _child(command: str, players: int = 0, jury: int = 0, turn: int = 0) -> None:
    """In a child with the server's environment: `--prepare` the event, `--turn` (the next
    turn drawn and its top put on the board: what its slips say), or `--count`."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection

    from clubs.models import Club, Player
    from duplicate.models import (
        DuplicateCompetition,
        Evening,
        Participant,
        Slip,
        SlipConflict,
    )
    from duplicate.replay import master_game
    from duplicate.services.evenings import evening_create
    from duplicate.services.turns import turn_choose_top, turn_draw
    from events.models import Event

    if command == "--turn":
        evening = Evening.objects.get()
        drawn = turn_draw(evening=evening, by=None, rng=random.Random(DRAW_SEED + turn))
        writings = _writings(master_game(evening))
        turn_choose_top(turn=drawn, by=None)
        print(json.dumps({"turn": drawn.number, "writings": writings}))
        return
    if command == "--count":
        slips = Slip.objects.all()
        print(
            json.dumps(
                {
                    "slips": slips.count(),
                    "per_turn_and_player": slips.values("turn", "player").distinct().count(),
                    "scored": slips.filter(score__gt=0).count(),
                    "corrected": slips.filter(corrected=True).count(),
                    "conflicts": SlipConflict.objects.count(),
                }
            )
        )
        return
    with connection.cursor() as cursor:  # a fresh schema: the benchmark's own database
        cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    call_command("migrate", verbosity=0, interactive=False)
    club = Club.objects.create(name="Bench", slug="bench")
    event = Event.objects.create(organiser=club, name="Interclub", slug="interclub-1")
    competition = DuplicateCompetition.objects.create(
        club=club, name="Interclub", slug="interclub", event=event
    )
    hashed = make_password(PASSWORD)  # once: a hash per account would take seconds each
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"jury{n}", password=hashed) for n in range(jury)
    )
    event.jury.add(*users)
    people = Player.objects.bulk_create(Player(name=f"Speler {n:03d}") for n in range(players))
    Participant.objects.bulk_create(
        Participant(competition=competition, player=p, table=n // TABLE_SIZE + 1)
        for n, p in enumerate(people)
    )
    evening_create(competition=competition, number=1, by=None)
    print(
        json.dumps(
            {
                "usernames": [user.username for user in users],
                "players": [[p.pk, n // TABLE_SIZE + 1] for n, p in enumerate(people)],
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


def _stacks(players: list[list[int]], jury: int) -> list[list[int]]:
    """The paper slips each jury member types: whole tables, dealt round."""
    tables = sorted({table for _pk, table in players})
    stacks: list[list[int]] = [[] for _n in range(jury)]
    for index, table in enumerate(tables):
        stacks[index % jury] += [pk for pk, at in players if at == table]
    return stacks


def _type_stack(device, stack, turn, writings, barrier, times) -> None:
    """One jury member types its stack: (status, post seconds, post + page seconds) each."""
    barrier.wait()
    for index, player in enumerate(stack):
        text, claimed = writings[(player + index) % len(writings)]
        fields = {"turn": str(turn), "player": str(player), "text": text}
        fields["claimed"] = "" if claimed is None else str(claimed)
        start = time.perf_counter()
        reply = device.post(f"{JURY_ROOM}?beurt={turn}", fields)
        posted = time.perf_counter() - start
        if reply.status == 302:
            device.get(reply.location)
        times.append((reply.status, posted, time.perf_counter() - start))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in ("--prepare", "--turn", "--count"):
        _child(sys.argv[1], *(int(a) for a in sys.argv[2:]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--jury", type=int, default=6)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default=DATABASE)
    args = parser.parse_args()
    speed = machine_speed()
    rooms = []
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        port = free_port()
        env = server_env(args.database, folder, port, args.workers)
        prepared = child(env, "--prepare", str(args.players), str(args.jury))
        stacks = _stacks(prepared["players"], args.jury)
        server = Server(env, port, folder / "server.log")
        try:
            server.wait_ready()
            devices = []
            for username in prepared["usernames"]:
                device = Device(f"http://127.0.0.1:{port}", timeout=120)
                device.log_in(username, PASSWORD)
                devices.append(device)
            for number in range(args.turns):
                drawn = child(env, "--turn", "0", "0", str(number))
                turn, writings = drawn["turn"], drawn["writings"]
                for device in devices:
                    device.get(f"{JURY_ROOM}?beurt={turn}")
                times: list[tuple[int, float, float]] = []
                barrier = threading.Barrier(len(devices))
                threads = [
                    threading.Thread(
                        target=_type_stack, args=(device, stack, turn, writings, barrier, times)
                    )
                    for device, stack in zip(devices, stacks, strict=True)
                ]
                cpu = workers_cpu(server.process.pid)
                start = time.perf_counter()
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                room = time.perf_counter() - start
                rooms.append((turn, times, room, workers_cpu(server.process.pid) - cpu))
        finally:
            server.stop()
        counted = child(env, "--count")
    print(
        f"{args.players} slips a turn typed by {args.jury} jury members at once, gunicorn "
        f"{args.workers} workers, PostgreSQL (this machine's speed before and after: "
        f"{speed:.0f} and {machine_speed():.0f} ms for benchmarks.load.machine_speed's loop):"
    )
    posts: list[float] = []
    cycles: list[float] = []
    refused: list[int] = []
    for turn, times, room, server_cpu in rooms:
        post = [seconds * 1000 for _status, seconds, _cycle in times]
        cycle = [seconds * 1000 for _status, _post, seconds in times]
        posts += post
        cycles += cycle
        refused += [status for status, _post, _cycle in times if status != 302]
        print(
            f"  turn {turn}: the post p50 {statistics.median(post):.0f} ms, "
            f"p95 {percentile(post, 0.95):.0f} ms, max {max(post):.0f} ms; post + page "
            f"p50 {statistics.median(cycle):.0f} ms, p95 {percentile(cycle, 0.95):.0f} ms; "
            f"the turn's {len(times)} slips in {room:.1f} s; the server's CPU "
            f"{server_cpu * 1000 / len(times):.1f} ms a slip (post + page)"
        )
    print(
        f"  all {len(rooms)} turns: the post p50 {statistics.median(posts):.0f} ms, "
        f"p95 {percentile(posts, 0.95):.0f} ms, max {max(posts):.0f} ms; post + page "
        f"p50 {statistics.median(cycles):.0f} ms, p95 {percentile(cycles, 0.95):.0f} ms; "
        f"{len(refused)} not saved {sorted(set(refused))}; {counted['slips']} slips in the "
        f"database ({counted['per_turn_and_player']} turn-and-player pairs), "
        f"{counted['scored']} scoring more than 0, {counted['corrected']} with the claimed "
        f"score corrected, {counted['conflicts']} conflicts"
    )


if __name__ == "__main__":
    main()
