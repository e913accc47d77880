"""The rules engine's error and warning codes in the user's language.

The engine speaks English with a stable code per message (rules.errors.MESSAGES); this
table holds the translatable texts the pages show. A test checks every code the engine
and the GCG reader can raise is here (``gcg_move`` excepted: it shows its cause's text).

The database stores codes, never sentences: a move's warnings and problem are
``{"code": ..., "params": {...}}`` (see `coded`), rendered by `describe` in the reader's
language when a page is shown.
"""

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

import rules

MESSAGES = {
    "bad_notation": _("Cannot read the move “{notation}”: {reason}."),
    "bad_square": _("“{square}” is not a square: use a column A–O and a row 1–15, e.g. H8."),
    "off_board": _("The word starting at {square} runs off the board."),
    "square_occupied": _("{square} already holds {letter}: write it as “.” or “({letter})”."),
    "square_empty": _("{square} is empty, so it cannot be written as a letter on the board."),
    "through_mismatch": _("{square} holds {letter}, not {expected}."),
    "no_tiles": _("The move places no tiles."),
    "not_in_line": _("The tiles are not in one row or one column."),
    "gap": _("The word has a gap at {square}."),
    "word_extends": _("The word continues at {square}: write the whole word."),
    "not_connected": _("The word does not touch any tile on the board."),
    "first_not_centre": _("The first word must cover the centre square H8."),
    "first_too_short": _("The first word must have at least two letters."),
    "no_word": _("The tiles form no word of two or more letters."),
    "unknown_letter": _("“{letter}” is not a tile of this tile set."),
    "too_many_tiles": _("The tile set has only {count} × {letter}."),
    "not_in_rack": _("The rack {rack} does not hold {missing}."),
    "rack_too_large": _("A rack holds at most {size} tiles, not {count}."),
    "rack_exceeds_set": _(
        "The rack {rack} asks for {wanted} × {letter}, but the tile set has only {count}."
    ),
    "rack_impossible": _(
        "The rack {rack} asks for {wanted} × {letter}, but the tile set has {count} and "
        "{on_board} are already on the board."
    ),
    "tiles_on_board": _(
        "{tiles} cannot be: the tile set has {count} × {letter}, {on_board} of them on the board."
    ),
    "not_enough_tiles": _("{player} holds only {count} tile(s)."),
    "exchange_bag_too_small": _(
        "Exchanging needs at least {needed} tiles in the bag; it holds {bag}."
    ),
    "exchange_too_many": _("At most {max} tiles may be exchanged."),
    "exchange_empty": _("An exchange must return at least one tile."),
    "exchange_needs_previous_play": _(
        "Exchanging is allowed only after an own turn that placed tiles."
    ),
    "exchange_first_turn": _("Under these rules a player may not exchange on the first turn."),
    "exchange_not_allowed": _("Exchanging is not allowed under these rules."),
    "pass_not_allowed": _(
        "Passing is not allowed under these rules while an exchange is possible."
    ),
    "blank_swap_not_allowed": _("Blank swaps are not allowed under these rules."),
    "not_a_blank": _("{square} does not hold a blank."),
    "blank_swap_repeated": _("{square} is named twice."),
    "nothing_to_challenge": _("There is no play to challenge."),
    "challenger_not_to_move": _("The challenger must be the player to move."),
    "flag_fall_not_in_rules": _("Under these rules a flag fall does not end the game."),
    "no_time_penalty_in_rules": _("These rules have no time penalty."),
    "clock_unknown_event": _("The clock knows no such event."),
    "clock_unknown_player": _("There is no such player at this clock."),
    "clock_time_backwards": _("The clock cannot go back to an earlier moment."),
    "clock_already_started": _("The clock is already running."),
    "clock_not_started": _("The clock has not been started yet."),
    "clock_flag_fallen": _("A flag has fallen: the clock has stopped."),
    "clock_not_paused": _("The clock is not paused."),
    "clock_paused": _("The clock is paused: resume it first."),
    "clock_not_your_turn": _("Only the player to move can end the turn."),
    "bad_player": _("There is no player {player}."),
    "end_rack_known": _("{player}'s rack at the end is already known: {tiles}."),
    "end_rack_not_over": _("End racks can be given only when the game is over."),
    "game_over": _("The game is already over."),
    "turn_limit": _("{player} has already taken all {limit} turns."),
    "wrong_player": _("It is {expected}'s turn, not {player}'s."),
    "invalid_rule_set": _("Invalid rule set: {reason}."),
    "unknown_rule_set": _("Unknown rule set “{name}”."),
    "unknown_tile_set": _("Unknown tile set “{name}”."),
    "bad_players": _("These rules are for {min} to {max} players, not {count}."),
    "gcg": _("Line {line}: {reason}"),
    # GCG files (shown after "Line N: ", see error_message)
    "gcg_encoding": _("The file cannot be read as {encoding}."),
    "gcg_player_line": _("Expected #playerN NICKNAME FULL NAME."),
    "gcg_player_order": _("The players must be listed in order: #player1, #player2, …"),
    "gcg_duplicate_nick": _("The nickname “{nick}” is used for two players."),
    "gcg_unknown_player": _(
        "Unknown player “{nick}”: name the players with #player1 and #player2."
    ),
    "gcg_no_players": _("The file must name two players (#player1 and #player2)."),
    "gcg_bad_pragma": _("#{pragma} names no rule set or tile set that Bordpunt knows."),
    "gcg_bad_squares": _("Expected squares such as H8,K5, not “{squares}”."),
    "gcg_bad_flagfall": _("Expected #bordpunt-flagfall >NICKNAME:"),
    "gcg_bad_line": _("A line must start with “>” or “#”."),
    "gcg_no_score": _("A move line ends with +SCORE TOTAL."),
    "gcg_no_nick": _("Expected >NICKNAME: …"),
    "gcg_unreadable": _("Cannot read “{text}”."),
    "gcg_time_penalty": _("A time penalty of {score} does not fit these rules."),
    "gcg_end_rack_early": _("An end-rack line before the game is over."),
    "gcg_wrong_player": _("This line is for {expected}, but the move is {player}’s."),
    "gcg_challenge_player": _(
        "Under these rules a challenged word that stands scores for {scorer}: write the "
        "(challenge) line for {scorer}, not for {player}."
    ),
    "gcg_score": _("{notation}: recorded score {recorded}, but it scores {computed} ({words})."),
    "gcg_total": _("Recorded total {recorded}, but the running total is {computed}."),
    "gcg_end_rack_missing": _("The end rack of {players} is missing."),
    "gcg_end_score": _(
        "Recorded end-of-game score {recorded} for {player}, but these rules give {expected}."
    ),
    "gcg_end_total": _("The recorded total is {offset} off the running total."),
    "gcg_end_not_recorded": _("The end-of-game score {score} for {player} is not recorded."),
    "not_in_lexicon": _("{word} is not in the word list."),
    # duplicate (rules.duplicate)
    "invalid_draw_rules": _("Invalid duplicate draw rules: {reason}."),
    "duplicate_over": _("The duplicate game is over."),
    "duplicate_rack_drawn": _("The rack {rack} is drawn already: play its top first."),
    "duplicate_draw_size": _("This draw takes {needed} tile(s), not {count}."),
    "duplicate_not_in_bag": _("The bag does not hold {tiles}."),
    "duplicate_draw_minimum": _(
        "The rack {rack} has too few vowels or consonants: throw the draw back and draw again."
    ),
    "duplicate_no_rack": _("No rack is drawn yet."),
    "duplicate_no_play": _("No word can be made with {rack}: the game ends."),
    "duplicate_not_a_top": _("{play} is not a top: the top scores {score}."),
    "duplicate_no_turn": _("There is no turn {turn}."),
    "duplicate_bag_order": _("A bag order must hold the whole {tiles} set ({count} tiles)."),
    "duplicate_not_a_play": _("{notation} is not a play: a slip holds a position and a word."),
    "duplicate_draw_meets_minimum": _("The rack {rack} meets the minimum: it is not thrown back."),
    "duplicate_draw_as_cancelled": _(
        "The rack {rack} is the one of the turn played again: throw it back and draw again."
    ),
    "duplicate_no_different_draw": _(
        "The tiles left can give no rack other than {rack}: under the rules the game ends here."
    ),
    # the duplicate referee (rules.referee): its settings, and a slip's faults
    "invalid_slip_rules": _("Invalid duplicate slip rules: {reason}."),
    "invalid_duplicate_settings": _("Invalid duplicate settings: {reason}."),
    "score_wrong": _("The score written is not the play's score."),
    "score_missing": _("No score is written."),
    "blank_unmarked": _("A blank is not marked: write its letter in lowercase."),
    "reference_swapped": _("The coordinates are the wrong way round for this direction."),
    "position_off": _("The word is not where it is written."),
    # Bordpunt's own (a move that waits for an earlier one to be corrected)
    "not_scored_until": _("Not scored until move {number} is corrected."),
    # the result of a table (rules.result.places)
    "seats_differ": _("The result does not name every player at the table once."),
    "bye_one_seat": _("A bye has one player and no board points."),
    "table_size": _("A table has 2 to 4 players."),
    "forfeit_has_no_scores": _("A forfeit has no board points and no flag fall."),
    "forfeit_without_forfeiter": _("A forfeit names the player who did not play."),
    "unknown_outcome": _("This is not a way a game can end."),
    "scores_missing": _(
        "A game played on the board has the board points of every player who came."
    ),
    "two_must_play": _("A game played on the board needs two players who came, at least."),
    "flag_without_flag_fall": _("A flag fell, yet the game is not a flag fall."),
    "flag_fall_without_flag": _("A flag fall names the player whose flag fell."),
    "every_flag_fell": _("Not every player's flag can fall: someone must win."),
}

