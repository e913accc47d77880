"""The duplicate referee: how a room's slips are judged and an evening is counted.

Pure Python: this module imports nothing from Django. :mod:`rules.duplicate` is the
spelleider's computer for the master game; this module is the referee beside it:

- :class:`SlipRules`: the hand-in rules (time per turn, what each slip fault leads to,
  penalties, warnings, the solo), a frozen value with a JSON round trip;
- :class:`DuplicateSettings`: the draw rules and the slip rules together, and
  :data:`PRESETS`, the NTSV's and the FISF's, each value with its source in
  ``docs/duplicate.md`` (*Presets and their sources*);
- :func:`judge_slip`: a slip scored by the engine, its faults found (a wrong or missing
  score, a blank not marked, the reference swapped, the position off) and paid as the
  rules say;
- :func:`tally`: the evening per player (total, tops, solos and their bonus, warnings
  and the penalties they bring, late slips at 0).

>>> from rules.duplicate import DuplicateGame
>>> game = DuplicateGame()
>>> _ = game.draw("KAASEIN")
>>> fisf = PRESETS["fisf"].slips
>>> slip = judge_slip(game.game, game.rack, "E8 KAAS", claimed=14, top=None, rules=fisf)
>>> slip.score, slip.faults, slip.warning, slip.notation
(14, (), None, '8E KAAS')

On the first turn the FISF pays the word's best and sees no fault in its place (§5.4.2.a);
without that rule the swapped reference is a fault that warns:

>>> later = dataclasses.replace(fisf, first_turn_max=False)
>>> slip = judge_slip(game.game, game.rack, "E8 KAAS", claimed=14, top=None, rules=later)
>>> slip.score, slip.faults, slip.warning, slip.notation
(14, ('reference_swapped',), 'reference_swapped', '8E KAAS')
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Generic, Literal, TypeVar

from rules.board import SIZE, Direction, Notation, format_position, parse_position
from rules.duplicate import NTSV, DrawRules, DuplicateError, Slip, _through_dots, scores_top
from rules.errors import RulesError
from rules.game import Game, MoveResult
from rules.move import Play, parse_move, rewrite_position
from rules.tiles import BLANK

__all__ = [
    "CONSEQUENCES",
    "FAULTS",
    "PRESETS",
    "DuplicateSettings",
    "SlipLine",
    "SlipRules",
    "Tally",
    "judge_slip",
    "tally",
]

Consequence = Literal["accept", "warning", "penalty", "zero"]
SoloRule = Literal["top", "highest"]

#: What a fault may lead to, mildest first: the slip pays as if it were right, pays with
#: a warning, pays ``penalty_points`` less, or scores 0.
CONSEQUENCES: tuple[str, ...] = ("accept", "warning", "penalty", "zero")
#: The slip faults the engine finds, in the order a slip's warning is chosen among them.
#: Codes, stored as they are; the app translates them.
FAULTS: tuple[str, ...] = (
    "score_wrong",  # the claimed score is not the play's real one
    "score_missing",  # no score claimed
    "blank_unmarked",  # a blank's letter not marked (lowercase), or a wrong letter marked
    "reference_swapped",  # the play fits in the other direction from the same square
    "position_off",  # the word scores the claimed score, but at another place
)
_SOLO_RULES = ("top", "highest")


@dataclass(frozen=True)
class SlipRules:
    """How slips are handed in and judged, and how an evening is counted. Field names
    are JSON keys; the defaults are the NTSV preset's (Bordpunt's behaviour so far where
    the NTSV says nothing; ``docs/duplicate.md`` gives every value's source)."""

    name: str = "ntsv"
    #: Thinking time per turn, in seconds.
    turn_seconds: int = 180
    #: A slip that reaches the server this many seconds after the time is still in
    #: time: one sent as the phone showed 0 (interpretation).
    grace_seconds: int = 2
    #: What each fault (:data:`FAULTS`) leads to: one of :data:`CONSEQUENCES`.
    score_wrong: Consequence = "accept"
    score_missing: Consequence = "accept"
    blank_unmarked: Consequence = "zero"
    reference_swapped: Consequence = "zero"
    position_off: Consequence = "zero"
    #: Points a "penalty" fault costs; a slip that would pay less than this scores 0
    #: (FISF: "pas de score négatif").
    penalty_points: int = 5
    #: Warnings of an evening that cost nothing; each later one costs
    #: ``warning_penalty_points``.
    free_warnings: int = 3
    warning_penalty_points: int = 5
    #: Points for a solo, in a room of at least ``solo_min_players``; a solo is counted
    #: in smaller rooms too, without the bonus.
    solo_bonus: int = 0
    solo_min_players: int = 16
    #: A solo is a top found by one player alone ("top"), or a score higher than every
    #: other player's on the turn, even below the top ("highest"), before penalties.
    solo_rule: SoloRule = "top"
    #: On the first turn a slip is paid the word's highest score on the empty board,
    #: whatever its position and blank marking; only a score written wrong or missing and
    #: a marking that is not the highest's are faults (FISF §5.4.2.a, §5.5).
    first_turn_max: bool = False

    def __post_init__(self) -> None:
        def fail(reason: str) -> None:
            raise DuplicateError("invalid_slip_rules", reason=reason)

        if not isinstance(self.name, str) or not self.name:
            fail("name must be a non-empty text")
        for key, low, high in (
            ("turn_seconds", 10, 3600),
            ("grace_seconds", 0, 60),
            ("penalty_points", 0, 100),
            ("free_warnings", 0, 100),
            ("warning_penalty_points", 0, 100),
            ("solo_bonus", 0, 100),
            ("solo_min_players", 1, 10_000),
        ):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                fail(f"{key} must be a whole number {low}-{high}")
        for fault in FAULTS:
            if getattr(self, fault) not in CONSEQUENCES:
                fail(f"{fault} must be one of {', '.join(CONSEQUENCES)}")
        if self.solo_rule not in _SOLO_RULES:
            fail(f"solo_rule must be one of {', '.join(_SOLO_RULES)}")
        if not isinstance(self.first_turn_max, bool):
            fail("first_turn_max must be true or false")

    def consequence(self, fault: str) -> str:
        """What ``fault`` (a code of :data:`FAULTS`) leads to under these rules."""
        if fault not in FAULTS:
            raise DuplicateError("invalid_slip_rules", reason=f"no fault {fault!r}")
        return str(getattr(self, fault))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary of every field."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: SlipRules | None = None) -> SlipRules:
        """From a dictionary (a club's JSON): missing fields take ``base``'s values (the
        NTSV preset's by default), unknown fields and wrong values raise
        ``invalid_slip_rules`` naming them."""
        return _from_dict(cls, data, base or cls(), "invalid_slip_rules")


