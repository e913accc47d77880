"""Tile sets as data: which letters exist, how many of each, what each is worth.

Pure Python: this module imports nothing from Django. A tile set is a value
(:class:`TileSet`); the Dutch set (102 tiles) and the English set (100 tiles, for
GCG interop) are provided. A blank is written ``?`` in racks and as the lowercase
letter it stands for on the board.

>>> DUTCH.total, DUTCH.count("E"), DUTCH.value("Q"), DUTCH.value("q")
(102, 18, 10, 0)
>>> ENGLISH.rack_value("QI?")
11
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.errors import IllegalMoveError, RulesError

BLANK = "?"
#: Bounds that no real tile set comes near; they keep a bag a bag (not a memory bomb).
MAX_COUNT = 100
MAX_VALUE = 1000


@dataclass(frozen=True)
class TileSet:
    """Letters with their counts and values, plus the number of blanks."""

    name: str
    letters: Mapping[str, tuple[int, int]]  # letter -> (count, value)
    blanks: int = 2
    # Lookup tables built once: the scoring hot path reads these.
    _values: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)
    _counts: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        letters = dict(self.letters)
        for letter, (count, value) in letters.items():
            if len(letter) != 1 or not ("A" <= letter <= "Z"):
                raise RulesError("invalid_rule_set", reason=f"tile letter {letter!r} is not A-Z")
            if not (0 <= count <= MAX_COUNT and 0 <= value <= MAX_VALUE):
                raise RulesError(
                    "invalid_rule_set",
                    reason=f"{letter}: count 0-{MAX_COUNT} and value 0-{MAX_VALUE}",
                )
        if not 0 <= self.blanks <= MAX_COUNT:
            raise RulesError("invalid_rule_set", reason=f"blanks must be 0-{MAX_COUNT}")
        object.__setattr__(self, "letters", letters)
        values = {letter: value for letter, (_, value) in letters.items()}
        values.update({letter.lower(): 0 for letter in letters})
        values[BLANK] = 0
        counts = {letter: count for letter, (count, _) in letters.items()}
        counts[BLANK] = self.blanks
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_counts", counts)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.letters.items())), self.blanks))

    @property
    def total(self) -> int:
        """Number of tiles in the set, blanks included."""
        return sum(count for count, _ in self.letters.values()) + self.blanks

    def count(self, tile: str) -> int:
        """How many tiles of ``tile`` (a letter, or ``?`` for blanks) the set holds."""
        return self._counts.get(tile, 0)

    def value(self, tile: str) -> int:
        """Face value of a tile; lowercase letters (blanks on the board) and ``?`` are 0."""
        return self._values.get(tile, 0)

    def rack_value(self, tiles: Iterable[str]) -> int:
        """Sum of face values, e.g. of a rack left at the end of the game."""
        values = self._values
        return sum(values.get(tile, 0) for tile in tiles)

    def is_tile(self, tile: str) -> bool:
        """True for a letter of this set (either case) or ``?``."""
        return tile in self._values

    def bag(self) -> Counter[str]:
        """The full set as a multiset: letters uppercase, blanks as ``?``."""
        return Counter(self._counts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: ``{"name", "blanks", "letters": {letter: [count, value]}}``."""
        return {
            "name": self.name,
            "blanks": self.blanks,
            "letters": {k: [c, v] for k, (c, v) in sorted(self.letters.items())},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TileSet:
        """Inverse of :meth:`to_dict`; raises :class:`RulesError` on bad data."""
        try:
            if not isinstance(data, Mapping) or not isinstance(data.get("letters"), Mapping):
                raise TypeError('expected {"name", "blanks", "letters": {...}}')
            letters = {str(k): (_whole(c), _whole(v)) for k, (c, v) in data["letters"].items()}
            return cls(str(data["name"]), letters, _whole(data.get("blanks", 2)))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError):
                raise
            raise RulesError("invalid_rule_set", reason=f"bad tile set: {exc}") from None


def _whole(value: Any) -> int:
    """An int from JSON: whole numbers only (no floats, strings or booleans)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _parse_table(table: str) -> dict[str, tuple[int, int]]:
    letters = {}
    for item in table.split():
        letter, rest = item[0], item[1:]
        count, value = rest.split("/")
        letters[letter] = (int(count), int(value))
    return letters


#: The Dutch set: 100 letters and 2 blanks.
DUTCH = TileSet(
    "dutch",
    _parse_table(
        "A6/1 B2/3 C2/5 D5/2 E18/1 F2/4 G3/3 H2/4 I4/1 J2/4 K3/3 L3/3 M3/3 N10/1 "
        "O6/1 P2/3 Q1/10 R5/2 S5/2 T5/2 U3/4 V2/4 W2/5 X1/8 Y1/8 Z2/4"
    ),
    blanks=2,
)

#: The standard English set: 98 letters and 2 blanks.
ENGLISH = TileSet(
    "english",
    _parse_table(
        "A9/1 B2/3 C2/3 D4/2 E12/1 F2/4 G3/2 H2/4 I9/1 J1/8 K1/5 L4/1 M2/3 N6/1 "
        "O8/1 P2/3 Q1/10 R6/1 S4/1 T6/1 U4/1 V2/4 W2/4 X1/8 Y2/4 Z1/10"
    ),
    blanks=2,
)

TILE_SETS: dict[str, TileSet] = {"dutch": DUTCH, "english": ENGLISH}


def tile_set(name: str) -> TileSet:
    """Look up a tile set by name (``"dutch"`` or ``"english"``)."""
    try:
        return TILE_SETS[name.lower()]
    except KeyError:
        raise RulesError(
            "unknown_tile_set", name=name, choices=", ".join(sorted(TILE_SETS))
        ) from None


def parse_rack(text: str, tiles: TileSet) -> str:
    """Normalise a rack: uppercase letters and ``?``, sorted with blanks last.

    >>> parse_rack("zeb?a", DUTCH)
    'ABEZ?'
    """
    rack = text.strip().upper()
    for tile in rack:
        if not tiles.is_tile(tile):
            raise IllegalMoveError("unknown_letter", letter=tile, tiles=tiles.name)
    return "".join(sorted(rack, key=lambda t: (t == BLANK, t)))
