"""Which rules.RuleSet a competition plays by: a preset or the club's own variant."""

from typing import Any

import rules
from competition.models import Competition
from games.rule_messages import error_message

PRESETS = {
    Competition.Rules.GOUDS_8: "GOUDS_8",
    Competition.Rules.STANDARD: "STANDARD",
    Competition.Rules.SBNL: "SBNL_WEDSTRIJD",
}


def ruleset_for(competition: Competition) -> Any:
    if competition.rules == Competition.Rules.CUSTOM:
        return rules.RuleSet.from_dict(competition.custom_rules)
    return getattr(rules, PRESETS[competition.rules])


def custom_rules_error(data: Any) -> str | None:
    """The engine's reason why a club variant is not a valid rule set, or None."""
    try:
        rules.RuleSet.from_dict(data)
    except rules.RulesError as error:
        return error_message(error)
    except (ValueError, TypeError) as error:
        return str(error)
    return None