@dataclass(frozen=True)
class DuplicateSettings:
    """Every duplicate setting of a competition: how racks are drawn and the game ends
    (:class:`~rules.duplicate.DrawRules`) and how slips are judged (:class:`SlipRules`).
    ``preset`` names the preset it started from: what the JSON leaves out is its."""

    preset: str = "ntsv"
    draw: DrawRules = NTSV
    slips: SlipRules = SlipRules()

    def __post_init__(self) -> None:
        if self.preset not in _PRESET_NAMES:
            raise DuplicateError(
                "invalid_duplicate_settings",
                reason=f"preset must be one of {', '.join(_PRESET_NAMES)}",
            )
        if not isinstance(self.draw, DrawRules) or not isinstance(self.slips, SlipRules):
            raise DuplicateError("invalid_duplicate_settings", reason="draw and slips are rules")

    def to_dict(self) -> dict[str, Any]:
        """``{"preset": ..., "draw": {...}, "slips": {...}}``, JSON-safe."""
        return {"preset": self.preset, "draw": self.draw.to_dict(), "slips": self.slips.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DuplicateSettings:
        """From a dictionary: what it leaves out (a key of ``draw`` or ``slips``, or a
        whole part) is the preset's (``preset``, "ntsv" when missing). Unknown keys and
        wrong values are refused with the code of the part they are in.

        >>> mixed = DuplicateSettings.from_dict({"preset": "fisf", "slips": {"solo_bonus": 0}})
        >>> mixed.draw == PRESETS["fisf"].draw, mixed.slips.solo_bonus, mixed.slips.solo_rule
        (True, 0, 'highest')
        """
        if not isinstance(data, Mapping):
            raise DuplicateError("invalid_duplicate_settings", reason="expected a JSON object")
        unknown = sorted(set(data) - {"preset", "draw", "slips"})
        if unknown:
            raise DuplicateError(
                "invalid_duplicate_settings", reason=f"unknown field(s): {unknown}"
            )
        name = data.get("preset", "ntsv")
        if name not in _PRESET_NAMES:
            raise DuplicateError(
                "invalid_duplicate_settings",
                reason=f"preset must be one of {', '.join(_PRESET_NAMES)}",
            )
        base = PRESETS[name]
        draw = _from_dict(DrawRules, data.get("draw", {}), base.draw, "invalid_draw_rules")
        slips = SlipRules.from_dict(data.get("slips", {}), base.slips)
        return cls(preset=name, draw=draw, slips=slips)


_T = TypeVar("_T")


def _from_dict(cls: type[_T], data: Any, base: _T, code: str) -> _T:
    if not isinstance(data, Mapping):
        raise DuplicateError(code, reason="expected a JSON object")
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - known)
    if unknown:
        raise DuplicateError(code, reason=f"unknown field(s): {unknown}")
    return dataclasses.replace(base, **dict(data))  # type: ignore[type-var]


