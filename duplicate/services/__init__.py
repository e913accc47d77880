"""Writes of duplicate/, one module per what they change: the competition and its rules
(`competitions`), its players (`participants`), an evening (`evenings`), the spelleider's
turns (`turns`), the slips (`slips`), the jury room's typing (`jury`) and who was at an
evening (`presence`); what they share
is `shared`, what they derive from the rows without writing is `duplicate.replay`.

Every function runs inside `transaction.atomic`, writes a history entry for what it
changed, and raises `DuplicateEveningError` (a translatable message, the engine's code
when it comes from `rules.duplicate`) changing nothing. The spelleider's writes (draws,
tops) hold the club's lock, so two clicks make one turn. A slip is scored and written
holding its turn's row (`shared.turn_held`), which a redo of the turn holds too: the slip
is scored on the rack that is current in its own transaction. The database keeps one
slip per player and turn, and a second one is refused.

The turn's clock is the server's: a turn drawn takes the competition's thinking time, the
spelleider may add time with a reason, and a slip from a phone is judged in time or late
when it arrives, on the turn held (`Turn.in_time`). A late slip is kept, marked, and counts
0 until the spelleider accepts it with a reason (`duplicate.ranking.slip_counts`).

The one error is defined here (as `CompetitionError` in `competition.services`): every
module raises it, and a caller catches it without knowing which module refused.
"""

from __future__ import annotations

from typing import Any

from competition.services import CompetitionError


class DuplicateEveningError(CompetitionError):
    """A duplicate write that cannot be done; `code` is the engine's code, if any."""

    def __init__(self, message: Any, *, code: str = "") -> None:
        super().__init__(message)
        self.code = code
