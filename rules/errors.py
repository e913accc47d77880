"""Errors raised by the rules engine, each with a stable ``code`` for translation.

Pure Python: this module imports nothing from Django. Every error is a
:class:`ValueError` whose message is plain English; the Django app shows its own
(Dutch) text by looking up :attr:`RulesError.code` and filling in
:attr:`RulesError.params`.

>>> err = IllegalMoveError("not_connected")
>>> err.code, str(err)
('not_connected', 'the word does not touch any tile already on the board')
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

from typing import Any

#: English message templates by error or warning code. The Django app keeps a
#: translated copy of this table; ``tests/rules`` checks every raised code is here.
MESSAGES: dict[str, str] = {
    # notation (InvalidMoveError)
    "bad_notation": "cannot read move {notation!r}: {reason}",
    "bad_square": "{square!r} is not a square: use a column A-O and a row 1-15, e.g. H8",
    # placement (IllegalMoveError)
    "off_board": "the word starting at {square} runs off the board",
    "square_occupied": "{square} already holds {letter}: write it as '.' or '({letter})'",
    "square_empty": "{square} is empty, so it cannot be written as an existing letter",
    "through_mismatch": "{square} holds {letter}, not {expected}",
    "no_tiles": "the move places no tiles",
    "not_in_line": "the tiles are not in one row or one column",
    "gap": "the word has a gap at {square}",
    "word_extends": "the word continues at {square}: write the whole word",
    "not_connected": "the word does not touch any tile already on the board",
    "first_not_centre": "the first word must cover the centre square H8",
    "first_too_short": "the first word must have at least two letters",
    "no_word": "the tiles form no word of two or more letters",
    "unknown_letter": "{letter!r} is not a tile of the {tiles} set",
    "too_many_tiles": "the {tiles} set has only {count} {letter} tile(s)",
    # rack and bag
    "not_in_rack": "the rack {rack} does not hold {missing}",
    "rack_too_large": "a rack holds at most {size} tiles, not {count}",
    "rack_impossible": "the rack {rack} cannot exist: {missing} are already on the board",
    "not_enough_tiles": "{player} holds only {count} tile(s)",
    # exchange and pass
    "exchange_bag_too_small": "exchanging needs at least {needed} tiles in the bag; it holds {bag}",
    "exchange_too_many": "at most {max} tiles may be exchanged",
    "exchange_empty": "an exchange must return at least one tile",
    "exchange_needs_previous_play": (
        "exchanging is allowed only after an own turn that placed tiles"
    ),
    "exchange_first_turn": "under {rules} a player may not exchange on the first turn",
    "exchange_not_allowed": "exchanging is not allowed under {rules}",
    "pass_not_allowed": "passing is not allowed under {rules} while an exchange is possible",
    # blank swap
    "blank_swap_not_allowed": "blank swaps are not allowed under {rules}",
    "not_a_blank": "{square} does not hold a blank",
    "blank_swap_repeated": "{square} is named twice",
    # challenges, clock, end
    "nothing_to_challenge": "there is no play to challenge",
    "challenger_not_to_move": "under {rules} the challenger must be the player to move",
    "flag_fall_not_in_rules": "under {rules} a flag fall does not end the game",
    "no_time_penalty_in_rules": "{rules} has no time penalty",
    "bad_player": "there is no player {player}",
    "end_rack_known": "{player}'s rack at the end is already known: {tiles}",
    "end_rack_not_over": "end racks can be given only when the game is over",
    "game_over": "the game is already over",
    "turn_limit": "{player} has already taken all {limit} turns",
    "wrong_player": "it is {expected}'s turn, not {player}'s",
    # rule sets, tile sets, GCG
    "invalid_rule_set": "invalid rule set: {reason}",
    "unknown_rule_set": "unknown rule set {name!r}; choose one of {choices}",
    "unknown_tile_set": "unknown tile set {name!r}; choose one of {choices}",
    "bad_players": "{rules} is for {min} to {max} players, not {count}",
    "gcg": "line {line}: {reason}",
    # warnings (not errors: an unchallenged phony stands)
    "not_in_lexicon": "{word} is not in the word list",
}


class RulesError(ValueError):
    """Base class of every error raised by :mod:`rules`.

    ``code`` is stable (safe to translate on); ``params`` fill the message template.
    """

    code: str = "rules_error"

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = params
        template = MESSAGES.get(self.code, self.code)
        try:
            message = template.format(**params)
        except (KeyError, IndexError):
            message = f"{self.code}: {params}"
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Keeps errors picklable (pytest-xdist ships them between processes).
        return (_rebuild, (type(self), self.code, self.params))


def _rebuild(cls: type[RulesError], code: str, params: dict[str, Any]) -> RulesError:
    return cls(code, **params)


class InvalidMoveError(RulesError):
    """The move notation cannot be read (syntax), e.g. ``parse_move("8Z CAT")``."""

    code = "bad_notation"


class IllegalMoveError(RulesError):
    """The move is well formed but not allowed in the current position."""

    code = "illegal_move"


class RuleSetError(RulesError):
    """A rule set (or its dictionary form) is invalid or unknown."""

    code = "invalid_rule_set"


class GCGError(RulesError):
    """A GCG game record cannot be read or replayed; ``line`` says where."""

    code = "gcg"

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        super().__init__(code, **params)
        self.line: int = int(params.get("line", 0))
