"""Who starts each game.

Gouds 8 draws lots at the table, so ``"by_lot"`` leaves every starter open (None) and
the result form records who actually started. ``"assigned"`` decides it beforehand:

1. nobody starts (or waits) a third time in a row when the opponent can take the turn;
2. in a return game the player who did not start last time they met starts now;
3. whoever started less often (relative to their recorded games) starts;
4. whoever did not start their own last game starts;
5. on a complete tie the higher placed player starts at odd tables and the lower placed
   at even tables, so a first round is balanced too.

Pure Python; this module must never import Django, the ORM or another app.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .common import MeetingHistory
from .records import PairingEntrant, PairingError

__all__ = ["STARTER_MODES", "StarterMode", "assign_starters", "starter_preference"]

StarterMode = Literal["assigned", "by_lot"]
STARTER_MODES: tuple[str, ...] = ("assigned", "by_lot")


def _trailing_run(recent_starts: tuple[bool, ...]) -> tuple[bool | None, int]:
    """The last recorded starter value and how many games in a row it held."""
    if not recent_starts:
        return None, 0
    last = recent_starts[-1]
    length = 0
    for started in reversed(recent_starts):
        if started != last:
            break
        length += 1
    return last, length


def _run_pressure(entrant: PairingEntrant) -> int:
    """+1 when two non-starts in a row ask for a start, -1 after two starts, else 0."""
    last, length = _trailing_run(entrant.recent_starts)
    if length < 2:
        return 0
    return -1 if last else 1


def _balance(entrant: PairingEntrant) -> int:
    """Starts minus non-starts: positive means this entrant started more often."""
    return 2 * entrant.starts - entrant.games


def starter_preference(entrant: PairingEntrant) -> int:
    """How strongly an entrant should start next: +2 must (two non-starts in a row),
    +1 would like to (started less than half), 0 either way, -1 / -2 the reverse.

    The Swiss weight uses it to keep two entrants who both need the same side apart.
    """
    pressure = _run_pressure(entrant)
    if pressure:
        return 2 * pressure
    balance = _balance(entrant)
    return (balance < 0) - (balance > 0)


def starter_conflict(a: PairingEntrant, b: PairingEntrant) -> int:
    """0 when both can be satisfied, else the preference strength one must give up."""
    pref_a, pref_b = starter_preference(a), starter_preference(b)
    if pref_a * pref_b <= 0:
        return 0
    return min(abs(pref_a), abs(pref_b))


def _choose_starter(
    a: PairingEntrant,
    b: PairingEntrant,
    history: MeetingHistory,
    table_index: int,
) -> int:
    pressure_a, pressure_b = _run_pressure(a), _run_pressure(b)
    if pressure_a != pressure_b:
        return a.id if pressure_a > pressure_b else b.id
    meeting = history.get(a.id, b.id)
    if meeting is not None and meeting.last_starter is not None:
        return b.id if meeting.last_starter == a.id else a.id
    balance_a, balance_b = _balance(a), _balance(b)
    if balance_a != balance_b:
        return a.id if balance_a < balance_b else b.id
    last_a, _ = _trailing_run(a.recent_starts)
    last_b, _ = _trailing_run(b.recent_starts)
    if last_a is False and last_b is True:
        return a.id
    if last_b is False and last_a is True:
        return b.id
    return a.id if table_index % 2 == 0 else b.id


def assign_starters(
    ordered_games: Sequence[tuple[int, int]],
    entrants: Sequence[PairingEntrant],
    *,
    starters: StarterMode | str = "assigned",
    history: MeetingHistory | None = None,
) -> tuple[int | None, ...]:
    """The starter of each game, in the order given.

    ``ordered_games`` lists the games in table order with the higher placed player
    first (the table parity breaks complete ties). With ``starters="by_lot"`` every
    starter is None.
    """
    if starters not in STARTER_MODES:
        raise PairingError(f"starters must be one of {STARTER_MODES}, not {starters!r}")
    if starters == "by_lot":
        return tuple(None for _ in ordered_games)
    by_id = {entrant.id: entrant for entrant in entrants}
    if history is None:
        history = MeetingHistory(entrants)
    return tuple(
        _choose_starter(by_id[a], by_id[b], history, index)
        for index, (a, b) in enumerate(ordered_games)
    )