_PRESET_NAMES = ("ntsv", "fisf")

#: The two presets a club starts from. Every value and its source: ``docs/duplicate.md``,
#: *Presets and their sources* (FISF-2023 = the FISF rulebook in force on 1 January 2023).
PRESETS: dict[str, DuplicateSettings] = {
    # The NTSV's pages say: 3 minutes a turn, leftovers back into the bag, the blank
    # replaced, the end below 7 tiles or without a vowel. Everything else is what
    # Bordpunt did so far: a wrong or missing score corrected, other faults 0, no solo bonus.
    "ntsv": DuplicateSettings("ntsv", NTSV, SlipRules()),
    "fisf": DuplicateSettings(
        "fisf",
        DrawRules(
            name="fisf",
            leftovers="keep",  # §3.1: the reliquat is kept and completed
            min_vowels=2,  # §3.2: two vowels and two consonants for the first 15 turns
            min_consonants=2,
            minimum_until_turn=15,
            late_min_vowels=1,  # §3.2: one and one from the 16th turn
            late_min_consonants=1,
            relax_minimum=True,  # §3.2: "ou plus tôt du fait du reliquat"
            blank_counts="either",  # §3.2: the arbiter's choice (interpretation: his best)
            rejection="whole",  # §3.2: "remet toutes les lettres dans le sac (reliquat compris)"
            replace_blank=False,  # §3.4: the blank's letter kept to the end of the game
            end_below_tiles=1,  # §3.7: all letters drawn and placed
            end_no_vowel=False,  # §3.7 says it with end_one_kind
            end_one_kind=True,  # §3.7: all vowels or all consonants, not with a blank in 2+
        ),
        SlipRules(
            name="fisf",
            turn_seconds=180,  # §1.3
            score_wrong="warning",  # §5.3.2, §5.5
            score_missing="warning",  # §5.3.2, §5.5
            blank_unmarked="warning",  # §5.5
            reference_swapped="warning",  # §5.3
            position_off="penalty",  # §5.3.3, §5.6
            penalty_points=5,  # §5.3.3
            free_warnings=3,  # §5.9: the 4th and every later one
            warning_penalty_points=5,  # §5.9
            solo_bonus=10,  # §3.5
            solo_min_players=16,  # §3.5
            solo_rule="highest",  # §3.5
            first_turn_max=True,  # §5.4.2.a, §5.5
        ),
    ),
}


