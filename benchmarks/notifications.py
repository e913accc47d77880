"""Notifications at a club's scale: publishing a round of 150 players through the pairing
page, without and with its notifications queued, and 1,000 queued mails delivered by the
worker to a local SMTP server (aiosmtpd).

Prints the publishing request's p50 and p95 each way (the request only enqueues one task
after its commit, so the two should be alike), the worker's time to find whom to notify,
and the delivery rate in mails a second (one SMTP connection a mail, as the task sends).

    .venv/bin/python benchmarks/notifications.py [--players 150] [--publishes 20] [--mails 1000]
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fresh_database import django_on_a_fresh_database, pages_in_this_process  # noqa: E402


def build(player_count: int):
    from clubs.models import Club, Membership, Player
    from competition.models import Competition, Entrant
    from notifications.kinds import Kind
    from notifications.models import Subscription
    from tests.factories import UserFactory, secretary_of

    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    secretary = secretary_of(club, username="secretaris")
    competition = Competition.objects.create(club=club, name="Clubcompetitie", slug="club")
    users = [UserFactory(username=f"speler{n:03d}") for n in range(player_count)]
    players = Player.objects.bulk_create(
        Player(name=f"Speler {n:03d}", user=user) for n, user in enumerate(users)
    )
    Membership.objects.bulk_create(Membership(club=club, player=p) for p in players)
    Entrant.objects.bulk_create(Entrant(competition=competition, player=p) for p in players)
    # Five in six opt in (125 of 150): 8 rounds notify 1,000.
    Subscription.objects.bulk_create(
        Subscription(user=user, kind=Kind.PAIRING_PUBLISHED)
        for n, user in enumerate(users)
        if n % 6
    )
    return secretary, competition, players


def draft_round(competition, number: int, players):
    """A draft round paired in order: tables of two, as a director reviews it."""
    from competition.models import Round
    from games.models import Game, Seat

    round_obj = Round.objects.create(
        competition=competition, number=number, status=Round.Status.DRAFT
    )
    games = Game.objects.bulk_create(
        Game(round=round_obj, table=table) for table in range(1, len(players) // 2 + 1)
    )
    Seat.objects.bulk_create(
        Seat(game=game, round=round_obj, player=players[2 * index + position], position=position)
        for index, game in enumerate(games)
        for position in (0, 1)
    )
    return round_obj


def publish_times(client, competition, players, *, first: int, count: int) -> list[float]:
    from django.urls import reverse

    times = []
    for number in range(first, first + count):
        draft_round(competition, number, players)
        url = reverse("round_pairing", kwargs={**competition.url_kwargs, "number": number})
        start = time.perf_counter()
        response = client.post(url, {"action": "publish"})
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 302, response.status_code
    return times


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20, method="inclusive")[-1]


class Counter:
    def __init__(self) -> None:
        self.received = 0

    async def handle_DATA(self, server, session, envelope) -> str:
        self.received += 1
        return "250 Message accepted for delivery"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--publishes", type=int, default=20, help="rounds published each way")
    parser.add_argument("--mails", type=int, default=1000)
    args = parser.parse_args()

    django_on_a_fresh_database()
    from aiosmtpd.controller import Controller
    from django.conf import settings
    from django.test import Client
    from django_tasks_db.models import DBTaskResult

    from notifications.models import Notification
    from notifications.worker import WorkerThread
    from tests.mail import free_port

    pages_in_this_process()
    # The players' accounts are made, not logged into: hashing 150 passwords properly
    # would only slow the setup.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    secretary, competition, players = build(args.players)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(secretary)

    settings.MAIL_CONFIGURED = False
    without = publish_times(client, competition, players, first=1, count=args.publishes)
    settings.MAIL_CONFIGURED = True
    queued = publish_times(
        client, competition, players, first=args.publishes + 1, count=args.publishes
    )
    database_kind = os.environ["DATABASE_URL"].split(":")[0]
    print(f"Publishing a round of {args.players} players ({database_kind}), {args.publishes} each")
    for name, times in (("without notifications", without), ("with them queued", queued)):
        print(f"  {name:22s} p50 {statistics.median(times):6.1f} ms   p95 {p95(times):6.1f} ms")

    counter = Counter()
    smtp = Controller(counter, hostname="127.0.0.1", port=free_port())
    smtp.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = smtp.hostname, smtp.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False

    # Whom to notify: as many rounds' fan-out tasks as make the mails asked for.
    fan_outs = DBTaskResult.objects.filter(task_path__endswith="round_published_notify")
    subscribed = sum(1 for n in range(args.players) if n % 6)
    keep = -(-args.mails // subscribed)
    fan_outs.exclude(
        pk__in=list(fan_outs.order_by("enqueued_at").values_list("pk", flat=True)[:keep])
    ).delete()

    worker = WorkerThread()
    start = time.perf_counter()
    worker.start()
    mails = keep * subscribed
    while counter.received < mails:
        time.sleep(0.01)
    elapsed = time.perf_counter() - start
    worker.stop()
    smtp.stop()
    sent = Notification.objects.filter(status="sent").count()
    print(
        f"Delivered {sent:,} queued mails ({keep} rounds) to a local aiosmtpd in {elapsed:.1f} s:"
        f" {sent / elapsed:.0f} mails a second (whom to notify included)"
    )


if __name__ == "__main__":
    main()
