"""The worker's tasks (django-tasks, database backend): who to notify of an event, what is
due at a time of day (`notifications_due`, every quarter of an hour), and one notification
sent.

The request only enqueues (after its commit); everything that reads many rows or talks to
the mail server runs here. A mail server that is down or answers "try later" costs delay,
not the mail: the task enqueues itself again with a growing wait (`retry_delay`). A
notification is claimed (queued -> sending) by one conditional update before its mail
leaves, so a task that runs twice sends once; a worker that dies while sending leaves the
row "sending" and it is not sent again: at most once.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from clubs.models import Player
from competition.models import Round
from duplicate.models import Evening
from duplicate.selectors import evening_results
from events.models import Entry
from games.confirmation import seats_to_confirm
from games.models import Confirmation, Game, Seat
from notifications import due
from notifications.content import CONTENT
from notifications.kinds import Kind
from notifications.mail import notification_message
from notifications.models import Notification, Subscription
from notifications.selectors import managers_of
from notifications.services import mail_is_set_up, notifications_queue

logger = logging.getLogger(__name__)


def retry_delay(attempt: int) -> timedelta:
    """The wait before attempt `attempt + 1`: the base, times four each time.

    >>> [retry_delay(n).total_seconds() / 60 for n in (1, 2, 3)]  # base 60 s
    [1.0, 4.0, 16.0]
    """
    return timedelta(seconds=settings.NOTIFICATIONS_RETRY_SECONDS * 4 ** (attempt - 1))


def is_permanent(error: OSError) -> bool:
    """A 5xx answer is the server's last word (an unknown address: a bounce); anything
    else (4xx, no connection, a dropped one) is worth trying again."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code >= 500
    return False


@task()
def round_published_notify(round_id: int) -> int:
    """Queue the pairing of every player of the round who has an account."""
    round = Round.objects.select_related("competition").filter(pk=round_id).first()
    if round is None:
        return 0
    users = Seat.objects.filter(round_id=round_id, player__user__isnull=False).values_list(
        "player__user_id", flat=True
    )
    return len(
        notifications_queue(
            kind=Kind.PAIRING_PUBLISHED,
            object_key=f"round:{round_id}",
            club_id=round.competition.club_id,
            recipients={user_id: {"round_id": round_id} for user_id in users},
        )
    )


@task()
def result_awaits_notify(game_id: int, confirmation: str) -> int:
    """A provisional result: the players at the table who have not confirmed it yet; a
    disputed one: every player at the table. Once per game and state."""
    game = (
        Game.objects.select_related("round__competition")
        .prefetch_related("seats__player")
        .filter(pk=game_id, confirmation=confirmation)
        .first()
    )
    if game is None:  # confirmed (or decided) before the worker came to it
        return 0
    waiting = seats_to_confirm(game) if confirmation == Confirmation.PROVISIONAL else None
    users = [
        seat.player.user_id
        for seat in game.seat_list
        if seat.player.user_id is not None
        and (waiting is None or (seat.position in waiting and not seat.confirmed))
    ]
    competition = game.round.competition
    queued = notifications_queue(
        kind=Kind.RESULT_TO_CONFIRM,
        object_key=f"game:{game_id}:{confirmation}",
        club_id=competition.club_id,
        recipients={
            user_id: {"game_id": game_id, "confirmation": confirmation} for user_id in users
        },
    )
    if confirmation == Confirmation.DISPUTED:
        # The same key for whoever decides: a dispute is decided once, by any of them.
        queued += notifications_queue(
            kind=Kind.DISPUTE_TO_DECIDE,
            object_key=f"game:{game_id}",
            club_id=competition.club_id,
            recipients={
                user_id: {"game_id": game_id}
                for user_id in managers_of(
                    club_id=competition.club_id, event_id=competition.event_id
                )
            },
        )
    return len(queued)


@task()
def evening_complete_notify(evening_id: int) -> int:
    """A duplicate evening's results complete: every player in its ranking who has an
    account, once per evening (a later correction is on the page, not in a second mail)."""
    evening = Evening.objects.select_related("competition").filter(pk=evening_id).first()
    if evening is None:
        return 0
    ranked = [row.player_id for row in evening_results(evening)]
    users = Player.objects.filter(pk__in=ranked, user__isnull=False).values_list("user_id", "pk")
    return len(
        notifications_queue(
            kind=Kind.DUPLICATE_RESULT,
            object_key=f"evening:{evening_id}",
            club_id=evening.competition.club_id,
            recipients={
                user_id: {"evening_id": evening_id, "player_id": player_id}
                for user_id, player_id in users
            },
        )
    )


