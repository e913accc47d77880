"""Rule sets: every difference between variants is a field of :class:`RuleSet`.

Pure Python: this module imports nothing from Django. Presets: :data:`STANDARD`
(NSB, the rules in the box), :data:`GOUDS_8` (the club variant), :data:`SBNL_WEDSTRIJD`
(the federation's tournament rules) and :data:`NASPA` (North-American club play, for
reading English GCG records). A club defines its own variant as a dictionary (JSON)
checked by :meth:`RuleSet.from_dict`, or with :func:`dataclasses.replace`.

>>> GOUDS_8.rack_size, GOUDS_8.turn_limit, GOUDS_8.bingo_bonus
(8, 8, 0)
>>> RuleSet.from_dict(GOUDS_8.to_dict()) == GOUDS_8
True
>>> import dataclasses
>>> dataclasses.replace(STANDARD, name="home", bingo_bonus=40).bingo_bonus
40
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import RuleSetError

WrongChallenge = Literal["none", "lose_turn", "penalty", "bonus"]
EndAdjustment = Literal["none", "subtract_add", "subtract", "double"]
ScorelessKind = Literal["passes", "scoreless"]
LexiconKind = Literal["gouds8", "standard", "english"]

_WRONG_CHALLENGE = ("none", "lose_turn", "penalty", "bonus")
_END_ADJUSTMENT = ("none", "subtract_add", "subtract", "double")
_SCORELESS_KIND = ("passes", "scoreless")
_LEXICON_KIND = ("gouds8", "standard", "english")
#: A club's own word list's name: also its file's name, so nothing that leaves its folder.
WORD_LIST_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")


@dataclass(frozen=True)
class RuleSet:
    """All rules that differ between variants. Field names are the JSON keys."""

    name: str
    players_min: int = 2
    players_max: int = 4
    rack_size: int = 7
    #: Added when a play uses ``rack_size`` tiles ("bingo"); 0 = no bonus.
    bingo_bonus: int = 50
    #: False: a pass is accepted only when exchanging is not allowed either (the player
    #: declares they cannot place; the engine cannot check that).
    passing_allowed: bool = True
    exchange_allowed: bool = True
    #: The bag must hold at least this many tiles for an exchange.
    exchange_min_bag: int = 7
    #: A player may exchange on their own first turn (the previous-play rule cannot
    #: apply there: there is no previous own turn).
    exchange_first_turn_allowed: bool = True
    #: Outside the first turn, the player's previous own turn must have placed tiles.
    exchange_requires_previous_play: bool = False
    #: At most this many tiles per exchange; None = the whole rack.
    exchange_max_tiles: int | None = 7
    #: Turns per player, after which the game ends; None = no limit.
    turn_limit: int | None = None
    #: Minutes on each player's clock; None = no clock prescribed.
    clock_minutes: int | None = None
    #: Points deducted per started minute over time; 0 = none.
    overtime_penalty: int = 0
    #: A flag fall ends the game and the player whose flag fell loses.
    flag_fall_loses: bool = False
    #: The game ends after this many consecutive scoreless turns per player; None = never.
    end_scoreless_turns: int | None = 2
    #: What counts toward ``end_scoreless_turns``: only passes, or every scoreless turn.
    end_scoreless_kind: ScorelessKind = "passes"
    #: The game ends when the bag is empty and a player has no tiles left.
    end_going_out: bool = True
    #: ... but only once every player has had the same number of turns.
    end_going_out_equal_turns: bool = False
    #: "subtract_add": each subtracts own rack, who went out adds the others' racks;
    #: "subtract": each subtracts own rack; "double": who went out adds twice the others'
    #: racks (else each subtracts own); "none": racks do not count.
    end_adjustment: EndAdjustment = "subtract_add"
    blank_swap_allowed: bool = False
    #: Points deducted, beyond voiding the play, when an invalid word is challenged off.
    invalid_word_penalty: int = 0
    #: What a challenge of a valid word costs: nothing, the challenger's next turn,
    #: ``wrong_challenge_points`` off the challenger, or that many to the challenged player.
    wrong_challenge: WrongChallenge = "none"
    wrong_challenge_points: int = 0
    #: Which word list :meth:`rules.lexicon.Lexicon.default` should load.
    lexicon: LexiconKind = "standard"
    #: A club's own word list by name (:data:`WORD_LIST_NAME`), played instead of the
    #: shipped ``lexicon``; empty: the shipped one. The engine takes the list itself from
    #: its caller (``Game(lexicon=...)``), who finds it by this name (on an installed
    #: Bordpunt: ``<home>/lexicons/<name>.marisa``, made by ``bordpunt lexicon``).
    word_list: str = ""

    def __post_init__(self) -> None:
        _validate(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary of every field."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from a dictionary, e.g. a club's JSON.

        Missing fields take the defaults (those of :data:`STANDARD`); unknown fields
        and wrong types raise :class:`RuleSetError` naming the field.
        """
        if not isinstance(data, Mapping):
            raise RuleSetError(reason="expected a JSON object")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise RuleSetError(reason=f"unknown field(s): {', '.join(unknown)}")
        if "name" not in data:
            raise RuleSetError(reason="the field 'name' is required")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            kwargs[key] = _check_type(key, _FIELD_TYPES[key], value)
        return cls(**kwargs)


