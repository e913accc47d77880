"""Moves as small hashable values, with notation parsing and formatting.

Pure Python: this module imports nothing from Django. Notation follows GCG where GCG
has a form, and adds a few forms for what it lacks:

==========================  ===============================================
``8H WORD`` / ``H8 WORD``   play across from row 8 col H / down from H8;
                            ``.`` or ``(LI)`` marks letters already on the
                            board; a lowercase letter is a blank
``-ABC`` / ``-3``           exchange these tiles / this many tiles
``-``                       pass
``swap H8 K5`` / ``*H8 K5`` blank swap (Gouds 8): real tiles replace the blanks
``(challenge)`` / ``?+``    a challenged word was upheld (valid)
``--`` / ``?-``             a challenged word was invalid and taken back
``(time 2)``                2 started minutes over time
``(flagfall)`` / ``!``      the flag of the player to move fell
``(annulled)``              the game was not properly played
``(ABC)``                   rack left at the end of the game
==========================  ===============================================

The short forms (``*``, ``?+``, ``?-``, ``!``) are for typing at the board: each costs at
most two keys beyond its squares. A move's :meth:`notation` is always the long form.

>>> move = parse_move("8h JAVE(li)N")
>>> move.notation()
'8H JAVE(LI)N'
>>> parse_move("-3") == Exchange(count=3)
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.board import (
    Direction,
    Notation,
    format_position,
    parse_position,
    parse_square,
    square_name,
)
from rules.errors import InvalidMoveError

_WORD_TOKEN = re.compile(r"\(([A-Za-z]+)\)|([A-Za-z])|(\.)")


@dataclass(frozen=True, slots=True)
class Play:
    """Place tiles forming ``word`` from ``(row, col)`` (0-based) in ``direction``.

    ``word`` is the whole main word; squares already holding a tile are written ``.``
    or as ``(LETTERS)``; a lowercase letter is a blank standing for that letter.
    """

    row: int
    col: int
    direction: Direction
    word: str
    # (offset, letter) for each new tile, and (offset, expected letter or "") for each
    # square played through; computed once since validation reads them every time.
    placed: tuple[tuple[int, str], ...] = field(init=False, compare=False, repr=False)
    through: tuple[tuple[int, str], ...] = field(init=False, compare=False, repr=False)
    length: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        placed: list[tuple[int, str]] = []
        through: list[tuple[int, str]] = []
        offset = 0
        pos = 0
        text = self.word
        while pos < len(text):
            match = _WORD_TOKEN.match(text, pos)
            if match is None:
                raise InvalidMoveError(
                    notation=text,
                    reason=f"unexpected {text[pos]!r} in the word",
                    detail="unexpected_character",
                    character=text[pos],
                )
            inside, letter, _dot = match.groups()
            if inside:
                for ch in inside:
                    through.append((offset, ch.upper()))
                    offset += 1
            elif letter:
                if not letter.isascii():
                    raise InvalidMoveError(
                        notation=text,
                        reason=f"{letter!r} is not A-Z",
                        detail="not_a_to_z",
                        letter=letter,
                    )
                placed.append((offset, letter))
                offset += 1
            else:
                through.append((offset, ""))
                offset += 1
            pos = match.end()
        if offset == 0:
            raise InvalidMoveError(notation=text, reason="the word is empty", detail="empty_word")
        if not (0 <= self.row < 15 and 0 <= self.col < 15):
            raise InvalidMoveError(
                notation=text,
                reason="the start square is off the board",
                detail="start_off_board",
            )
        object.__setattr__(self, "placed", tuple(placed))
        object.__setattr__(self, "through", tuple(through))
        object.__setattr__(self, "length", offset)

    @classmethod
    def parse(cls, position: str, word: str, notation: Notation = Notation.ROWS_NUMBERED) -> Play:
        """``Play.parse("8H", "WORD")``."""
        row, col, direction = parse_position(position, notation)
        return cls(row, col, direction, _canonical_word(word))

    @property
    def position(self) -> str:
        """GCG position: ``8H`` for across, ``H8`` for down."""
        return format_position(self.row, self.col, self.direction)

    def notation(self) -> str:
        return f"{self.position} {self.word}"

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Exchange:
    """Exchange ``tiles`` (``?`` for a blank) or, when they are unknown, ``count`` tiles."""

    tiles: str | None = None
    count: int = 0

    def __post_init__(self) -> None:
        if self.tiles is not None:
            tiles = self.tiles.upper()
            if not re.fullmatch(r"[A-Z?]+", tiles):
                raise InvalidMoveError(
                    notation=f"-{self.tiles}",
                    reason="exchange tiles must be letters or ?",
                    detail="exchange_letters",
                )
            object.__setattr__(self, "tiles", "".join(sorted(tiles, key=_rack_order)))
            object.__setattr__(self, "count", len(tiles))
        elif self.count < 1:
            raise InvalidMoveError(
                notation=f"-{self.count}",
                reason="exchange at least 1 tile",
                detail="exchange_count",
            )

    def notation(self) -> str:
        return f"-{self.tiles}" if self.tiles is not None else f"-{self.count}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing this turn."""

    def notation(self) -> str:
        return "-"


