"""The turn's clock, kept by the server: when a turn's time is up, and whether a slip that
arrives at a given moment is in time. Pure: no Django, no database (the moments are given).

A turn's time runs from its draw (`Turn.drawn_at`) for its own seconds (copied from the
evening's rules at the draw) plus any time the spelleider added; `Turn.deadline` asks
`deadline`.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta


def deadline(drawn_at: datetime | None, seconds: int) -> datetime | None:
    """When the turn's time is up; None for a turn with no time of its draw (drawn before
    the app kept one): such a turn has no clock.

    >>> from datetime import datetime
    >>> deadline(datetime(2026, 1, 1, 20, 0, 0), 180 + 30)
    datetime.datetime(2026, 1, 1, 20, 3, 30)
    """
    return None if drawn_at is None else drawn_at + timedelta(seconds=seconds)


def in_time(deadline: datetime | None, at: datetime, grace_seconds: int) -> bool:
    """Whether a slip arriving at ``at`` is in time: up to the deadline and ``grace_seconds``
    after it (the evening's `SlipRules.grace_seconds`: a slip sent as the phone shows 0:00
    reaches the server a moment later). No deadline: always.

    >>> from datetime import datetime
    >>> up = datetime(2026, 1, 1, 20, 3, 0)
    >>> [in_time(up, datetime(2026, 1, 1, 20, 3, s), 2) for s in (0, 2, 3)]
    [True, True, False]
    """
    return deadline is None or at <= deadline + timedelta(seconds=grace_seconds)


def seconds_left(deadline: datetime | None, now: datetime) -> int | None:
    """The whole seconds left until the deadline, as a countdown shows them (0 once it is
    past; None without a deadline). Rounded up: a countdown shows 0:00 only at the deadline.

    >>> from datetime import datetime
    >>> up = datetime(2026, 1, 1, 20, 3, 0)
    >>> [seconds_left(up, datetime(2026, 1, 1, 20, 0, 0, 500_000)), seconds_left(up, up)]
    [180, 0]
    """
    if deadline is None:
        return None
    return max(0, math.ceil((deadline - now).total_seconds()))


def countdown_text(seconds: int) -> str:
    """Seconds as a countdown shows them, minutes and seconds (as duplicate/countdown.js).

    >>> countdown_text(180), countdown_text(65), countdown_text(0)
    ('3:00', '1:05', '0:00')
    """
    minutes, rest = divmod(max(0, seconds), 60)
    return f"{minutes}:{rest:02d}"