#: Why the engine cannot read a notation (``bad_notation``'s ``detail``), so that the
#: engine's English ``reason`` never appears inside a Dutch sentence.
NOTATION_DETAILS = {
    "unexpected_character": _("“{character}” does not belong in a word"),
    "not_a_to_z": _("“{letter}” is not a letter A–Z"),
    "empty_word": _("the word is empty"),
    "start_off_board": _("the start square is off the board"),
    "exchange_letters": _("the tiles to exchange must be letters or ?"),
    "exchange_count": _("exchange at least one tile"),
    "swap_squares": _("a blank swap names one or two squares"),
    "rack_letters": _("a rack must be letters or ?"),
    "exchange_form": _("an exchange is written -TILES or -NUMBER"),
    "swap_no_squares": _("name the squares of the blanks"),
    "challenge_form": _("a challenge is written ?+ (the word stands) or ?- (the word is removed)"),
    "play_form": _("a play is written POSITION WORD, e.g. 8H WORD"),
    "bad_position": _("“{position}” is not a position such as 8H or H8"),
}

#: How the engine names a blank in a message's ``letter``: shown as the word, translated.
BLANK_NAMES = ("?", "blank")

#: A sentence stored before codes were: shown as it is, in the language it was saved in.
TEXT = "text"


def message(code: str, params: dict[str, Any] | tuple[tuple[str, Any], ...]) -> str:
    """The translated text for an engine code; the engine's English when unknown."""
    params = dict(params)
    return _format(MESSAGES.get(code) or rules.MESSAGES.get(code, code), params)