# ----------------------------------------------------------------------- judging

#: The engine's refusals of a play that marking blanks otherwise may mend.
_RACK_REFUSALS = ("not_in_rack", "too_many_tiles", "rack_impossible", "tiles_on_board")
_SEVERITY = {"accept": 0, "warning": 1, "penalty": 2, "zero": 3}
_POSITION = re.compile(r"^(?:([A-Oa-o])(1[0-5]|[1-9])|(1[0-5]|[1-9])([A-Oa-o]))$")


@dataclass(frozen=True)
class _Reading:
    """One way the referee reads a slip: the play it makes and the faults it took."""

    result: MoveResult
    faults: tuple[str, ...]


def judge_slip(
    board: Game,
    rack: str,
    text: str,
    *,
    claimed: int | None,
    top: int | None,
    rules: SlipRules,
    notation: Notation = Notation.ROWS_NUMBERED,
) -> Slip:
    """Score and judge the play written on a slip (as :func:`rules.duplicate.score_slip`
    reads it) under ``rules``. When the slip as written does not play, the engine looks
    for the play the player meant: a blank's letter marked or unmarked
    (``blank_unmarked``), the position's two parts swapped (``reference_swapped``), both;
    failing those, the word in the written direction where it scores exactly the claimed
    score (``position_off``; both directions when the position cannot be read). A score
    claimed wrong or not at all is a fault too. ``Slip.score`` is what the slip pays: the
    play's score (the claimed one for ``position_off``), less ``penalty``, or 0. A slip
    that scores 0 keeps the engine's reason for the slip as written (or, if it played, the
    fault's code), its notation and words; ``faults`` lists every fault found.

    Under the NTSV preset (every fault but the score's leads to 0) a slip scores what
    :func:`~rules.duplicate.score_slip` gives it.
    """
    # Read in the engine's notation from here: a position swapped means the same in both
    # (the row comes first for a word across), and what the slip gives back is the
    # engine's anyway (`Slip.notation`).
    text = rewrite_position(text, source=notation, target=Notation.ROWS_NUMBERED)
    written, refusal = _read(board, rack, text)
    reading: _Reading | None = None
    # The play meant is looked for only where finding it could change what the slip pays:
    # under rules that make those faults a zero (the NTSV preset) the slip as written
    # stands, and the search (some milliseconds on a full board) is not made.
    mendable = {"blank_unmarked", "reference_swapped"}
    if rules.first_turn_max and board.board.is_empty():
        # FISF §5.4.2.a: the word's maximum, whatever the reference (no fault for it).
        reading = _first_turn(board, rack, text)
    elif written is not None:
        reading = _Reading(written, ())
    else:
        if any(rules.consequence(fault) != "zero" for fault in mendable):
            reading = _at_written_square(board, rack, text)
        if reading is None and claimed is not None and rules.position_off != "zero":
            reading = _elsewhere(board, rack, text, claimed)
    if reading is None:
        assert refusal is not None
        return dataclasses.replace(refusal, claimed=claimed)
    faults = list(reading.faults)
    result = reading.result
    paid = result.score
    if "position_off" in faults:
        paid = claimed if claimed is not None else paid
    elif claimed is None:
        faults.append("score_missing")
    elif claimed != result.score:
        faults.append("score_wrong")
    faults.sort(key=FAULTS.index)
    worst = max((rules.consequence(f) for f in faults), key=_SEVERITY.__getitem__, default="accept")
    if worst == "penalty" and paid < max(rules.penalty_points, 1):
        worst = "zero"  # FISF §5.3.3: no negative score, a penalty on 4 or less is a zero
    if worst == "zero":
        if refusal is not None:
            return dataclasses.replace(refusal, claimed=claimed, faults=tuple(faults))
        zero = next(f for f in faults if rules.consequence(f) in ("zero", "penalty"))
        return Slip(0, claimed, zero, (), result.notation, result.words, faults=tuple(faults))
    penalty = rules.penalty_points if worst == "penalty" else 0
    warning = None
    if worst == "warning":
        warning = next(f for f in faults if rules.consequence(f) == "warning")
    return Slip(
        paid - penalty,
        claimed,
        notation=result.notation,
        words=result.words,
        is_top=scores_top(paid, top),
        faults=tuple(faults),
        warning=warning,
        penalty=penalty,
    )


