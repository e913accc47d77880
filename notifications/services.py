"""Writes of the notifications app: a person's kinds, an unsubscribe, notifications queued.

Queueing never sends: it makes the `Notification` rows (one per person, kind and object,
the database's unique key) and enqueues one send task each for the worker
(notifications/tasks.py), after the transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction

from notifications.kinds import Kind
from notifications.models import Notification, Subscription


def mail_is_set_up() -> bool:
    """Notifications need a mail server (EMAIL_URL or EMAIL_HOST): without one they are off,
    and the settings page says so."""
    return bool(getattr(settings, "MAIL_CONFIGURED", False))


@transaction.atomic
def subscriptions_set(*, user_id: int, kinds: Iterable[str], language: str) -> None:
    """The person's kinds become exactly `kinds`, their mails written in `language`."""
    wanted = set(kinds) & set(Kind.values)
    Subscription.objects.filter(user_id=user_id).exclude(kind__in=wanted).delete()
    Subscription.objects.filter(user_id=user_id).update(language=language)
    Subscription.objects.bulk_create(
        [Subscription(user_id=user_id, kind=kind, language=language) for kind in sorted(wanted)],
        ignore_conflicts=True,
    )


def subscription_end(*, user_id: int, kind: str) -> bool:
    """The one-click unsubscribe: False when there was nothing to end (a second click)."""
    deleted, _ = Subscription.objects.filter(user_id=user_id, kind=kind).delete()
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