def describe(code: str, params: Mapping[str, Any] | None = None) -> str:
    """A stored code with its parameters as text in the reader's (the active) language."""
    params = dict(params or {})
    if code == TEXT:
        return str(params.get("text", ""))
    if params.get("letter") in BLANK_NAMES:
        params["letter"] = _("blank")
    if code == "bad_notation" and params.get("detail") in NOTATION_DETAILS:
        params["reason"] = _format(NOTATION_DETAILS[params["detail"]], params)
    return message(code, params)


def _format(template: Any, params: Mapping[str, Any]) -> str:
    try:
        return str(template).format(**params)
    except (KeyError, IndexError, ValueError):
        return str(template)


def coded(code: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What the database keeps of a message: its code and JSON-safe parameters."""
    return {"code": code, "params": _json_safe(dict(params or {}))}


def coded_error(error: rules.RulesError) -> dict[str, Any]:
    return coded(error.code, error.params)


def _json_safe(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def describe_stored(stored: Any) -> str:
    """One stored ``{"code", "params"}`` as text; a bare string (older rows) as it is."""
    if isinstance(stored, Mapping):
        return describe(str(stored.get("code", "")), stored.get("params") or {})
    return str(stored)


def error_message(error: rules.RulesError) -> str:
    """The error in the reader's language; a GCG error starts with its line number."""
    if not isinstance(error, rules.GCGError) or error.code == "gcg":
        return describe(error.code, error.params)
    params = error.params
    if error.code == "gcg_move":
        reason = describe(params.get("cause", ""), params.get("cause_params", {}))
    else:
        reason = describe(error.code, params)
    return _("Line %(line)s: %(reason)s") % {"line": error.line, "reason": reason}


#: How the notations that are not a play begin (rules.move): their letters are no blanks.
SPECIAL_PREFIXES = ("-", "(", "swap", "*", "?", "!")


def typed_blanks(notation: str) -> str:
    """The letters of a typed play that the engine reads as blanks (lowercase, outside
    ``(...)``, which marks letters already on the board); "" for other moves."""
    parts = notation.split(maxsplit=1)
    if len(parts) != 2 or notation.lstrip().lower().startswith(SPECIAL_PREFIXES):
        return ""
    word = re.sub(r"\([^)]*\)", "", parts[1])
    return "".join(letter for letter in word if letter.isalpha() and letter.islower())


def blank_hint(notation: str) -> str:
    """Said whenever lowercase letters were typed in a play: they are blanks, worth 0."""
    blanks = typed_blanks(notation)
    if not blanks:
        return ""
    return ngettext(
        "A lowercase letter is a blank: %(letters)s (0 points).",
        "Lowercase letters are blanks: %(letters)s (0 points).",
        len(blanks),
    ) % {"letters": ", ".join(blanks.upper())}


def refusal(error: rules.RulesError, notation: str) -> str:
    """Why a typed move is refused; when lowercase was typed, that it was read as blanks."""
    text = error_message(error)
    hint = blank_hint(notation)
    if hint:
        capitals = _("Type capitals for ordinary tiles.")
        text = f"{text} {hint} {capitals}"
    return text
