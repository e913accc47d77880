"""What changed between two published versions of a season ranking: the list the NTSV
announces with a correction (docs/ranking.md, *Publishing*).

Pure: the standard library only; rows in, changes out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

#: Values this close are equal (as `ranking.core.EQUAL_TO`: the same percentages summed in
#: another order differ in the last bits).
EQUAL_TO = 9


@dataclass(frozen=True)
class Row:
    """A person's or a club's row in one version: `value` is the average or the score."""

    key: str
    name: str
    rank: int | None
    value: float
    club: str = ""


class Kind(Enum):
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"


@dataclass(frozen=True)
class Change:
    kind: Kind
    key: str
    name: str
    rank_before: int | None = None
    rank_after: int | None = None
    value_before: float | None = None
    value_after: float | None = None
    club_before: str = ""
    club_after: str = ""


def _same(before: Row, after: Row) -> bool:
    return (
        before.rank == after.rank
        and round(before.value, EQUAL_TO) == round(after.value, EQUAL_TO)
        and before.club == after.club
    )


def changes(before: Sequence[Row], after: Sequence[Row]) -> list[Change]:
    """The rows added, removed or changed (rank, value or club) from `before` to `after`,
    in the order of `after`, then the removed in the order of `before`.

    >>> old = [Row("1", "An", 1, 90.0, "X"), Row("2", "Bert", 2, 80.0, "Y")]
    >>> new = [Row("2", "Bert", 1, 95.0, "Y"), Row("1", "An", 2, 90.0, "X"),
    ...        Row("3", "Cor", None, 70.0)]
    >>> [(c.kind.value, c.name, c.rank_before, c.rank_after) for c in changes(old, new)]
    [('changed', 'Bert', 2, 1), ('changed', 'An', 1, 2), ('added', 'Cor', None, None)]
    >>> changes(old, old)
    []
    """
    was = {row.key: row for row in before}
    now = {row.key for row in after}
    found: list[Change] = []
    for row in after:
        old = was.get(row.key)
        if old is None:
            found.append(
                Change(Kind.ADDED, row.key, row.name, None, row.rank, None, row.value, "", row.club)
            )
        elif not _same(old, row):
            found.append(
                Change(
                    Kind.CHANGED,
                    row.key,
                    row.name,
                    old.rank,
                    row.rank,
                    old.value,
                    row.value,
                    old.club,
                    row.club,
                )
            )
    for row in before:
        if row.key not in now:
            found.append(
                Change(
                    Kind.REMOVED, row.key, row.name, row.rank, None, row.value, None, row.club, ""
                )
            )
    return found
