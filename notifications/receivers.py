"""The signals of the apps below, turned into tasks for the worker after the commit: the
request that published a round enqueues one task and never waits on a mail server."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from competition.signals import round_published
from games.signals import result_awaits
from notifications.services import mail_is_set_up


@receiver(round_published)
def _round_published(sender: Any, *, round_id: int, **kwargs: Any) -> None:
    if not mail_is_set_up():
        return
    from notifications.tasks import round_published_notify

    transaction.on_commit(lambda: round_published_notify.enqueue(round_id))


@receiver(result_awaits)
def _result_awaits(sender: Any, *, game_id: int, confirmation: str, **kwargs: Any) -> None:
    if not mail_is_set_up():
        return
    from notifications.tasks import result_awaits_notify

    transaction.on_commit(lambda: result_awaits_notify.enqueue(game_id, confirmation))
