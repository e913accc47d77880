"""Which rules.RuleSet a competition plays by: a preset or the club's own variant.

Django: reads the competition's settings from the ORM.
"""

import dataclasses
from typing import Any

import rules
from competition.models import Competition
from games.rule_messages import error_message

PRESETS: dict[str, str] = {
    Competition.Rules.GOUDS_8: "GOUDS_8",
    Competition.Rules.STANDARD: "STANDARD",
    Competition.Rules.SBNL: "SBNL_WEDSTRIJD",
}


def ruleset_for(competition: Competition) -> Any:
    """The competition's rule set (a rules.RuleSet): the one place that reads `rules` and
    `custom_rules`. A game keeps its own copy (`game_rules_for`), read back by
    `games.engine.ruleset_of`."""
    if competition.rules == Competition.Rules.CUSTOM:
        return rules.RuleSet.from_dict(competition.custom_rules)
    return getattr(rules, PRESETS[competition.rules])


def game_rules_for(competition: Competition) -> dict[str, Any]:
    """What a new game of the competition keeps as `Game.rules`: its rule set as it is
    now, with the club's own word list when the club chose one (`Club.word_list`), so that
    changing the competition's rules or the club's list later leaves the games played as
    they were."""
    ruleset = ruleset_for(competition)
    word_list = competition.club.word_list
    if word_list:
        ruleset = dataclasses.replace(ruleset, word_list=word_list)
    return ruleset.to_dict()


def custom_rules_error(data: Any) -> str | None:
    """The engine's reason why a club variant is not a valid rule set, or None."""
    try:
        rules.RuleSet.from_dict(data)
    except rules.RulesError as error:
        return error_message(error)
    except (ValueError, TypeError) as error:
        return str(error)
    return None


# The highest final score a secretary is likely to type for a rule set. A score above it is
# possible, but a typo (4120 for 412) is far likelier, so the results page asks to confirm
# it; nothing refuses it. The one place these bounds are chosen:
# - a game with a turn limit (Gouds 8: 8 turns of 8 tiles, no bingo bonus): 500 per 8
#   turns; club games end between 150 and 400;
# - any other game (standard and SBNL rules, 7 tiles, bingo bonus): 800; tournament
#   scores above 700 are rare records.
PLAUSIBLE_POINTS_PER_8_TURNS = 500
PLAUSIBLE_SCORE_WITHOUT_TURN_LIMIT = 800


def plausible_score_max(rule_set: Any) -> int:
    """The highest final score that needs no confirmation under `rule_set` (a rules.RuleSet).

    >>> plausible_score_max(rules.GOUDS_8), plausible_score_max(rules.STANDARD)
    (500, 800)
    >>> plausible_score_max(rules.RuleSet(name="snel", turn_limit=4))
    250
    """
    if rule_set.turn_limit:
        return PLAUSIBLE_POINTS_PER_8_TURNS * rule_set.turn_limit // 8
    return PLAUSIBLE_SCORE_WITHOUT_TURN_LIMIT


def competition_score_max(competition: Competition) -> int:
    """`plausible_score_max` of the competition's rule set (the standard bound when a club
    variant cannot be read)."""
    try:
        return plausible_score_max(ruleset_for(competition))
    except (rules.RulesError, ValueError, TypeError):
        return PLAUSIBLE_SCORE_WITHOUT_TURN_LIMIT
