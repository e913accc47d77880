"""Reads: a person's kinds and the notifications queued or sent to them."""

from __future__ import annotations

from django.db.models import QuerySet

from notifications.models import Notification, Subscription

#: The person's page shows the latest ones; older ones stay in the database.
SHOWN = 50


def subscribed_kinds(user_id: int) -> list[str]:
    return list(Subscription.objects.filter(user_id=user_id).values_list("kind", flat=True))


def notifications_of(user_id: int) -> QuerySet[Notification]:
    return Notification.objects.filter(user_id=user_id).select_related("club")[:SHOWN]
