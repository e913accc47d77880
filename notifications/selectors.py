"""Reads: a person's kinds, the notifications queued or sent to them, and who runs a club's
competition or an event (whom the kinds for secretaries and directors go to)."""

from __future__ import annotations

from django.db.models import QuerySet

from clubs.models import Membership
from events.models import Event
from notifications.models import Notification, Subscription

#: The person's page shows the latest ones; older ones stay in the database.
SHOWN = 50


def subscribed_kinds(user_id: int) -> list[str]:
    return list(Subscription.objects.filter(user_id=user_id).values_list("kind", flat=True))


def notifications_of(user_id: int) -> QuerySet[Notification]:
    return Notification.objects.filter(user_id=user_id).select_related("club")[:SHOWN]


def managers_of(*, club_id: int, event_id: int | None) -> set[int]:
    """The accounts that run a competition or an event: the club's secretaries (for a
    division of an event, the organiser's) and the event's directors."""
    users = set(
        Membership.objects.filter(
            club_id=club_id, role=Membership.Role.SECRETARY, player__user__isnull=False
        ).values_list("player__user_id", flat=True)
    )
    if event_id is not None:
        users |= set(
            Event.directors.through.objects.filter(event_id=event_id).values_list(
                "user_id", flat=True
            )
        )
    return users
