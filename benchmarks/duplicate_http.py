"""Benchmark: 160 players hand in a duplicate turn's slips at once, over HTTP, under the
production server (issue 22: every slip scored, p95 under 500 ms).

Run as ``.venv/bin/python benchmarks/duplicate_http.py [--players 160] [--workers 2]
[--turns 5]``; prints figures, asserts nothing. On a fresh temporary SQLite file it
migrates and makes a duplicate competition of N players with accounts and an evening whose
first two turns are on the board, starts ``python -m config.serve`` (gunicorn, debug off)
and logs every phone in. Then, turn after turn, as at a real evening: every phone opens its
slip page for the turn, all phones post their slip at the same moment (one thread each, a
fresh connection per request, as `tests/live.py` does), and the spelleider puts the top on
the board and the app draws the next rack. What the phones write differs per turn: plays
the engine finds on that rack (the top among them) and a word that is not in the list.
It prints p50/p95/max of the post per turn and over all turns (one room's figure swings
by a quarter from run to run on a shared machine: the turns together say more), the
answers that were not the page with the slip in (the phone posts as htmx does, and gets
its page back in the same answer), and the slips in the database afterwards, each scored
by the engine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.evening import server_env  # noqa: E402
from benchmarks.load import Server, free_port  # noqa: E402
from tests.live import SCREEN_HEADERS, Device  # noqa: E402

PASSWORD = "geheim-genoeg-123"
#: Where the app's draws start: the same racks on every run.
DRAW_SEED = 22


def _writings(game) -> list[str]:
    """What the phones write on the rack drawn: plays the engine finds, best first (the
    top, and lower ones), and one that scores 0 because its word is not in the list."""
    plays = sorted(game.generator.plays(game.game, game.rack), reverse=True)
    chosen = [plays[n * len(plays) // 4] for n in range(4)] if plays else []
    written = [f"{play.notation.split(' ')[0]} {play.word}" for play in chosen]
    return [*written, f"8H {game.rack.replace('?', 'e')}"]


def _child(command: str, players: int = 0) -> None:
    """In a child with the server's environment: `--prepare` the evening, `--advance` to
    the next turn, or `--count`."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command

    from clubs.models import Club, Player
    from competition.models import Competition, Entrant
    from duplicate.models import Evening, Slip
    from duplicate.services import evening_create, master_game, turn_choose_top, turn_draw

    if command == "--advance":
        evening = Evening.objects.get()
        turn_choose_top(turn=evening.turns.order_by("number").last(), by=None)
        import random

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
    competition = Competition.objects.create(
        club=club, name="Duplicate", slug="duplicate", kind=Competition.Kind.DUPLICATE
    )
    hashed = make_password(PASSWORD)  # once: 160 hashes would take a minute
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"speler{n:03d}", password=hashed) for n in range(players)
    )
    people = Player.objects.bulk_create(
        Player(name=f"Speler {n:03d}", user=user) for n, user in enumerate(users)
    )
    Entrant.objects.bulk_create(
        Entrant(competition=competition, player=p, joined_round=1) for p in people
    )
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


def _room(phones, slip_page: str, turn: int, writings: list[str]):
    """Every phone posts its slip for `turn` at the same moment: (status, seconds) each
    (the status negative when the answer is not the page with the slip in), and the
    whole room's time."""
    barrier = threading.Barrier(len(phones))
    answers: list[tuple[int, float]] = []
    lock = threading.Lock()

    def hand_in(n: int, phone: Device) -> None:
        barrier.wait()
        start = time.perf_counter()
        # As the phone's browser posts it (htmx): answered with the page, slip in.
        reply = phone.post(
            slip_page,
            {"turn": str(turn), "text": writings[n % len(writings)], "claimed": ""},
            headers=SCREEN_HEADERS,
        )
        with lock:
            saved = reply.status == 200 and b'id="slip-sent"' in reply.body
            answers.append((reply.status if saved else -reply.status, time.perf_counter() - start))

    threads = [threading.Thread(target=hand_in, args=(n, phone)) for n, phone in enumerate(phones)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers, time.perf_counter() - start


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in ("--prepare", "--advance", "--count"):
        _child(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--turns", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        port = free_port()
        env = server_env(f"sqlite:///{folder}/bench.sqlite3", folder, port, args.workers)
        prepared = child(env, "--prepare", str(args.players))
        usernames, writings = prepared["usernames"], prepared["writings"]
        server = Server(env, port, folder / "server.log")
        rooms: list[tuple[int, list[tuple[int, float]], float]] = []
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
                answers, room = _room(phones, slip_page, turn, writings)
                rooms.append((turn, answers, room))
        finally:
            server.stop()
        counted = child(env, "--count")
    everything: list[float] = []
    refused: list[int] = []
    print(f"{len(usernames)} phones, gunicorn {args.workers} workers, sqlite, one slip's post:")
    for turn, answers, room in rooms:
        times = [seconds * 1000 for _status, seconds in answers]
        everything += times
        refused += [status for status, _seconds in answers if status != 200]
        print(
            f"  turn {turn}: median {statistics.median(times):.0f} ms, "
            f"p95 {percentile(times, 0.95):.0f} ms, max {max(times):.0f} ms; "
            f"the whole room {room:.2f} s"
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
