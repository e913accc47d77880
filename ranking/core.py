"""The NTSV ranking, pure: a game's ranking percentages, and the season rankings built from
them (docs/ranking.md gives every rule with its source and every edge case's choice).

No Django and no app: plain numbers and frozen dataclasses in, the same out.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from statistics import median


def game_percentages(points: Sequence[int], gap_value: Decimal | Fraction | int) -> list[Fraction]:
    """Each player's ranking percentage in one game, in the order of `points`:
    100 − VMW × GV / VIW, with VMW the player's points behind the winner and VIW the
    winner's points above the median player's. Exact (fractions): the caller rounds
    nothing, it stores `float()` of each.

    >>> [float(p) for p in game_percentages([500, 400, 300], 20)]
    [100.0, 80.0, 60.0]
    """
    if not points:
        return []
    winner = max(points)
    middle = Fraction(median(sorted(Fraction(p) for p in points)))
    above_median = winner - middle
    gap = Fraction(gap_value)
    if above_median == 0:  # TODO(ranking): the edge cases, chosen and documented
        return [Fraction(100) for _ in points]
    return [100 - (winner - p) * gap / above_median for p in points]
