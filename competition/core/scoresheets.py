"""What a paper scoresheet holds: one sheet per table, its turns numbered by the rule set.

Pure: takes the rule set's numbers, returns plain values for the template.
"""

from dataclasses import dataclass

#: Rows per player when the rules set no turn limit: a standard game takes 10 to 15 turns
#: each; the sheet leaves room for a long one.
OPEN_ENDED_ROWS = 20

#: Sheets with at most this many turns per player fit two to an A4 page.
HALF_PAGE_TURNS = 10


#: Up to this many players a sheet gives each a table of their own side by side; more, and
#: the four narrow tables of a table of 4 no longer fit an A4 (190 mm less the margins).
OWN_TABLES_UP_TO = 2


@dataclass(frozen=True)
class SheetLayout:
    turns: range
    turn_limit: int | None
    clock_minutes: int | None
    seats: int = 2

    @property
    def half_page(self) -> bool:
        return len(self.turns) <= HALF_PAGE_TURNS

    @property
    def shared_table(self) -> bool:
        """A table of 3 or 4 keeps its score in one table with a column group per seat (word,
        points, total) on rows per turn, as a pair's two tables would not fit four times."""
        return self.seats > OWN_TABLES_UP_TO


def sheet_layout(
    *, turn_limit: int | None, clock_minutes: int | None, seats: int = 2
) -> SheetLayout:
    """Gouds 8's eight turns each get eight numbered rows; without a limit, the long sheet.

    >>> sheet_layout(turn_limit=8, clock_minutes=25).turns
    range(1, 9)
    >>> sheet_layout(turn_limit=None, clock_minutes=None).half_page
    False
    >>> sheet_layout(turn_limit=None, clock_minutes=None, seats=4).shared_table
    True
    """
    rows = turn_limit if turn_limit else OPEN_ENDED_ROWS
    return SheetLayout(
        turns=range(1, rows + 1), turn_limit=turn_limit, clock_minutes=clock_minutes, seats=seats
    )