@dataclass(frozen=True, slots=True)
class BlankSwap:
    """Gouds 8: replace the blanks on these squares (0-based ``(row, col)``) by real tiles."""

    squares: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.squares) <= 2:
            raise InvalidMoveError(
                notation=self.notation(),
                reason="a blank swap names one or two squares",
                detail="swap_squares",
            )
        object.__setattr__(self, "squares", tuple(tuple(sq) for sq in self.squares))

    def notation(self) -> str:
        return "swap " + " ".join(square_name(r, c) for r, c in self.squares)


@dataclass(frozen=True, slots=True)
class Challenge:
    """Outcome of a challenge of the last play: ``valid`` word upheld, or invalid and
    taken back. ``challenger`` defaults to the player to move."""

    valid: bool
    challenger: int | None = None

    def notation(self) -> str:
        return "(challenge)" if self.valid else "--"


@dataclass(frozen=True, slots=True)
class TimePenalty:
    """``player`` went over time by ``minutes`` started minutes."""

    player: int
    minutes: int

    def notation(self) -> str:
        return f"(time {self.minutes})"


@dataclass(frozen=True, slots=True)
class FlagFall:
    """The flag of ``player`` (default: the player to move) fell; Gouds 8: they lose."""

    player: int | None = None

    def notation(self) -> str:
        return "(flagfall)"


@dataclass(frozen=True, slots=True)
class Annul:
    """The game was not properly played (a lasting dispute): no result."""

    def notation(self) -> str:
        return "(annulled)"


@dataclass(frozen=True, slots=True)
class EndRack:
    """The tiles ``player`` held when the game ended, for the end-of-game adjustment.

    Needed only when the engine cannot work the rack out itself (racks unknown).
    """

    player: int
    tiles: str

    def __post_init__(self) -> None:
        tiles = self.tiles.upper()
        if not re.fullmatch(r"[A-Z?]*", tiles):
            raise InvalidMoveError(
                notation=f"({self.tiles})",
                reason="rack must be letters or ?",
                detail="rack_letters",
            )
        object.__setattr__(self, "tiles", "".join(sorted(tiles, key=_rack_order)))

    def notation(self) -> str:
        return f"({self.tiles})"


Move = Play | Exchange | Pass | BlankSwap | Challenge | TimePenalty | FlagFall | Annul | EndRack

#: Moves that take the player's turn.
TURN_MOVES = (Play, Exchange, Pass, BlankSwap)


def _rack_order(tile: str) -> tuple[bool, str]:
    return (tile == "?", tile)


def _canonical_word(word: str) -> str:
    # Parenthesised letters are kept but uppercased so equal moves compare equal.
    return re.sub(r"\(([A-Za-z]+)\)", lambda m: f"({m.group(1).upper()})", word.strip())


_TIME = re.compile(r"^\(time\s*(\d+)\)$", re.IGNORECASE | re.ASCII)
_END_RACK = re.compile(r"^\(([A-Za-z?]*)\)$")