def _read(board: Game, rack: str, text: str) -> tuple[MoveResult | None, Slip | None]:
    """The slip as written: the play it makes, or the 0 it scores and why (as
    :func:`~rules.duplicate.score_slip` gives it, the claimed score left out)."""
    try:
        move = parse_move(_through_dots(board, text))
        if not isinstance(move, Play):
            raise DuplicateError("duplicate_not_a_play", notation=text)
        result = board.preview(move, rack=rack)
    except RulesError as exc:
        return None, Slip(0, None, exc.code, tuple(sorted(exc.params.items())))
    for warning in result.warnings:
        if warning.code == "not_in_lexicon":
            refusal = Slip(0, None, warning.code, warning.params, result.notation, result.words)
            return None, refusal
    return result, None


def _plays(board: Game, rack: str, position: str, word: str) -> list[tuple[MoveResult, bool]]:
    """The plays of ``word`` from ``position``: as written, else with its letters marked
    as blanks as the rack allows (True: a blank's marking was changed). Only plays that
    fit, hold on the rack and form listed words."""
    text = _through_dots(board, f"{position} {word}")
    played, refusal = _read(board, rack, text)
    if played is not None:
        return [(played, False)]
    if refusal is None or refusal.reason not in _RACK_REFUSALS:
        return []  # only what the rack refuses can a blank marked otherwise mend
    pos, dotted = text.split(" ", 1)
    new = [i for i, ch in enumerate(dotted) if ch != "."]
    found = []
    upper = dotted.upper()
    for count in range(min(rack.count(BLANK), len(new)) + 1):
        for marked in combinations(new, count):
            letters = "".join(ch.lower() if i in marked else ch for i, ch in enumerate(upper))
            if letters == dotted:
                continue
            result, _ = _read(board, rack, f"{pos} {letters}")
            if result is not None:
                found.append((result, True))
    return found


def _slip_parts(text: str) -> tuple[str | None, str] | None:
    """(position or None, word) of a slip written as ``POSITION WORD`` or ``WORD``, the
    word in letters only; None for anything else."""
    parts = text.split()
    if len(parts) == 1 and parts[0].isalpha():
        return None, parts[0]
    if len(parts) == 2 and parts[1].isalpha():
        return parts[0], parts[1]
    return None


def _at_written_square(board: Game, rack: str, text: str) -> _Reading | None:
    """The play meant at the written square: blanks marked otherwise, or the reference
    swapped, or both. Among several, the one with the fewest faults, then the highest
    score (the slip does not say which, so the player has the benefit: interpretation),
    then as written before swapped."""
    parts = _slip_parts(text)
    if parts is None:
        return None
    position, word = parts
    if position is None:
        return None
    match = _POSITION.match(position)
    if match is None:
        return None
    swapped = match.group(2) + match.group(1) if match.group(1) else match.group(4) + match.group(3)
    found: list[tuple[tuple[int, int, int], _Reading]] = []
    readings: tuple[tuple[str, tuple[str, ...]], ...] = (
        (position, ()),
        (swapped, ("reference_swapped",)),
    )
    for rank, (pos, fault) in enumerate(readings):
        for result, blank in _plays(board, rack, pos, word):
            faults = (*fault, "blank_unmarked") if blank else fault
            found.append(((len(faults), -result.score, rank), _Reading(result, faults)))
    if not found:
        return None
    return min(found, key=lambda item: item[0])[1]


