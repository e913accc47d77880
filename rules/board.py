"""The 15x15 board: premium squares, coordinates, and a read-only view for templates.

Pure Python: this module imports nothing from Django. Squares are addressed by
0-based ``(row, col)``. A position is written in one of two notations
(:class:`Notation`); both put the row first for an across word and the column first
for a down word, but they differ in which of the two is the letter:

- *rows numbered* (GCG, English, the engine's own): rows 1-15, columns A-O. The
  centre is ``H8``; ``8H`` is across from it, ``H8`` down.
- *rows lettered* (FISF, Eliot, the French tradition): rows A-O, columns 1-15. The
  centre is ``H8`` too; ``H8`` is across from it, ``8H`` down.

So ``H4`` names row 4, column H (down) in the one and row H, column 4 (across) in the
other. The engine writes and stores rows numbered; the other is for reading and
showing a club's slips.

>>> parse_square("H8")
(7, 7)
>>> square_name(0, 14), square_name(0, 14, Notation.ROWS_LETTERED)
('O1', 'A15')
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


class Notation(Enum):
    """Which coordinate of a position is the letter (see the module docstring)."""

    #: Rows 1-15, columns A-O: ``8H`` across, ``H8`` down (GCG; today's default).
    ROWS_NUMBERED = "rows_numbered"
    #: Rows A-O, columns 1-15: ``H8`` across, ``8H`` down (FISF-2023 §1.1, §4.3.1).
    ROWS_LETTERED = "rows_lettered"


def premium(row: int, col: int) -> str | None:
    """``"DL"``, ``"TL"``, ``"DW"``, ``"TW"`` or None for the square at ``(row, col)``."""
    return PREMIUMS[row * SIZE + col]


def square_name(row: int, col: int, notation: Notation = Notation.ROWS_NUMBERED) -> str:
    """The letter then the number: ``(7, 3)`` -> ``"D8"`` rows numbered, ``"H4"`` rows
    lettered."""
    if notation is Notation.ROWS_LETTERED:
        return f"{COLUMNS[row]}{col + 1}"
    return f"{COLUMNS[col]}{row + 1}"


def index_name(index: int) -> str:
    """Name of a square given by its flat index."""
    return square_name(*divmod(index, SIZE))


_LETTER_FIRST = re.compile(r"^([A-Oa-o])(1[0-5]|[1-9])$")
_NUMBER_FIRST = re.compile(r"^(1[0-5]|[1-9])([A-Oa-o])$")


def _coordinates(text: str, notation: Notation) -> tuple[int, int, bool]:
    """``(row, col, row_first)`` of a letter and a number in either order; refuses
    anything else with ``bad_square``."""
    letter_first = _LETTER_FIRST.match(text)
    number_first = _NUMBER_FIRST.match(text)
    if letter_first:
        letter, number = letter_first.groups()
    elif number_first:
        number, letter = number_first.groups()
    else:
        raise InvalidMoveError("bad_square", square=text)
    letter_index, number_index = COLUMNS.index(letter.upper()), int(number) - 1
    if notation is Notation.ROWS_LETTERED:
        return letter_index, number_index, bool(letter_first)
    return number_index, letter_index, bool(number_first)


def parse_square(text: str, notation: Notation = Notation.ROWS_NUMBERED) -> tuple[int, int]:
    """Parse ``"H8"`` (or ``"8H"``) to 0-based ``(row, col)``.

    >>> parse_square("D8"), parse_square("H4", Notation.ROWS_LETTERED)
    ((7, 3), (7, 3))
    """
    row, col, _ = _coordinates(text.strip(), notation)
    return row, col


def parse_position(
    text: str, notation: Notation = Notation.ROWS_NUMBERED
) -> tuple[int, int, Direction]:
    """Parse a position: the row first is across, the column first down. Rows numbered
    (GCG), ``"8H"`` is across from row 8 column H and ``"H8"`` down; rows lettered,
    ``"H4"`` is across from row H column 4 and ``"4H"`` down.

    >>> parse_position("8H")
    (7, 7, <Direction.ACROSS: 'across'>)
    >>> parse_position("h8")
    (7, 7, <Direction.DOWN: 'down'>)
    >>> parse_position("H4", Notation.ROWS_LETTERED)
    (7, 3, <Direction.ACROSS: 'across'>)
    >>> parse_position("4h", Notation.ROWS_LETTERED)
    (7, 3, <Direction.DOWN: 'down'>)
    """
    row, col, row_first = _coordinates(text.strip(), notation)
    return row, col, Direction.ACROSS if row_first else Direction.DOWN


def format_position(
    row: int, col: int, direction: Direction, notation: Notation = Notation.ROWS_NUMBERED
) -> str:
    """Inverse of :func:`parse_position`.

    >>> format_position(7, 3, Direction.ACROSS), format_position(7, 3, Direction.DOWN)
    ('8D', 'D8')
    >>> [format_position(7, 3, way, Notation.ROWS_LETTERED) for way in Direction]
    ['H4', '4H']
    """
    if notation is Notation.ROWS_LETTERED:
        row_label, col_label = COLUMNS[row], str(col + 1)
    else:
        row_label, col_label = str(row + 1), COLUMNS[col]
    if direction is Direction.ACROSS:
        return row_label + col_label
    return col_label + row_label


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