# Field types by name, written out because postponed annotations are strings.
_FIELD_TYPES: dict[str, str] = {
    "name": "str",
    "players_min": "int",
    "players_max": "int",
    "rack_size": "int",
    "bingo_bonus": "int",
    "passing_allowed": "bool",
    "exchange_allowed": "bool",
    "exchange_min_bag": "int",
    "exchange_first_turn_allowed": "bool",
    "exchange_requires_previous_play": "bool",
    "exchange_max_tiles": "int?",
    "turn_limit": "int?",
    "clock_minutes": "int?",
    "overtime_penalty": "int",
    "flag_fall_loses": "bool",
    "end_scoreless_turns": "int?",
    "end_scoreless_kind": "str",
    "end_going_out": "bool",
    "end_going_out_equal_turns": "bool",
    "end_adjustment": "str",
    "blank_swap_allowed": "bool",
    "invalid_word_penalty": "int",
    "wrong_challenge": "str",
    "wrong_challenge_points": "int",
    "lexicon": "str",
    "word_list": "str",
}


def _check_type(key: str, kind: str, value: Any) -> Any:
    if kind.endswith("?") and value is None:
        return None
    base = kind.rstrip("?")
    if base == "bool":
        ok = isinstance(value, bool)
    elif base == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, str)
    if not ok:
        expected = {"bool": "true or false", "int": "a whole number", "str": "text"}[base]
        if kind.endswith("?"):
            expected += " or null"
        raise RuleSetError(reason=f"{key} must be {expected}, not {value!r}")
    return value


def _validate(rules: RuleSet) -> None:
    def fail(reason: str) -> None:
        raise RuleSetError(reason=reason)

    for key, kind in _FIELD_TYPES.items():
        _check_type(key, kind, getattr(rules, key))
    if not rules.name:
        fail("name must not be empty")
    if not 1 <= rules.players_min <= rules.players_max <= 4:
        fail("players must satisfy 1 <= players_min <= players_max <= 4")
    if not 1 <= rules.rack_size <= 15:
        fail("rack_size must be 1 to 15")
    for key in ("bingo_bonus", "exchange_min_bag", "overtime_penalty", "invalid_word_penalty"):
        if getattr(rules, key) < 0:
            fail(f"{key} must not be negative")
    if rules.wrong_challenge_points < 0:
        fail("wrong_challenge_points must not be negative")
    for key in ("exchange_max_tiles", "turn_limit", "clock_minutes", "end_scoreless_turns"):
        value = getattr(rules, key)
        if value is not None and value < 1:
            fail(f"{key} must be at least 1 or null")
    choices = (
        ("wrong_challenge", _WRONG_CHALLENGE),
        ("end_adjustment", _END_ADJUSTMENT),
        ("end_scoreless_kind", _SCORELESS_KIND),
        ("lexicon", _LEXICON_KIND),
    )
    for key, allowed in choices:
        if getattr(rules, key) not in allowed:
            fail(f"{key} must be one of {', '.join(allowed)}")
    if rules.word_list and not WORD_LIST_NAME.fullmatch(rules.word_list):
        fail("word_list must be a name of lowercase letters, digits and hyphens (at most 40)")
    if rules.wrong_challenge in ("penalty", "bonus") and rules.wrong_challenge_points == 0:
        fail(f"wrong_challenge {rules.wrong_challenge!r} needs wrong_challenge_points > 0")