def _first_turn(board: Game, rack: str, text: str) -> _Reading | None:
    """The first turn's reading (FISF §5.4.2.a): the word at the place, in either
    direction, and with the blank marking, that scores most on the empty board, whatever
    position the slip wrote. A marking other than the slip's is ``blank_unmarked`` (§5.5:
    "l'encerclement ne correspond pas au score maximum"); among equal scores the slip's
    own marking, then across before down, then the first square. None when the word plays
    nowhere (the slip as written then says why it scores 0)."""
    parts = _slip_parts(text)
    if parts is None:
        return None
    word = parts[1]
    found: list[tuple[tuple[int, int, int, int, int], _Reading]] = []
    for d, direction in enumerate((Direction.ACROSS, Direction.DOWN)):
        for start in range(SIZE):
            row, col = (7, start) if direction is Direction.ACROSS else (start, 7)
            if not _may_fit(board, row, col, direction, word):
                continue
            pos = format_position(row, col, direction)
            for result, blank in _plays(board, rack, pos, word):
                faults = ("blank_unmarked",) if blank else ()
                found.append(((-result.score, len(faults), d, row, col), _Reading(result, faults)))
    if not found:
        return None
    return min(found, key=lambda item: item[0])[1]


def _elsewhere(board: Game, rack: str, text: str, claimed: int) -> _Reading | None:
    """The word in the written direction (both when the position is missing or cannot be
    read) where it scores exactly ``claimed``: FISF §5.3.3, §5.6. Among several places,
    the first that needs no blank marked otherwise, then the first in board order (across
    before down, row, column): the slip pays the claimed score wherever it is, so the
    place only decides what is shown (interpretation)."""
    parts = _slip_parts(text)
    if parts is None:
        return None
    position, word = parts
    directions = [Direction.ACROSS, Direction.DOWN]
    if position is not None:
        with contextlib.suppress(RulesError):
            directions = [parse_position(position)[2]]
    found: list[tuple[tuple[int, int, int, int], _Reading]] = []
    for d, direction in enumerate(directions):
        rows = SIZE if direction is Direction.ACROSS else SIZE - len(word) + 1
        cols = SIZE - len(word) + 1 if direction is Direction.ACROSS else SIZE
        for row in range(max(rows, 0)):
            for col in range(max(cols, 0)):
                if not _may_fit(board, row, col, direction, word):
                    continue
                pos = format_position(row, col, direction)
                for result, blank in _plays(board, rack, pos, word):
                    if result.score != claimed:
                        continue
                    faults = ("blank_unmarked", "position_off") if blank else ("position_off",)
                    found.append(((len(faults), d, row, col), _Reading(result, faults)))
    if not found:
        return None
    return min(found, key=lambda item: item[0])[1]


def _may_fit(board: Game, row: int, col: int, direction: Direction, word: str) -> bool:
    """A quick look before the engine's: the squares of ``word`` from ``(row, col)``
    agree with the board's letters, the squares before and after it are empty, and it
    touches a tile (or covers the centre of an empty board). Only a shortcut: the
    engine judges every place that passes."""
    cells = board.board
    dr, dc = (0, 1) if direction is Direction.ACROSS else (1, 0)
    squares = [(row + i * dr, col + i * dc) for i in range(len(word))]
    for r, c in ((row - dr, col - dc), (row + len(word) * dr, col + len(word) * dc)):
        if 0 <= r < SIZE and 0 <= c < SIZE and cells.letter(r, c):
            return False
    if cells.is_empty():
        return (7, 7) in squares
    touches = False
    for (r, c), ch in zip(squares, word, strict=True):
        held = cells.letter(r, c)
        if held:
            if held.upper() != ch.upper():
                return False
            touches = True
        elif not touches:
            touches = any(
                0 <= r + a < SIZE and 0 <= c + b < SIZE and cells.letter(r + a, c + b)
                for a, b in ((-1, 0), (1, 0), (0, -1), (0, 1))
            )
    return touches


