"""The duplicate rules as the app shows them: a label for every setting of
`rules.referee.DuplicateSettings` (its draw rules and its slip rules) and for the values
a setting takes. The settings form and the history's sentences read them here, so a rule
is named the same on both.

Keys are "<part>.<field>", as the history keeps a change ("slips.turn_seconds").
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

#: The presets a club starts from (`rules.referee.PRESETS`).
PRESET_LABELS = {
    "ntsv": _("NTSV (Dutch-language duplicate)"),
    "fisf": _("FISF (French-language federation)"),
}

#: What a slip fault leads to (`rules.referee.CONSEQUENCES`).
CONSEQUENCE_LABELS = {
    "accept": _("counts, the real score"),
    "warning": _("warning"),
    "penalty": _("penalty"),
    "zero": _("scores 0"),
}

#: The slip faults (`rules.referee.FAULTS`): what the phone, the spelleider and the
#: ranking call them.
FAULT_LABELS = {
    "score_wrong": _("wrong score written"),
    "score_missing": _("no score written"),
    "blank_unmarked": _("blank not marked"),
    "reference_swapped": _("coordinates the wrong way round"),
    "position_off": _("word in the wrong place"),
}

#: The settings in the order the form shows them: (key, label, help text).
SLIP_FIELDS: tuple[tuple[str, object, object], ...] = (
    ("slips.turn_seconds", _("Thinking time per turn (seconds)"), _("3 minutes = 180.")),
    (
        "slips.grace_seconds",
        _("Grace for a slip sent at 0:00 (seconds)"),
        _("A slip that reaches the server this long after the time still counts."),
    ),
    *((f"slips.{code}", label, "") for code, label in FAULT_LABELS.items()),
    ("slips.penalty_points", _("Points a penalty costs"), ""),
    (
        "slips.free_warnings",
        _("Warnings without a penalty"),
        _("Each later warning of the evening costs the points below."),
    ),
    ("slips.warning_penalty_points", _("Points each further warning costs"), ""),
    ("slips.solo_bonus", _("Bonus for a solo (points)"), _("0: solos are counted, no bonus.")),
    ("slips.solo_min_players", _("Bonus from how many players in the room"), ""),
    ("slips.solo_rule", _("A solo is"), ""),
    (
        "slips.first_turn_max",
        _("First turn: the word's highest score, wherever the slip places it"),
        _("No fault for the position on the first turn; a score other than the highest warns."),
    ),
)
DRAW_FIELDS: tuple[tuple[str, object, object], ...] = (
    ("draw.leftovers", _("Tiles left on the rack after the top"), ""),
    ("draw.min_vowels", _("Vowels a rack needs at least"), _("0: no minimum.")),
    ("draw.min_consonants", _("Consonants a rack needs at least"), ""),
    (
        "draw.minimum_until_turn",
        _("That minimum up to turn"),
        _("Empty: the whole game. Later turns need the minimum below."),
    ),
    ("draw.late_min_vowels", _("Vowels needed after that turn"), ""),
    ("draw.late_min_consonants", _("Consonants needed after that turn"), ""),
    (
        "draw.relax_minimum",
        _("The later minimum as soon as the tiles left cannot give the first"),
        "",
    ),
    ("draw.vowels", _("Letters counted as vowels"), ""),
    ("draw.blank_counts", _("A blank counts toward the minimum"), ""),
    ("draw.rejection", _("A rack below the minimum goes back"), ""),
    ("draw.replace_blank", _("A blank in the top is replaced by its letter"), ""),
    ("draw.end_below_tiles", _("The game ends with fewer tiles left than"), ""),
    ("draw.end_no_vowel", _("The game ends when no vowel is left"), ""),
    (
        "draw.end_one_kind",
        _("The game ends when only vowels or only consonants are left"),
        _("Not while a blank is among two or more tiles left."),
    ),
)

#: The values of the settings that are a choice.
CHOICES: dict[str, Mapping[str, object]] = {
    **{f"slips.{code}": CONSEQUENCE_LABELS for code in FAULT_LABELS},
    "slips.solo_rule": {
        "top": _("the top, found by one player alone"),
        "highest": _("a score higher than every other player's, even below the top"),
    },
    "draw.leftovers": {
        "return": _("go back into the bag; seven new tiles"),
        "keep": _("stay on the rack, completed to seven"),
    },
    "draw.blank_counts": {
        "neither": _("neither vowel nor consonant"),
        "either": _("vowel or consonant, whichever is short"),
    },
    "draw.rejection": {
        "new": _("only the tiles just drawn"),
        "whole": _("the whole rack, kept tiles included"),
    },
}

#: Every setting's label by its key (the history's sentences).
LABELS: dict[str, object] = {key: label for key, label, _help in SLIP_FIELDS + DRAW_FIELDS}
