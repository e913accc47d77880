"""What a row of a club archive may hold: every field checked as the forms and the engine
check it, before anything is written (used by `competition.services.backup`).

Two layers, both plain functions: `field_value` checks one value by the kind of its model
field (JSON type, the column's range, plain text, ISO dates, a JSON depth), so a field added
to a model is checked without a change here; `RECORD_CHECKS` adds what the model's fields
cannot say on their own (a game's rule set must be one the engine plays, a disputed result
must look like one). Django's own `clean_fields` then adds choices, lengths and validators.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Callable
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

import rules
from clubs.inputs import BIGINT_MAX, INTEGER_MAX, SMALLINT_MAX
from competition.models import Competition
from competition.rulesets import custom_rules_error
from duplicate.models import Evening
from games.confirmation import RESULT_FIELDS
from games.models import Game, Outcome, Winner

#: Each integer column's range, as PostgreSQL has it (SQLite would take larger numbers, and
#: a restore must give the same answer on both).
INTEGER_RANGES: dict[str, tuple[int, int]] = {
    "SmallIntegerField": (-SMALLINT_MAX - 1, SMALLINT_MAX),
    "PositiveSmallIntegerField": (0, SMALLINT_MAX),
    "IntegerField": (-INTEGER_MAX - 1, INTEGER_MAX),
    "PositiveIntegerField": (0, INTEGER_MAX),
    "BigIntegerField": (-BIGINT_MAX - 1, BIGINT_MAX),
    "PositiveBigIntegerField": (0, BIGINT_MAX),
}
#: Nesting of a JSON field's value (the app's deepest is a move list in a history entry: 4).
MAX_JSON_DEPTH = 10


class Invalid(ValueError):
    """One field of one row is not what the app would have stored; `reason` says why."""

    def __init__(self, field: str, reason: Any) -> None:
        super().__init__(field)
        self.field = field
        self.reason = reason


def _is_plain(text: str, *, lines: bool = False) -> bool:
    """No control characters or lone surrogates (PostgreSQL and UTF-8 refuse those); a
    text field may hold line breaks and tabs."""
    allowed = "\n\r\t" if lines else ""
    return not any(
        unicodedata.category(char) in {"Cc", "Cs"} and char not in allowed for char in text
    )


def _json_ok(value: Any, depth: int = 0) -> bool:
    if depth > MAX_JSON_DEPTH:
        return False
    if isinstance(value, str):
        return _is_plain(value, lines=True)
    if isinstance(value, list):
        return all(_json_ok(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(_json_ok(k) and _json_ok(v, depth + 1) for k, v in value.items())
    return value is None or isinstance(value, bool | int | float)


def _datetime(name: str, value: str) -> datetime.datetime:
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise Invalid(name, _("is not a date and time")) from None
    if moment.tzinfo is None:
        raise Invalid(name, _("has no time zone"))
    try:
        return moment.astimezone(datetime.UTC)
    except OverflowError:
        raise Invalid(name, _("is out of range")) from None


def field_value(field: models.Field, value: Any) -> Any:
    """`value` from the archive as the model keeps it; `Invalid` when it is not."""
    name, kind = field.name, field.get_internal_type()
    if value is None:
        if not field.null:
            raise Invalid(name, _("must not be empty"))
        return None
    if kind in INTEGER_RANGES:
        if type(value) is not int:
            raise Invalid(name, _("is not a whole number"))
        low, high = INTEGER_RANGES[kind]
        if not low <= value <= high:
            raise Invalid(name, _("is out of range"))
        return value
    if kind == "BooleanField":
        if type(value) is not bool:
            raise Invalid(name, _("is not true or false"))
        return value
    if kind == "JSONField":
        if not _json_ok(value):
            raise Invalid(name, _("holds control characters or is nested too deeply"))
        return value
    if not isinstance(value, str):
        raise Invalid(name, _("is not text"))
    if kind in ("CharField", "SlugField"):
        if not _is_plain(value):
            raise Invalid(name, _("holds control characters or line breaks"))
        return value
    if kind == "TextField":
        if not _is_plain(value, lines=True):
            raise Invalid(name, _("holds control characters"))
        return value
    if kind == "DateField":
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            raise Invalid(name, _("is not a date")) from None
    if kind == "DateTimeField":
        return _datetime(name, value)
    # A field type this module was not written for: refuse rather than guess.
    raise Invalid(name, _("cannot be restored by this Bordpunt"))


# --- what the fields cannot say on their own -------------------------------------------------


def _rule_set_problem(data: Any) -> str | None:
    """Why the engine could not play a two-player game under `data`, or None."""
    error = custom_rules_error(data)
    if error is not None:
        return error
    rule_set = rules.RuleSet.from_dict(data)
    if rule_set.to_dict() != data:
        return str(_("not written as Bordpunt writes a rule set"))
    if not rule_set.players_min <= 2 <= rule_set.players_max:
        return str(_("not a rule set for two players"))
    return None


def _competition(obj: Any) -> None:
    if not isinstance(obj.custom_rules, dict):
        raise Invalid("custom_rules", _("is not a rule set"))
    if obj.custom_rules or obj.rules == Competition.Rules.CUSTOM:
        problem = custom_rules_error(obj.custom_rules)
        if problem is not None:
            raise Invalid("custom_rules", problem)


def _game(obj: Any) -> None:
    # Empty: the game was paired before rule sets were kept on games (Gouds 8, see engine).
    if obj.rules != {}:
        problem = _rule_set_problem(obj.rules) if isinstance(obj.rules, dict) else "—"
        if problem is not None:
            raise Invalid(
                "rules", _("is not a rule set the engine plays: %(problem)s") % {"problem": problem}
            )
    counter = obj.counter_result
    if not isinstance(counter, dict) or not set(counter) <= set(RESULT_FIELDS):
        raise Invalid("counter_result", _("is not a result"))
    if counter.get("outcome", "") not in Outcome.values:
        raise Invalid("counter_result", _("is not a result"))
    if counter.get("winner", "") not in Winner.values:
        raise Invalid("counter_result", _("is not a result"))
    for key in ("score_a", "score_b"):
        score = counter.get(key)
        if score is not None and (type(score) is not int or abs(score) > INTEGER_MAX):
            raise Invalid("counter_result", _("is not a result"))


def _evening(obj: Any) -> None:
    from rules.duplicate import DrawRules

    if obj.rules not in rules.RULE_SETS:
        raise Invalid(
            "rules",
            _("is not a rule set the engine plays: %(problem)s") % {"problem": str(obj.rules)[:40]},
        )
    if not isinstance(obj.draw_rules, dict):
        raise Invalid("draw_rules", _("is not a rule set"))
    if obj.draw_rules:
        try:
            DrawRules.from_dict(obj.draw_rules)
        except (rules.RulesError, TypeError):
            raise Invalid("draw_rules", _("is not a rule set")) from None


#: Checks of a whole row, after its fields (a move's computed fields are recomputed instead).
RECORD_CHECKS: dict[type[models.Model], Callable[[Any], None]] = {
    Competition: _competition,
    Game: _game,
    Evening: _evening,
}