#: Standard Dutch rules (NSB, the rules in the box).
STANDARD = RuleSet(name="standard")

#: Gouds 8, the club variant: 2 players, 8 tiles, 8 turns each, 25 minutes, flag fall loses.
GOUDS_8 = RuleSet(
    name="gouds8",
    players_min=2,
    players_max=2,
    rack_size=8,
    bingo_bonus=0,
    passing_allowed=True,
    exchange_min_bag=7,  # (interpretation) the seed text is silent; standard bag rule
    exchange_first_turn_allowed=True,
    exchange_max_tiles=None,  # "1 of meer blokjes"
    turn_limit=8,
    clock_minutes=25,  # (interpretation) "8 beurten ... of 25 minuten": per player
    overtime_penalty=0,
    flag_fall_loses=True,
    end_scoreless_turns=None,
    end_going_out=False,  # the game runs its 8 turns; an empty rack simply passes
    end_adjustment="none",
    blank_swap_allowed=True,
    invalid_word_penalty=0,
    wrong_challenge="lose_turn",  # (interpretation) a 0-point turn counting toward the 8
    lexicon="gouds8",
)

#: SBNL "wedstrijdscrabble": the federation's tournament rules.
SBNL_WEDSTRIJD = RuleSet(
    name="sbnl",
    players_min=2,
    players_max=2,
    rack_size=7,
    bingo_bonus=50,
    passing_allowed=False,
    exchange_min_bag=16,
    exchange_first_turn_allowed=True,
    exchange_requires_previous_play=True,
    exchange_max_tiles=7,
    clock_minutes=35,
    overtime_penalty=10,
    flag_fall_loses=False,
    end_scoreless_turns=1,  # (interpretation) neither can place: both pass in succession
    end_scoreless_kind="passes",
    end_going_out=True,
    end_going_out_equal_turns=True,
    end_adjustment="subtract",
    invalid_word_penalty=20,
    wrong_challenge="penalty",
    wrong_challenge_points=20,
    lexicon="standard",
)

#: North-American club rules (NASPA), for replaying English GCG records faithfully.
NASPA = RuleSet(
    name="naspa",
    players_min=2,
    players_max=4,
    rack_size=7,
    bingo_bonus=50,
    exchange_min_bag=7,
    exchange_max_tiles=7,
    clock_minutes=25,
    overtime_penalty=10,
    end_scoreless_turns=3,
    end_scoreless_kind="scoreless",
    end_adjustment="double",
    wrong_challenge="bonus",
    wrong_challenge_points=5,
    lexicon="english",
)

RULE_SETS: dict[str, RuleSet] = {
    "standard": STANDARD,
    "gouds8": GOUDS_8,
    "sbnl": SBNL_WEDSTRIJD,
    "naspa": NASPA,
}


def rule_set(name: str) -> RuleSet:
    """Look up a preset by name: ``standard``, ``gouds8``, ``sbnl`` or ``naspa``."""
    key = name.lower().replace("_", "").replace("-", "").replace(" ", "")
    key = {"gouds": "gouds8", "sbnlwedstrijd": "sbnl", "nsb": "standard"}.get(key, key)
    try:
        return RULE_SETS[key]
    except KeyError:
        raise RuleSetError("unknown_rule_set", name=name, choices=", ".join(RULE_SETS)) from None
