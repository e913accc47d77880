"""Round robin schedules from the Berger tables.

The entrants are numbered 1..n in the order given (their Berger numbers; the caller
orders them by seed or by lot). With an odd number a dummy player n+1 joins and whoever
meets the dummy has the bye, so the bye rotates through the field. In every game the
first player is the one the Berger table gives the first move (white in chess), which
is the starter when starters are assigned. A double round robin plays the single
schedule twice, the second time with the starters swapped.

The schedule is the published one (FIDE Handbook C.05, annex 1): in round r player n
meets x = ((r - 1) * n / 2 mod (n - 1)) + 1, starting in even rounds, and at table t > 1
player x + (t - 1) starts against x - (t - 1), both counted modulo n - 1 in 1..n-1.
For a group competition call it once per group.

Pure Python; this module must never import Django, the ORM or another app.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .records import PairingError

__all__ = ["RoundRobinRound", "round_robin_round", "round_robin_schedule", "rounds_needed"]


@dataclass(frozen=True)
class RoundRobinRound:
    """One round: games as (starter, other) in table order, and the bye (or None)."""

    round_number: int
    games: tuple[tuple[int, int], ...]
    bye: int | None


def _check(ids: Sequence[int]) -> None:
    if len(set(ids)) != len(ids):
        raise PairingError("round robin entrants must be distinct")
    if len(ids) < 2:
        raise PairingError("a round robin needs at least two entrants")


def rounds_needed(count: int, *, double: bool = False) -> int:
    """Rounds in a (double) round robin of ``count`` entrants."""
    even = count + count % 2
    return (even - 1) * (2 if double else 1)


def _berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (1-based) of the Berger table for even n, as pairs of
    Berger numbers with the first player starting.
    """
    cycle = n - 1

    def wrap(number: int) -> int:
        return (number - 1) % cycle + 1

    x = ((round_number - 1) * (n // 2)) % cycle + 1
    pairs = [(n, x) if round_number % 2 == 0 else (x, n)]
    for table in range(2, n // 2 + 1):
        pairs.append((wrap(x + table - 1), wrap(x - table + 1)))
    return pairs


def round_robin_round(
    ids: Sequence[int], round_number: int, *, double: bool = False
) -> RoundRobinRound:
    """Round ``round_number`` (1-based) of the (double) round robin of ``ids``."""
    _check(ids)
    total = rounds_needed(len(ids), double=double)
    if not 1 <= round_number <= total:
        raise PairingError(f"round {round_number} is outside 1..{total}")
    players: list[int | None] = list(ids)
    if len(players) % 2:
        players.append(None)  # the dummy: meeting it is the bye
    n = len(players)
    single_round = (round_number - 1) % (n - 1) + 1
    second_half = round_number > n - 1
    games: list[tuple[int, int]] = []
    bye = None
    for first, second in _berger_round(n, single_round):
        a, b = players[first - 1], players[second - 1]
        if a is None or b is None:
            bye = b if a is None else a
            continue
        games.append((b, a) if second_half else (a, b))
    return RoundRobinRound(round_number=round_number, games=tuple(games), bye=bye)


def round_robin_schedule(ids: Sequence[int], *, double: bool = False) -> list[RoundRobinRound]:
    """Every round of the (double) round robin of ``ids``, in order."""
    _check(ids)
    return [
        round_robin_round(ids, number, double=double)
        for number in range(1, rounds_needed(len(ids), double=double) + 1)
    ]
