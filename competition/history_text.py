"""How the competition's history values read: settings, pairing systems, a club variant's
rules, each field and code in the reader's language.

Registered with `clubs.history_display` by `CompetitionConfig.ready`.
Django: model fields' verbose names and choices.
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import Field
from django.utils.translation import gettext_lazy as _

from clubs.history_display import EMPTY, Reading, date_text, register, value_text
from competition.models import TIEBREAK_CHOICES, Competition, Entrant, TableSize
from competition.pairing_text import SYSTEM_LABELS, explanation_text

#: The pairing systems as the pairing records them (`pairing.core` names).
SYSTEM_CHOICES = list(SYSTEM_LABELS.items())

#: A club variant's rule-set fields (`rules.RuleSet`, the keys of `custom_rules`).
RULE_LABELS = {
    "name": _("name"),
    "players_min": _("fewest players"),
    "players_max": _("most players"),
    "rack_size": _("tiles on the rack"),
    "bingo_bonus": _("bonus for using every tile"),
    "passing_allowed": _("passing allowed"),
    "exchange_allowed": _("exchanging allowed"),
    "exchange_min_bag": _("tiles in the bag needed to exchange"),
    "exchange_first_turn_allowed": _("exchange on the first turn"),
    "exchange_requires_previous_play": _("exchange only after an own play"),
    "exchange_max_tiles": _("most tiles per exchange"),
    "turn_limit": _("turns per player"),
    "clock_minutes": _("minutes per player"),
    "overtime_penalty": _("points off per minute over time"),
    "flag_fall_loses": _("flag fall loses"),
    "end_scoreless_turns": _("scoreless turns that end the game"),
    "end_scoreless_kind": _("scoreless turns counted"),
    "end_going_out": _("the game ends when a player goes out"),
    "end_going_out_equal_turns": _("only after equal numbers of turns"),
    "end_adjustment": _("racks at the end"),
    "blank_swap_allowed": _("blank swap allowed"),
    "invalid_word_penalty": _("points off for an invalid word"),
    "wrong_challenge": _("a wrong challenge costs"),
    "wrong_challenge_points": _("points for a wrong challenge"),
    "lexicon": _("word list"),
    "word_list": _("the club's own word list"),
}

RULE_CHOICES = {
    "end_scoreless_kind": {"passes": _("passes only"), "scoreless": _("every scoreless turn")},
    "end_adjustment": {
        "none": _("do not count"),
        "subtract_add": _("each subtracts own rack, who went out adds the others'"),
        "subtract": _("each subtracts own rack"),
        "double": _("who went out adds twice the others' racks"),
    },
    "wrong_challenge": {
        "none": _("nothing"),
        "lose_turn": _("the challenger's next turn"),
        "penalty": _("points off the challenger"),
        "bonus": _("points to the challenged player"),
    },
    "lexicon": {
        "gouds8": _("Gouds 8 list"),
        "standard": _("standard Dutch list"),
        "english": _("English list"),
    },
}


def rules_text(rules: Any, reading: Reading) -> str:
    """A club variant's rules: "tegels op het plankje: 8; bonus …: 0"."""
    if not isinstance(rules, dict):
        return value_text("", rules, reading)
    return "; ".join(
        f"{RULE_LABELS.get(key, key)}: {_rule_value(key, value, reading)}"
        for key, value in rules.items()
    )


def _rule_value(key: str, value: Any, reading: Reading) -> str:
    if value is None:
        return str(_("none"))
    if key in RULE_CHOICES:
        return str(RULE_CHOICES[key].get(value, value))
    return value_text("", value, reading) if value != "" else EMPTY


def register_history_texts() -> None:
    """Name the settings and entrant fields the history entries of competitions hold."""
    from competition.services.competitions import SETTINGS_FIELDS

    # The settings are the competition's own columns: get_field may also name a relation.
    fields = [
        cast("Field[Any, Any]", Competition._meta.get_field(name)) for name in SETTINGS_FIELDS
    ]
    register(
        labels={
            **{field.name: field.verbose_name for field in fields},
            "joined_round": Entrant._meta.get_field("joined_round").verbose_name,
            "withdrawn_from_round": Entrant._meta.get_field("withdrawn_from_round").verbose_name,
            "archived": _("archived"),
            "explanation": _("why this pairing"),
        },
        choices={
            **{field.name: field.choices for field in fields if field.choices},
            # A round's own table size; "" (blank) is the competition's.
            "table_size": [("", _("as the competition")), *TableSize.choices],
            "tiebreaks": TIEBREAK_CHOICES,
            "system": SYSTEM_CHOICES,
        },
        texts={
            "start_date": date_text,
            "custom_rules": rules_text,
            "explanation": explanation_text,
        },
    )
