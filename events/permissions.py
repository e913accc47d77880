"""Who may do what in an event: the one home of the event's roles.

Django: plain functions over the models (no views, no services).
"""

from __future__ import annotations

from typing import Any

from events.models import Event


def on_jury(user: Any, event: Event | None) -> bool:
    """Whether `user` is on the jury of `event` (types the paper slips in the jury room of
    its duplicate divisions); no event (a club's own competition): nobody is (one query)."""
    if event is None or user is None or not user.is_authenticated:
        return False
    return event.jury.filter(pk=user.pk).exists()
