"""Notifications end to end with the real parts: a round published through the service,
the tasks in the database, the library's worker running them, aiosmtpd receiving.

Transactional: the tasks are enqueued after the commit, and the worker manages its own
transactions, as in production.
"""

from __future__ import annotations

import time

import pytest
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from competition.models import Round
from competition.services.rounds import round_set_status
from notifications.kinds import Kind
from notifications.models import Notification
from notifications.services import subscriptions_set
from notifications.tokens import unsubscribe_token
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    UserFactory,
)
from tests.mail import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def run_worker(max_tasks: int | None = None) -> None:
    """The library's worker (`manage.py db_worker --batch`): every task that is due, then
    it stops. Without its signal handlers, which would outlive it in the test process."""
    Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=max_tasks,
        worker_id="test",
        excluded_queue_names=[],
    ).run()


def player(name: str, *, email: str | None = "", subscribed: bool = True):
    user = UserFactory(username=name, email=email if email is not None else f"{name}@example.org")
    if subscribed:
        subscriptions_set(user_id=user.pk, kinds=[Kind.PAIRING_PUBLISHED], language="nl")
    return PlayerFactory(name=name.capitalize(), user=user)


@pytest.fixture
def draft():
    """A draft round at two tables: anna-bert (table 1), carla-dirk (table 2). Carla has no
    address, Dirk never opted in."""
    club = ClubFactory(name="De Goudse Letters")
    round = RoundFactory(
        competition=CompetitionFactory(club=club, name="Clubcompetitie"),
        status=Round.Status.DRAFT,
    )
    anna, bert = player("anna", email=None), player("bert", email=None)
    carla, dirk = player("carla"), player("dirk", email=None, subscribed=False)
    GameFactory(round=round, table=1, player_a=anna, player_b=bert)
    GameFactory(round=round, table=2, player_a=carla, player_b=dirk)
    return round


def publish(round: Round) -> None:
    round_set_status(round=round, status=Round.Status.PUBLISHED)


def test_a_published_pairing_reaches_each_subscriber_once(smtp, draft):
    publish(draft)
    assert DBTaskResult.objects.count() == 1  # the request queued one task, sent nothing
    assert smtp.messages == []
    run_worker()

    anna = smtp.to("anna@example.org")
    assert len(smtp.messages) == 2 and len(anna) == 1
    mail = anna[0]
    assert mail["From"].addresses[0].display_name == "De Goudse Letters"
    assert "ronde 1: je indeling" in mail["Subject"]
    text = smtp.text(mail)
    assert "Bert" in text and "Tafel: 1" in text
    html = mail.get_body(preferencelist=("html",)).get_content()
    assert "<strong>Bert</strong>" in html
    # RFC 8058: an https-or-http address in angle brackets, and the one-click POST body.
    assert (
        mail["List-Unsubscribe"].strip().startswith("<http")
        and "/meldingen/afmelden/" in (mail["List-Unsubscribe"])
    )
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    carla = Notification.objects.get(user__username="carla")
    assert (carla.status, carla.reason) == ("skipped", "no_address")
    assert not Notification.objects.filter(user__username="dirk").exists()

    # Withdrawn and published again: the same event, no second mail.
    round_set_status(round=draft, status=Round.Status.DRAFT)
    publish(draft)
    run_worker()
    assert len(smtp.messages) == 2
    assert Notification.objects.filter(status="sent").count() == 2


def test_a_mail_server_that_is_down_delays_and_loses_nothing(smtp, draft, settings):
    listening = settings.EMAIL_PORT
    settings.EMAIL_PORT = free_port()  # nobody listens there: connection refused
    publish(draft)
    run_worker()
    waiting = Notification.objects.filter(status="queued")
    assert sorted(waiting.values_list("attempts", flat=True)) == [1, 1]
    retries = DBTaskResult.objects.filter(status="READY")
    assert retries.count() == 2 and all(r.run_after > timezone.now() for r in retries)

    settings.EMAIL_PORT = listening  # the server is back, and the wait is over
    retries.update(run_after=timezone.now())
    run_worker()
    assert len(smtp.messages) == 2
    assert sorted(Notification.objects.values_list("status", "attempts")) == [
        ("sent", 2),
        ("sent", 2),
        ("skipped", 0),
    ]


def test_a_refused_address_is_not_tried_again_and_the_person_sees_it(smtp, draft, client):
    async def refuse_anna(server, session, envelope, address, options):
        if address.startswith("anna"):
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    smtp.handle_RCPT = refuse_anna
    publish(draft)
    run_worker()
    anna = Notification.objects.get(user__username="anna")
    assert (anna.status, anna.reason, anna.attempts) == ("failed", "refused", 1)
    assert len(smtp.messages) == 1
    assert not DBTaskResult.objects.filter(status="READY").exists()

    client.force_login(anna.user)
    page = client.get("/accounts/meldingen/").content.decode()
    assert "de mailserver weigerde het adres" in page


def test_who_unsubscribes_before_the_mail_leaves_gets_nothing(smtp, draft, client):
    publish(draft)
    run_worker(max_tasks=1)  # who to notify: the rows are made, no mail has left yet
    anna = Notification.objects.get(user__username="anna")
    token = unsubscribe_token(user_id=anna.user_id, kind=Kind.PAIRING_PUBLISHED)
    # RFC 8058: the mail program's POST, without a login, cookie or CSRF token.
    answer = client.post(f"/meldingen/afmelden/{token}/", {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    run_worker()
    assert [m["X-Envelope-To"] for m in smtp.messages] == ["bert@example.org"]
    anna.refresh_from_db()
    assert (anna.status, anna.reason) == ("skipped", "unsubscribed")


def test_the_worker_thread_of_bordpunt_run_sends_while_the_server_serves(smtp, draft):
    from notifications.worker import WorkerThread

    worker = WorkerThread().start()
    try:
        publish(draft)
        deadline = time.monotonic() + 20
        while len(smtp.messages) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        worker.stop()
    assert not worker.thread.is_alive()
    assert sorted(m["X-Envelope-To"] for m in smtp.messages) == [
        "anna@example.org",
        "bert@example.org",
    ]


def test_a_result_to_confirm_then_disputed_reaches_whom_it_waits_for(smtp, draft):
    from games.confirmation import game_result_enter
    from games.services import ResultInput

    game = draft.games.get(table=1)
    anna, bert = (seat.player.user for seat in game.seat_list)
    for user in (anna, bert):
        subscriptions_set(user_id=user.pk, kinds=[Kind.RESULT_TO_CONFIRM], language="nl")
    publish(draft)  # nobody wants the pairing any more: no mail of it

    game = game_result_enter(game=game, result=ResultInput.of_pair("normal", 300, 250), by=anna)
    run_worker()
    assert [m["X-Envelope-To"] for m in smtp.messages] == ["bert@example.org"]
    assert "bevestig je uitslag" in smtp.messages[0]["Subject"]
    assert "300" in smtp.text(smtp.messages[0])

    game_result_enter(game=game, result=ResultInput.of_pair("normal", 250, 300), by=bert)
    run_worker()
    disputed = [m for m in smtp.messages if "betwist" in m["Subject"]]
    assert sorted(m["X-Envelope-To"] for m in disputed) == [
        "anna@example.org",
        "bert@example.org",
    ]