@task()
def entry_made_notify(entry_id: int) -> int:
    """An entry in an event, made by the person, their secretary or a director: the
    person's confirmation that they are in, once per entry."""
    entry = Entry.objects.select_related("event", "player").filter(pk=entry_id).first()
    if entry is None or entry.player.user_id is None:  # withdrawn meanwhile; no account
        return 0
    return len(
        notifications_queue(
            kind=Kind.ENTRY_CONFIRMED,
            object_key=f"entry:{entry_id}",
            club_id=entry.event.organiser_id,
            recipients={entry.player.user_id: {"entry_id": entry_id}},
        )
    )


#: How often the worker looks for what is due at a time of day (docs/notifications.md).
DUE_EVERY = timedelta(minutes=15)


def _due_waiting() -> bool:
    return DBTaskResult.objects.filter(
        task_path=notifications_due.module_path, status=TaskResultStatus.READY
    ).exists()


def due_schedule_ensure() -> None:
    """Start the quarter-hourly look for what is due, unless one waits in the queue
    already: when a person chooses a kind sent at a time of day, and when `bordpunt run`'s
    worker or `manage.py notifications_schedule` (before the hosted workers) starts."""
    if mail_is_set_up() and not _due_waiting():
        notifications_due.enqueue()


@task()
def notifications_due() -> int:
    """Queue what is due now (`notifications.due`), once each by its key; then come back
    in a quarter of an hour. The next look is enqueued first, so a worker that dies in
    the middle of this one leaves the schedule running; two looks enqueued at once (two
    workers started together) become one, as each enqueues the next only when none waits."""
    now = timezone.now()
    if not mail_is_set_up():
        return 0
    if not _due_waiting():
        notifications_due.using(run_after=now + DUE_EVERY).enqueue()
    return due.due_queue(now=now)


def _finish(notification_id: int, status: str, reason: str = "") -> str:
    Notification.objects.filter(pk=notification_id).update(
        status=status,
        reason=reason,
        sent_at=timezone.now() if status == Notification.Status.SENT else None,
    )
    return status


@task()
def notification_send(notification_id: int) -> str:
    """Send one notification, unless it was sent, or its person unsubscribed meanwhile."""
    claimed = Notification.objects.filter(
        pk=notification_id, status=Notification.Status.QUEUED
    ).update(status=Notification.Status.SENDING, attempts=F("attempts") + 1)
    if not claimed:
        return "not queued"
    notification = Notification.objects.select_related("user", "club").get(pk=notification_id)
    subscription = Subscription.objects.filter(
        user_id=notification.user_id, kind=notification.kind
    ).first()
    if subscription is None:
        return _finish(notification_id, Notification.Status.SKIPPED, "unsubscribed")
    if not notification.user.email:
        return _finish(notification_id, Notification.Status.SKIPPED, "no_address")
    context = CONTENT[notification.kind](notification)
    if context is None:
        return _finish(notification_id, Notification.Status.SKIPPED, "gone")
    message = notification_message(
        notification, to=notification.user.email, language=subscription.language, context=context
    )
    try:
        message.send()
    except OSError as error:  # smtplib's errors are OSErrors, as are a refused connection's
        if is_permanent(error):
            logger.warning("Notification %s refused: %s", notification_id, error)
            return _finish(notification_id, Notification.Status.FAILED, "refused")
        if notification.attempts >= settings.NOTIFICATIONS_ATTEMPTS:
            logger.warning("Notification %s given up: %s", notification_id, error)
            return _finish(notification_id, Notification.Status.FAILED, "unreachable")
        Notification.objects.filter(pk=notification_id).update(status=Notification.Status.QUEUED)
        notification_send.using(
            run_after=timezone.now() + retry_delay(notification.attempts)
        ).enqueue(notification_id)
        return "retry"
    return _finish(notification_id, Notification.Status.SENT)
