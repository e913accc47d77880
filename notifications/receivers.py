"""The signals of the apps below, turned into tasks for the worker after the commit: the
request that published a round enqueues one task and never waits on a mail server."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from competition.signals import round_published
from duplicate.signals import game_complete
from events.signals import entry_made
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


@receiver(game_complete)
def _evening_complete(sender: Any, *, evening: Any, **kwargs: Any) -> None:
    if not mail_is_set_up():
        return
    from notifications.tasks import evening_complete_notify

    evening_id = evening.pk
    # Sent after a commit, or inside a correction's transaction: on_commit runs at once
    # outside one, and after the correction's commit inside one.
    transaction.on_commit(lambda: evening_complete_notify.enqueue(evening_id))


@receiver(entry_made)
def _entry_made(sender: Any, *, entry_id: int, **kwargs: Any) -> None:
    if not mail_is_set_up():
        return
    from notifications.tasks import entry_made_notify

    transaction.on_commit(lambda: entry_made_notify.enqueue(entry_id))
