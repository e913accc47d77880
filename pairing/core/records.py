"""The records the pairing engines read and write.

Plain frozen dataclasses, so that an engine is a pure function from records to records:
the Django adapter builds ``PairingEntrant`` rows from the ORM and turns the returned
``Pairing`` into a round. This module must never import Django, the ORM or another app.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CriterionTotal",
    "Explanation",
    "ExplanationValue",
    "Pair",
    "Pairing",
    "PairingEntrant",
    "PairingError",
    "PastGame",
    "PastTable",
    "RepeatMeeting",
    "Table",
    "TablePairing",
]


class PairingError(ValueError):
    """The input cannot be paired as asked (duplicate ids, unknown system, bad option)."""


@dataclass(frozen=True)
class PastGame:
    """One game an entrant played earlier in this competition.

    ``started`` is True when this entrant started, False when the opponent did, and
    None when nobody recorded it.
    """

    opponent_id: int
    round_number: int
    started: bool | None = None


@dataclass(frozen=True)
class PairingEntrant:
    """An entrant who is present for the round being paired.

    The caller passes only the players present: absent players simply are not in the
    list, and a late entrant is a record like any other with its own match points. No
    engine assumes that ``games`` equals the number of rounds played so far.

    - ``rank``: place in the current standings, 1 = top (shared ranks are allowed;
      ties are broken by ``id``).
    - ``match_points`` / ``board_points``: the standings totals (wedstrijdpunten /
      bordpunten). Match points may be fractional (1.5 …); they are compared exactly.
    - ``rating`` / ``seed``: only used to pair a first round by rating or seed; seed 1
      is the top seed and also the Berger number for round robins.
    - ``byes``: byes received so far.
    - ``starts`` / ``games``: games this entrant started, out of the games whose
      starter is recorded (a game with an unknown starter counts in neither).
    - ``recent_starts``: the entrant's own games with a recorded starter, oldest first,
      True = started; only the last few matter (runs).
    - ``opponents``: every earlier game, for repeat avoidance and to let the other
      player start in a return game.
    """

    id: int
    rank: int
    match_points: float = 0
    board_points: int = 0
    rating: int | None = None
    seed: int | None = None
    byes: int = 0
    starts: int = 0
    games: int = 0
    recent_starts: tuple[bool, ...] = ()
    opponents: tuple[PastGame, ...] = ()


@dataclass(frozen=True)
class Pair:
    """One table of a round, with what the director's review screen shows.

    ``player_a`` is the higher placed of the two (by the system's order, normally the
    standings rank), ``player_b`` the other. ``starter`` is None when the starter is
    drawn by lot at the table. ``meetings`` counts earlier games between the two and
    ``last_met_round`` is the round of the latest (None when they never met).
    """

    table: int
    player_a: int
    player_b: int
    starter: int | None
    match_point_gap: float
    board_point_gap: int
    meetings: int
    last_met_round: int | None


@dataclass(frozen=True)
class CriterionTotal:
    """How much one Swiss criterion cost in the chosen pairing (0 = fully met).

    ``key`` is stable (for translation by the caller), ``note`` a short English
    explanation of the number.
    """

    key: str
    penalty: int
    note: str


#: A parameter of an explanation: a count, an id, a code or a flag; never a sentence.
ExplanationValue = int | str | bool | None


@dataclass(frozen=True)
class Explanation:
    """Which engine made a pairing and why, in codes and parameters for the caller to put
    in the reader's words (this package writes no sentences).

    ``system`` is the engine ("swiss", "round_robin", "king_of_the_hill", "random",
    "by_rating", "golfer"); ``method`` how it paired ("optimal_matching", "berger",
    "standings_order", "draw", "slide", "exact", "local_search", "schedule", "search");
    ``params`` the numbers behind it, sorted by name: ``repeats_left`` (pairs that meet
    again), ``repeats_avoided`` (Swiss: how many more a pairing straight down the
    standings would have had), ``floaters``, ``seed``, ``schedule_round`` /
    ``schedule_rounds``, ``sizes`` ("4+4+3"), and ``bye_to`` (an entrant id) with
    ``bye_reason`` ("lowest_placed", "lowest_without_bye", "fewest_byes", "schedule").
    """

    system: str
    method: str
    params: tuple[tuple[str, ExplanationValue], ...] = ()

    @classmethod
    def of(cls, system: str, method: str, **params: ExplanationValue) -> Explanation:
        return cls(system, method, tuple(sorted(params.items())))

    def param(self, key: str) -> ExplanationValue:
        return dict(self.params).get(key)

    def to_dict(self) -> dict[str, str | dict[str, ExplanationValue]]:
        """As JSON keeps it: ``{"system": ..., "method": ..., "params": {...}}``."""
        return {"system": self.system, "method": self.method, "params": dict(self.params)}


@dataclass(frozen=True)
class Pairing:
    """A complete round: the tables, who has the bye, and why (``explanation``).

    ``weight`` is the total weight of the maximum-weight matching (Swiss only, None for
    systems that do not optimise); ``criteria`` breaks the Swiss penalty down per
    criterion, most important first.
    """

    pairs: tuple[Pair, ...]
    bye: int | None
    weight: int | None
    system: str
    criteria: tuple[CriterionTotal, ...] = ()
    explanation: Explanation | None = None

    def player_ids(self) -> tuple[int, ...]:
        """Everyone with a game this round, in table order, then the bye."""
        ids = [player for pair in self.pairs for player in (pair.player_a, pair.player_b)]
        if self.bye is not None:
            ids.append(self.bye)
        return tuple(ids)


@dataclass(frozen=True)
class PastTable:
    """One earlier game of 2 to 4 players, for pairing into tables.

    ``players`` are in playing order, so ``players[0]`` started; ``order_known`` is
    False when the order was drawn at the table and not recorded (the game then counts
    for meetings but not for who starts).
    """

    round_number: int
    players: tuple[int, ...]
    order_known: bool = True


@dataclass(frozen=True)
class RepeatMeeting:
    """Two players at one table who met before: how often, and the latest round."""

    player_a: int
    player_b: int
    meetings: int
    last_round: int


@dataclass(frozen=True)
class Table:
    """One table of a round with what the director's pairing page explains.

    ``players`` are in seat order: seat 0 starts, then the others in turn. When
    ``seated`` is False the order is drawn at the table and ``players`` are simply in
    standings order. ``repeats`` lists every pair at the table that met before;
    ``match_point_spread`` is the highest minus the lowest match points at the table.
    """

    number: int
    players: tuple[int, ...]
    seated: bool
    repeats: tuple[RepeatMeeting, ...]
    match_point_spread: float
    board_point_spread: int

    @property
    def starter(self) -> int | None:
        return self.players[0] if self.seated else None

    @property
    def repeat_meetings(self) -> int:
        """Earlier meetings between players at this table (2 for a pair that met twice)."""
        return sum(repeat.meetings for repeat in self.repeats)


@dataclass(frozen=True)
class TablePairing:
    """A complete round at tables of 2 to 4: the tables, who has the bye, which system
    and why (``explanation``)."""

    tables: tuple[Table, ...]
    bye: int | None
    system: str
    explanation: Explanation | None = None

    @property
    def repeat_meetings(self) -> int:
        return sum(table.repeat_meetings for table in self.tables)

    def player_ids(self) -> tuple[int, ...]:
        """Everyone with a game this round, in table and seat order, then the bye."""
        ids = [player for table in self.tables for player in table.players]
        if self.bye is not None:
            ids.append(self.bye)
        return tuple(ids)