def parse_move(text: str, *, player: int = 0, notation: Notation = Notation.ROWS_NUMBERED) -> Move:
    """Parse move notation (see the module docstring).

    ``player`` is used for the forms that name no player but need one
    (``(time N)`` and ``(ABC)``); ``notation``: how the squares are written (rows
    numbered, as GCG, unless told). Raises :class:`InvalidMoveError`.

    >>> parse_move("H8 zOEN").notation()
    'H8 zOEN'
    >>> parse_move("swap H8 K5")
    BlankSwap(squares=((7, 7), (4, 10)))
    >>> parse_move("H4 ZOeN", notation=Notation.ROWS_LETTERED).notation()
    '8D ZOeN'
    """
    text = " ".join(text.split())
    lower = text.lower()
    if text == "-":
        return Pass()
    if text in ("--", "?-"):
        return Challenge(valid=False)
    if lower in ("(challenge)", "?+"):
        return Challenge(valid=True)
    if lower in ("(flagfall)", "!"):
        return FlagFall()
    if text.startswith("?"):
        raise InvalidMoveError(
            notation=text,
            reason="a challenge is ?+ (the word stands) or ?- (the word is removed)",
            detail="challenge_form",
        )
    if text.startswith("*"):
        return _blank_swap(text, text[1:], notation)
    if lower == "(annulled)":
        return Annul()
    match = _TIME.match(text)
    if match:
        return TimePenalty(player, int(match.group(1)))
    match = _END_RACK.match(text)
    if match:
        return EndRack(player, match.group(1))
    if text.startswith("-"):
        rest = text[1:]
        if rest.isascii() and rest.isdigit():
            return Exchange(count=int(rest))
        if re.fullmatch(r"[A-Za-z?]+", rest):
            return Exchange(tiles=rest)
        raise InvalidMoveError(
            notation=text,
            reason="an exchange is -TILES or -COUNT",
            detail="exchange_form",
        )
    parts = text.split(" ")
    if parts[0].lower() == "swap":
        return _blank_swap(text, text[4:], notation)
    if len(parts) != 2:
        raise InvalidMoveError(
            notation=text,
            reason="a play is POSITION WORD, e.g. 8H WORD",
            detail="play_form",
        )
    try:
        row, col, direction = parse_position(parts[0], notation)
    except InvalidMoveError:
        raise InvalidMoveError(
            notation=text,
            reason=f"{parts[0]!r} is not a position like 8H or H8",
            detail="bad_position",
            position=parts[0],
        ) from None
    return Play(row, col, direction, _canonical_word(parts[1]))


def _blank_swap(text: str, squares: str, notation: Notation) -> BlankSwap:
    """``swap H8 K5`` or ``*H8 K5``: the squares after the keyword, by spaces or commas."""
    names = squares.replace(",", " ").split()
    if not names:
        raise InvalidMoveError(
            notation=text,
            reason="name the squares of the blanks",
            detail="swap_no_squares",
        )
    if len(names) > 2:
        raise InvalidMoveError(
            notation=text,
            reason="a blank swap names one or two squares",
            detail="swap_squares",
        )
    return BlankSwap(tuple(parse_square(name, notation) for name in names))


def rewrite_position(text: str, *, source: Notation, target: Notation) -> str:
    """``text``, a play as written (``POSITION WORD``), with its position read in
    ``source`` and written in ``target``: the same square and direction, for showing a
    play in a club's notation. Anything that is not a play with a readable position
    (an exchange, a pass, a refused slip's text) comes back as it is.

    >>> numbered, lettered = Notation.ROWS_NUMBERED, Notation.ROWS_LETTERED
    >>> rewrite_position("8D KAAS", source=numbered, target=lettered)
    'H4 KAAS'
    >>> rewrite_position("4h kaas", source=lettered, target=numbered)
    'D8 kaas'
    >>> rewrite_position("-ABC", source=numbered, target=lettered)
    '-ABC'
    """
    position, space, rest = text.partition(" ")
    if source is target:
        return text
    try:
        row, col, direction = parse_position(position, source)
    except InvalidMoveError:
        return text
    return format_position(row, col, direction, target) + space + rest
