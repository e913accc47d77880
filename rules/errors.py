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

from typing import Any, ClassVar

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
    "rack_exceeds_set": (
        "the rack {rack} asks for {wanted} x {letter}, but the {tiles} set has only {count}"
    ),
    "rack_impossible": (
        "the rack {rack} asks for {wanted} x {letter}, but the {tiles} set has {count} "
        "and {on_board} are already on the board"
    ),
    "tiles_on_board": "{tiles} cannot be: the set has {count} x {letter} and the board {on_board}",
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
    "clock_unknown_event": "the clock knows no such event",
    "clock_unknown_player": "there is no player {player} at this clock",
    "clock_time_backwards": "the clock cannot go back to an earlier moment",
    "clock_already_started": "the clock is already running",
    "clock_not_started": "the clock has not been started",
    "clock_flag_fallen": "a flag has fallen: the clock has stopped",
    "clock_not_paused": "the clock is not paused",
    "clock_paused": "the clock is paused: resume it first",
    "clock_not_your_turn": "only the player to move can end the turn",
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
    "gcg": "{reason}",
    "gcg_encoding": "cannot decode the file as {encoding}",
    "gcg_player_line": "expected #playerN NICK FULL NAME",
    "gcg_player_order": "players must be listed in order: #player1, #player2, ...",
    "gcg_duplicate_nick": "the nickname {nick!r} is used for two players",
    "gcg_unknown_player": "unknown player {nick!r}: name the players with #player1 and #player2",
    "gcg_no_players": "the file must name two players (#player1, #player2)",
    "gcg_bad_pragma": "cannot read #{pragma}: {reason}",
    "gcg_bad_squares": "expected squares like H8,K5, not {squares!r}",
    "gcg_bad_flagfall": "expected #bordpunt-flagfall >NICK:",
    "gcg_bad_line": "a line must start with '>' or '#'",
    "gcg_no_score": "a move line ends with +SCORE TOTAL",
    "gcg_no_nick": "expected >NICK: ...",
    "gcg_unreadable": "cannot read {text!r}",
    "gcg_time_penalty": (
        "a time penalty of {score} does not fit {rules} ({per_minute} per started minute)"
    ),
    "gcg_end_rack_early": "an end-rack line before the game is over",
    "gcg_wrong_player": "this line is for {expected} but the move is {player}'s",
    "gcg_challenge_player": (
        "under {rules} a challenged word that stands scores for {scorer}: "
        "write the (challenge) line for {scorer}, not {player}"
    ),
    "gcg_score": "{notation}: recorded score {recorded:+d} but it scores {computed:+d} ({words})",
    "gcg_total": "recorded total {recorded} but the running total is {computed}",
    "gcg_end_rack_missing": "the end rack of {players} is missing",
    "gcg_end_score": (
        "recorded end-of-game {recorded:+d} for {player}, but {rules} gives {expected}"
    ),
    "gcg_end_total": "recorded total is {offset:+d} off the running total",
    "gcg_end_not_recorded": "the end-of-game {score:+d} for {player} is not recorded",
    "gcg_move": "{reason}",
    # duplicate (rules.duplicate)
    "invalid_draw_rules": "invalid duplicate draw rules: {reason}",
    "invalid_slip_rules": "invalid duplicate slip rules: {reason}",
    "invalid_duplicate_settings": "invalid duplicate settings: {reason}",
    "duplicate_over": "the duplicate game is over ({ending})",
    "duplicate_rack_drawn": "the rack {rack} is drawn already: play its top first",
    "duplicate_draw_size": "this draw takes {needed} tile(s), not {count}",
    "duplicate_not_in_bag": "the bag does not hold {tiles}",
    "duplicate_draw_minimum": (
        "the rack {rack} has fewer than {vowels} vowel(s) or {consonants} consonant(s): "
        "throw the draw back and draw again"
    ),
    "duplicate_draw_meets_minimum": "the rack {rack} meets the minimum: it is not thrown back",
    "duplicate_draw_as_cancelled": (
        "the rack {rack} is the one of the turn cancelled: throw it back and draw again"
    ),
    "duplicate_no_different_draw": (
        "the tiles left can give no rack other than {rack}: the game ends"
    ),
    "duplicate_no_rack": "no rack is drawn yet",
    "duplicate_no_play": "no word can be made with {rack}: the game ends",
    "duplicate_not_a_top": "{play} is not a top: the top scores {score}",
    "duplicate_no_turn": "there is no turn {turn}",
    "duplicate_bag_order": "a bag order must hold the whole {tiles} set ({count} tiles)",
    "duplicate_not_a_play": "{notation} is not a play: a slip holds a position and a word",
    # the result of a table (rules/result.py: `places`)
    "seats_differ": "the result does not name every seat once",
    "bye_one_seat": "a bye has one seat and no score",
    "table_size": "a table has 2 to 4 seats",
    "forfeit_has_no_scores": "a forfeit has no scores and no flag fall",
    "forfeit_without_forfeiter": "a forfeit names who did not play",
    "unknown_outcome": "not an outcome of a game",
    "scores_missing": "a game played on the board has the score of every player who came",
    "two_must_play": "a game played on the board has two players who came, at least",
    "flag_without_flag_fall": "a flag fell, yet the outcome is not a flag fall",
    "flag_fall_without_flag": "a flag fall names whose flag fell",
    "every_flag_fell": "not every flag can fall: someone wins",
    # warnings (not errors: an unchallenged phony stands)
    "not_in_lexicon": "{word} is not in the word list",
}


class RulesError(ValueError):
    """Base class of every error raised by :mod:`rules`.

    ``code`` is stable (safe to translate on); ``params`` fill the message template.
    """

    #: The code of an error of this class raised without one. A class variable apart
    #: from the instance's ``code``: compiled with mypyc (docs/deployment.md), a
    #: subclass's class-level default of an instance attribute is never applied.
    default_code: ClassVar[str] = "rules_error"

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        self.code: str = self.default_code if code is None else code
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

    default_code = "bad_notation"


class IllegalMoveError(RulesError):
    """The move is well formed but not allowed in the current position."""

    default_code = "illegal_move"


class RuleSetError(RulesError):
    """A rule set (or its dictionary form) is invalid or unknown."""

    default_code = "invalid_rule_set"


class GCGError(RulesError):
    """A GCG game record cannot be read or replayed; ``line`` says where.

    ``code`` is ``gcg_...`` for a problem of the file itself, or ``gcg_move`` for a
    move the engine refused (its code and parameters in ``cause`` / ``cause_params``).
    ``reason`` is the message without the line number.

    >>> err = GCGError("gcg_bad_line", line=7)
    >>> str(err), err.line, err.reason
    ("line 7: a line must start with '>' or '#'", 7, "a line must start with '>' or '#'")
    """

    default_code = "gcg"

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        super().__init__(code, **params)
        self.line: int = int(params.get("line", 0))
        self.reason: str = super().__str__()
        self.args = (f"line {self.line}: {self.reason}",)
