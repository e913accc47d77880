"""A duplicate evening's plays shown in the club's slip notation (`Club.slip_notation`).

What is stored stays as it was made: a slip's text as the player typed it, with the
notation it was typed in (`Slip.written_in`); a top, and the squares in a slip's reason,
in the engine's notation (rows numbered). They are written in the club's notation only
here, when a page shows them, so a club that changes its notation sees every old slip in
the new one, scored as before. The template filters of ``{% load slip_notation %}`` call
these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _

from games.rule_messages import describe
from rules.board import (
    Direction,
    Notation,
    format_position,
    parse_position,
    parse_square,
    square_name,
)
from rules.errors import InvalidMoveError
from rules.move import rewrite_position

if TYPE_CHECKING:
    from duplicate.models import Slip

ENGINE = Notation.ROWS_NUMBERED

#: How a player reads a direction the engine understood.
DIRECTIONS = {Direction.ACROSS: _("across"), Direction.DOWN: _("down")}


def slip_shown(slip: Slip, notation: Notation | str) -> str:
    """The slip as typed, its position written in ``notation``."""
    return rewrite_position(slip.text, source=Notation(slip.written_in), target=Notation(notation))


def play_shown(play: str, notation: Notation | str) -> str:
    """A play in the engine's notation (a top, a slip as the engine read it) in
    ``notation``."""
    return rewrite_position(play, source=ENGINE, target=Notation(notation))


def square_shown(name: str, notation: Notation | str) -> str:
    """A square the engine named (``D8``) in ``notation``; anything else as it is."""
    try:
        row, col = parse_square(name, ENGINE)
    except InvalidMoveError:
        return name
    return square_name(row, col, Notation(notation))


def reason_shown(code: str, params: dict[str, Any], notation: Notation | str) -> str:
    """Why a slip scores 0, in the reader's language, its square in ``notation``."""
    if isinstance(params.get("square"), str) and code != "bad_square":  # bad_square: as typed
        params = {**params, "square": square_shown(params["square"], notation)}
    return describe(code, params)


def play_read(play: str, notation: Notation | str) -> dict[str, str]:
    """Where the engine put a slip (``play`` in its own notation), for the player to check
    before handing it in: ``{"position": "H4", "direction": "across"}`` in ``notation``."""
    try:
        row, col, direction = parse_position(play.split(" ", 1)[0], ENGINE)
    except InvalidMoveError:
        return {}
    return {
        "position": format_position(row, col, direction, Notation(notation)),
        "direction": str(DIRECTIONS[direction]),
    }