# ----------------------------------------------------------------------- the tally

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class SlipLine(Generic[P]):
    """One slip as the tally needs it. ``score`` is the slip's score *before* its
    penalty (``Slip.score + Slip.penalty``): solos compare that (FISF §3.5), and the
    tally deducts ``penalty`` itself. A ``late`` slip (not accepted by the spelleider)
    counts 0 and is never a top or a solo; its warning and penalty do not count (a
    warning does not stack with a zero, FISF §5.8)."""

    player: P
    turn: int
    score: int
    warning: bool = False
    penalty: int = 0
    late: bool = False

    @classmethod
    def of(cls, player: P, turn: int, slip: Slip, *, late: bool = False) -> SlipLine[P]:
        """The line of a judged slip."""
        return cls(
            player, turn, slip.score + slip.penalty, slip.warning is not None, slip.penalty, late
        )


@dataclass(frozen=True)
class Tally:
    """A player's evening. ``result`` = ``total`` + ``solo_bonus`` − ``penalty`` −
    ``warning_penalty``, never below 0 (interpretation)."""

    total: int = 0
    tops: int = 0
    solos: int = 0
    solo_turns: tuple[int, ...] = ()
    solo_bonus: int = 0
    warnings: int = 0
    warning_penalty: int = 0
    penalty: int = 0
    result: int = 0


def tally(
    tops: Mapping[int, int],
    slips: Iterable[SlipLine[P]],
    rules: SlipRules,
    *,
    players: int | None = None,
) -> dict[P, Tally]:
    """Each player's evening from their slip lines (one per player and turn) and the
    turns' top scores (``tops``: turn -> top score; a turn not in it has no top yet).

    The room's size for the solo bonus is ``players`` when the app knows it, else the
    players with at least one slip, late ones included (FISF §3.5 "le nombre de
    joueurs"; Eliot counts the players who played a word: interpretation).

    >>> lines = [SlipLine("ans", 1, 22), SlipLine("bert", 1, 14), SlipLine("bert", 2, 9)]
    >>> result = tally({1: 22, 2: 9}, lines, SlipRules())
    >>> result["ans"].tops, result["ans"].solos, result["bert"].total
    (1, 1, 23)
    """
    lines = list(slips)
    room = players if players is not None else len({line.player for line in lines})
    # What counts, by turn and by player: a late slip counts nothing.
    by_turn: dict[int, list[SlipLine[P]]] = {}
    counted_of: dict[P, list[SlipLine[P]]] = {line.player: [] for line in lines}
    for line in lines:
        if not line.late:
            by_turn.setdefault(line.turn, []).append(line)
            counted_of[line.player].append(line)
    solos: dict[P, list[int]] = {}
    for turn, counted in sorted(by_turn.items()):
        soloist = _soloist(counted, tops.get(turn), rules)
        if soloist is not None:
            solos.setdefault(soloist, []).append(turn)
    out: dict[P, Tally] = {}
    for player, own in counted_of.items():
        total = sum(line.score for line in own)
        found = sum(1 for line in own if scores_top(line.score, tops.get(line.turn)))
        warnings = sum(1 for line in own if line.warning)
        warning_penalty = max(0, warnings - rules.free_warnings) * rules.warning_penalty_points
        penalty = sum(line.penalty for line in own)
        turns = tuple(solos.get(player, ()))
        bonus = len(turns) * rules.solo_bonus if room >= rules.solo_min_players else 0
        out[player] = Tally(
            total=total,
            tops=found,
            solos=len(turns),
            solo_turns=turns,
            solo_bonus=bonus,
            warnings=warnings,
            warning_penalty=warning_penalty,
            penalty=penalty,
            result=max(0, total + bonus - penalty - warning_penalty),
        )
    return out


def _soloist(turn: list[SlipLine[P]], top: int | None, rules: SlipRules) -> P | None:
    """The player with the turn's solo, if any: the one line alone with the top ("top"),
    or alone with the highest score above 0 ("highest"); one line per player."""
    if rules.solo_rule == "top":
        best = [line for line in turn if scores_top(line.score, top)]
    else:
        high = max((line.score for line in turn), default=0)
        best = [line for line in turn if line.score == high] if high > 0 else []
    return best[0].player if len(best) == 1 else None
