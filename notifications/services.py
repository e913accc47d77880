"""Writes of the notifications app: a person's kinds, an unsubscribe, notifications queued.

Queueing never sends: it makes the `Notification` rows (one per person, kind and object,
the database's unique key) and enqueues one send task each for the worker
(notifications/tasks.py), after the transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from clubs.history import HistoryAction, player_history_record
from clubs.models import Player
from notifications.kinds import TIMED, Kind
from notifications.models import Notification, Subscription


def mail_is_set_up() -> bool:
    """Notifications need a mail server (EMAIL_URL or EMAIL_HOST): without one they are off,
    and the settings page says so."""
    return bool(getattr(settings, "MAIL_CONFIGURED", False))


def _record_change(user_id: int, before: list[str], after: list[str]) -> None:
    """A person's change of their kinds, kept where the project keeps a person's own
    changes (an address, their calendar's address): in the history of each of their clubs,
    by them. A person in no club has no history to keep it in."""
    if before == after:
        return
    player = Player.objects.filter(user_id=user_id).first()
    if player is None:
        return
    user = get_user_model().objects.get(pk=user_id)
    player_history_record(
        player,
        by=user,
        action=HistoryAction.PLAYER_NOTIFICATIONS,
        before={"notifications": before},
        after={"notifications": after},
    )


def _kinds_of(user_id: int) -> list[str]:
    return sorted(Subscription.objects.filter(user_id=user_id).values_list("kind", flat=True))


@transaction.atomic
def subscriptions_set(*, user_id: int, kinds: Iterable[str], language: str) -> None:
    """The person's kinds become exactly `kinds`, their mails written in `language`; the
    change is kept in the history. A kind sent at a time of day makes sure the worker
    looks for what is due (`notifications.tasks.due_schedule_ensure`)."""
    wanted = set(kinds) & set(Kind.values)
    before = _kinds_of(user_id)
    Subscription.objects.filter(user_id=user_id).exclude(kind__in=wanted).delete()
    Subscription.objects.filter(user_id=user_id).update(language=language)
    Subscription.objects.bulk_create(
        [Subscription(user_id=user_id, kind=kind, language=language) for kind in sorted(wanted)],
        ignore_conflicts=True,
    )
    _record_change(user_id, before, sorted(wanted))
    if wanted & TIMED and mail_is_set_up():
        from notifications.tasks import due_schedule_ensure

        transaction.on_commit(due_schedule_ensure)


@transaction.atomic
def subscription_end(*, user_id: int, kind: str) -> bool:
    """The one-click unsubscribe, kept in the history as the person's change: False when
    there was nothing to end (a second click)."""
    before = _kinds_of(user_id)
    deleted, _ = Subscription.objects.filter(user_id=user_id, kind=kind).delete()
    if deleted:
        _record_change(user_id, before, [code for code in before if code != kind])
    return deleted > 0


def notifications_queue(
    *, kind: str, object_key: str, club_id: int, recipients: dict[int, dict[str, Any]]
) -> list[int]:
    """Notify those of `recipients` (user id -> params) who opted in to `kind`, once each.

    A person without an address gets a row that says so (their page shows it), and no
    task. Returns the ids of the notifications enqueued; an object notified again finds
    its rows there already and enqueues nothing for them.
    """
    from notifications.tasks import notification_send

    wanted = dict(
        Subscription.objects.filter(kind=kind, user_id__in=recipients).values_list(
            "user_id", "user__email"
        )
    )
    already = set(
        Notification.objects.filter(
            kind=kind, object_key=object_key, user_id__in=wanted
        ).values_list("user_id", flat=True)
    )
    new = [user_id for user_id in wanted if user_id not in already]
    Notification.objects.bulk_create(
        [
            Notification(
                user_id=user_id,
                kind=kind,
                object_key=object_key,
                club_id=club_id,
                params=recipients[user_id],
                **(
                    {}
                    if wanted[user_id]
                    else {
                        "status": Notification.Status.SKIPPED,
                        "reason": Notification.Reason.NO_ADDRESS,
                    }
                ),
            )
            for user_id in new
        ],
        # Two workers queueing the same object at once: the unique key keeps one row each.
        ignore_conflicts=True,
    )
    queued = list(
        Notification.objects.filter(
            kind=kind,
            object_key=object_key,
            user_id__in=new,
            status=Notification.Status.QUEUED,
            attempts=0,
        ).values_list("pk", flat=True)
    )
    for pk in queued:
        # A task enqueued twice for one row (the race above) sends once: the task claims
        # the row before sending.
        notification_send.enqueue(pk)
    return queued
