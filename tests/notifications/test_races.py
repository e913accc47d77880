"""The same notification triggered from two database connections at once (two workers
running the same "who to notify" task, then the same send): one row per person, one mail.
PostgreSQL only, threads with their own connections."""

from __future__ import annotations

import pytest
from django.db import connection

from notifications.kinds import Kind
from notifications.models import Notification
from notifications.services import subscriptions_set
from notifications.tasks import notification_send, round_published_notify
from tests.factories import GameFactory, PlayerFactory, RoundFactory, UserFactory
from tests.live import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def _in_own_connection(task, pk: int):
    def run():
        try:
            return task.call(pk)
        finally:
            connection.close()

    return run


def test_one_notification_and_one_mail_when_two_workers_notify_at_once(smtp):
    if connection.vendor != "postgresql":
        pytest.skip("two writers at once need PostgreSQL (DATABASE_URL); SQLite has one writer")
    user = UserFactory(email="anna@example.org")
    subscriptions_set(user_id=user.pk, kinds=[Kind.PAIRING_PUBLISHED], language="nl")
    player = PlayerFactory(user=user)
    for attempt in range(5):
        round = GameFactory(player_a=player, round=RoundFactory()).round
        at_once([_in_own_connection(round_published_notify, round.pk)] * 2)
        (notification,) = Notification.objects.filter(object_key=f"round:{round.pk}")
        at_once([_in_own_connection(notification_send, notification.pk)] * 2)
        assert len(smtp.messages) == attempt + 1
    assert set(Notification.objects.values_list("status", flat=True)) == {"sent"}
