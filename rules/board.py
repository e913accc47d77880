"""The 15x15 board: premium squares, coordinates, and a read-only view for templates.

Pure Python: this module imports nothing from Django. Squares are addressed by
0-based ``(row, col)``; on screen and in notation, rows are 1-15 and columns A-O,
so the centre is ``H8`` = ``(7, 7)``. GCG move coordinates put the row first for an
across word (``8H``) and the column first for a down word (``H8``).

>>> parse_square("H8")
(7, 7)
>>> square_name(0, 14)
'O1'
>>> premium(0, 0), premium(7, 7), premium(1, 5)
('TW', 'DW', 'TL')
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from rules.errors import InvalidMoveError

SIZE = 15
CENTRE = 7 * SIZE + 7
COLUMNS = "ABCDEFGHIJKLMNO"

# One quadrant's worth of the standard board written out in full, because a picture
# is easier to check against a real board than a list of coordinates.
# T = triple word, D = double word, t = triple letter, d = double letter.
_LAYOUT = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
_CODE = {"T": "TW", "D": "DW", "t": "TL", "d": "DL", ".": None}

#: Premium name per square index (``row * 15 + col``), or None.
PREMIUMS: tuple[str | None, ...] = tuple(_CODE[ch] for row in _LAYOUT for ch in row)
#: Letter multiplier per square index (1, 2 or 3).
LETTER_MULT: tuple[int, ...] = tuple({"DL": 2, "TL": 3}.get(p or "", 1) for p in PREMIUMS)
#: Word multiplier per square index (1, 2 or 3).
WORD_MULT: tuple[int, ...] = tuple({"DW": 2, "TW": 3}.get(p or "", 1) for p in PREMIUMS)


class Direction(Enum):
    """Direction of a word on the board."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> int:
        """Index step between consecutive squares of a word in this direction."""
        return 1 if self is Direction.ACROSS else SIZE


def premium(row: int, col: int) -> str | None:
    """``"DL"``, ``"TL"``, ``"DW"``, ``"TW"`` or None for the square at ``(row, col)``."""
    return PREMIUMS[row * SIZE + col]


def square_name(row: int, col: int) -> str:
    """Column letter then row number, e.g. ``(7, 7)`` -> ``"H8"``."""
    return f"{COLUMNS[col]}{row + 1}"


def index_name(index: int) -> str:
    """Name of a square given by its flat index."""
    return square_name(*divmod(index, SIZE))


_SQUARE_COL_FIRST = re.compile(r"^([A-Oa-o])(1[0-5]|[1-9])$")
_SQUARE_ROW_FIRST = re.compile(r"^(1[0-5]|[1-9])([A-Oa-o])$")


def parse_square(text: str) -> tuple[int, int]:
    """Parse ``"H8"`` (or ``"8H"``) to 0-based ``(row, col)``."""
    text = text.strip()
    match = _SQUARE_COL_FIRST.match(text)
    if match:
        return int(match.group(2)) - 1, COLUMNS.index(match.group(1).upper())
    match = _SQUARE_ROW_FIRST.match(text)
    if match:
        return int(match.group(1)) - 1, COLUMNS.index(match.group(2).upper())
    raise InvalidMoveError("bad_square", square=text)


def parse_position(text: str) -> tuple[int, int, Direction]:
    """Parse a GCG position: ``"8H"`` is across from row 8 column H, ``"H8"`` is down.

    >>> parse_position("8H")
    (7, 7, <Direction.ACROSS: 'across'>)
    >>> parse_position("h8")
    (7, 7, <Direction.DOWN: 'down'>)
    """
    text = text.strip()
    if _SQUARE_ROW_FIRST.match(text):
        row, col = parse_square(text)
        return row, col, Direction.ACROSS
    if _SQUARE_COL_FIRST.match(text):
        row, col = parse_square(text)
        return row, col, Direction.DOWN
    raise InvalidMoveError("bad_square", square=text)


def format_position(row: int, col: int, direction: Direction) -> str:
    """Inverse of :func:`parse_position`."""
    if direction is Direction.ACROSS:
        return f"{row + 1}{COLUMNS[col]}"
    return f"{COLUMNS[col]}{row + 1}"


@dataclass(frozen=True, slots=True)
class Square:
    """One square as a template sees it."""

    row: int
    col: int
    letter: str | None  # uppercase letter shown, None when empty
    is_blank: bool
    premium: str | None  # "DL", "TL", "DW", "TW" or None

    @property
    def name(self) -> str:
        """``"H8"`` style name."""
        return square_name(self.row, self.col)

    @property
    def is_centre(self) -> bool:
        return self.row == 7 and self.col == 7


class Board:
    """Read-only view of a game's board. It shares the game's squares, so it stays
    current as moves are pushed and popped; :meth:`Game.copy` gives a frozen copy.

    Squares hold ``""`` (empty), an uppercase letter, or a lowercase letter (a blank).
    """

    __slots__ = ("_cells",)

    def __init__(self, cells: Sequence[str]) -> None:
        self._cells = cells

    def __getitem__(self, index: int) -> str:
        return self._cells[index]

    def letter(self, row: int, col: int) -> str:
        """``""``, a letter, or a lowercase letter for a blank."""
        return self._cells[row * SIZE + col]

    def square(self, row: int, col: int) -> Square:
        """The square at 0-based ``(row, col)``."""
        tile = self._cells[row * SIZE + col]
        return Square(
            row,
            col,
            tile.upper() if tile else None,
            bool(tile) and tile.islower(),
            PREMIUMS[row * SIZE + col],
        )

    def rows(self) -> list[list[Square]]:
        """All squares, row by row: convenient for a template's nested loop."""
        return [[self.square(r, c) for c in range(SIZE)] for r in range(SIZE)]

    def __iter__(self) -> Iterator[Square]:
        for r in range(SIZE):
            for c in range(SIZE):
                yield self.square(r, c)

    def is_empty(self) -> bool:
        return not any(self._cells)

    def tiles(self) -> list[str]:
        """Tiles on the board as a multiset list: letters uppercase, blanks ``?``."""
        return ["?" if t.islower() else t for t in self._cells if t]

    def __str__(self) -> str:
        lines = []
        for r in range(SIZE):
            row = self._cells[r * SIZE : (r + 1) * SIZE]
            lines.append(" ".join(t or "." for t in row))
        return "\n".join(lines)
