"""A duplicate evening replayed from its rows: the rules it plays (the competition's, and
the copy each evening keeps), its master game rebuilt from its turns, and a slip judged
on that game.

Derivations only, shared by the reads (`duplicate.selectors`) and the writes
(`duplicate.services`): nothing here writes, and this module imports neither of them, so
the reads never import a write.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from clubs import word_lists
from duplicate.models import DuplicateCompetition, Evening, Turn
from rules import RuleSet, rule_set
from rules.board import Notation
from rules.duplicate import DrawRules, DuplicateGame
from rules.referee import DuplicateSettings, SlipRules, judge_slip

#: What judging a slip sets on its row (`slip_judged`).
SLIP_JUDGED_FIELDS = (
    "score",
    "reason_code",
    "reason_params",
    "corrected",
    "is_top",
    "faults",
    "warning",
    "penalty",
)


def duplicate_settings(competition: DuplicateCompetition) -> DuplicateSettings:
    """The competition's duplicate rules: its own, started from a preset (empty: the NTSV
    preset). What the evenings to come play; each evening keeps a copy."""
    return DuplicateSettings.from_dict(competition.settings or {})


def evening_rules(evening: Evening) -> DrawRules:
    return DrawRules.from_dict(evening.draw_rules) if evening.draw_rules else DrawRules()


def evening_slip_rules(evening: Evening) -> SlipRules:
    """How the evening's slips are judged and counted: the competition's rules when the
    evening was made, or as the spelleider applied them since (empty: the NTSV preset's)."""
    return SlipRules.from_dict(evening.slip_rules) if evening.slip_rules else SlipRules()


def evening_ruleset(evening: Evening) -> RuleSet:
    """The board rules of the evening: its preset, with the club's own word list when the
    evening was made with one (`Evening.word_list`)."""
    ruleset = rule_set(evening.rules)
    if evening.word_list:
        ruleset = dataclasses.replace(ruleset, word_list=evening.word_list)
    return ruleset


def new_master_game(evening: Evening) -> DuplicateGame:
    """The evening's master game before its first draw: its rules, its draw rules and the
    word list its tops are searched in (clubs/word_lists.py)."""
    ruleset = evening_ruleset(evening)
    return DuplicateGame(ruleset, draw_rules=evening_rules(evening), dawg=word_lists.dawg(ruleset))


def master_game(evening: Evening, turns: list[Turn] | None = None) -> DuplicateGame:
    """The evening's master game rebuilt from its turns (the closed ones replayed, an
    open one drawn), without searching the tops of the closed turns again."""
    game = new_master_game(evening)
    for turn in turns if turns is not None else list(evening.turns.order_by("number")):
        turn_drawn(game, turn)
        if turn.top:
            game.play_known(turn.top)
    return game


def turn_drawn(game: DuplicateGame, turn: Turn) -> str:
    """``turn``'s draw on ``game``, after the draw a redo cancelled (`Turn.cancelled`: the
    kept tiles went back into the bag with it) and the draws thrown back before it
    (`Turn.rejected`: under the rule that a rejected rack goes back whole, its kept tiles
    went back into the bag with them); the rack."""
    if turn.cancelled:
        game.cancel(turn.cancelled)
    for thrown in turn.rejected.split():
        game.reject(thrown)
    return game.draw(turn.drawn)


def slip_text(text: str) -> str:
    """What a slip keeps of the text: printable characters, single spaces, 60 at most
    (a NUL or a control character would be refused by the database, not by the rules)."""
    return " ".join("".join(ch for ch in str(text) if ch.isprintable()).split())[:60]


def slip_judged(
    game: DuplicateGame,
    turn: Turn,
    text: str,
    claimed: int | None,
    notation: Notation,
    rules: SlipRules | None = None,
) -> dict[str, Any]:
    """A slip written in ``notation`` judged on ``game`` (the master game with the turn's
    rack drawn) under the evening's slip rules (`rules.referee.judge_slip`; read here when
    the caller has not): what it pays, and its faults, its warning and its penalty; the
    fields of its row (`SLIP_JUDGED_FIELDS` and the notation it was written in)."""
    result = judge_slip(
        game.game,
        game.rack or "",
        text,
        claimed=claimed,
        top=turn.top_score,
        rules=rules or evening_slip_rules(turn.evening),
        notation=notation,
    )
    return {
        "written_in": notation.value,
        "score": result.score,
        "reason_code": result.reason or "",
        "reason_params": {k: v for k, v in result.params},
        "corrected": result.corrected,
        "is_top": result.is_top,
        "faults": list(result.faults),
        "warning": result.warning or "",
        "penalty": result.penalty,
    }
