"""Standings of a competition: who ranks where, computed from the results of its games.

Pure: frozen dataclasses in, dataclasses out (DESIGN.md, "Rules of the house", item 2).
This module must never import Django or anything from the project's apps; the competition
app's adapter turns ORM rows into :class:`EntrantRecord` and :class:`GameRecord` (one
against one) or :class:`TableRecord` (a table of 2 to 4) and renders the
:class:`StandingRow` results. The ranking and every choice made here (byes, forfeits,
annulled games, averages, tables, tiebreaks) are documented in ``docs/standings.md``.

>>> entrants = [EntrantRecord(1, "Anna"), EntrantRecord(2, "Bert")]
>>> games = [GameRecord(1, 1, 2, 412, 388, "normal", "a")]
>>> [(row.rank, row.name, row.match_points, row.spread) for row in compute(entrants, games)]
[(1, 'Anna', 2.0, 24), (2, 'Bert', 0.0, -24)]

A table of four: 2/1/0 against each opponent, so the winner gets 6.

>>> four = [EntrantRecord(n, name) for n, name in enumerate("ABCD", start=1)]
>>> seats = tuple(SeatRecord(n, score) for n, score in [(1, 300), (2, 250), (3, 250), (4, 90)])
>>> [(row.name, row.match_points) for row in compute(four, [TableRecord(1, seats, "normal")])]
[('A', 6.0), ('B', 3.0), ('C', 3.0), ('D', 0.0)]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any, Literal, NamedTuple, get_args

from rules import result as result_rules

Outcome = Literal["normal", "flag_fall", "forfeit", "annulled", "bye"]
Winner = Literal["a", "b", "draw", "none"]
Tiebreak = Literal[
    "spread",
    "wins",
    "head_to_head",
    "opponents_match_points",
    "sonneborn_berger",
    "relative_score",
]
Result = Literal["win", "draw", "loss", "bye", "annulled"]
TableScoring = Literal["per_opponent", "scaled"]

TIEBREAKS: tuple[str, ...] = get_args(Tiebreak)
OUTCOMES: tuple[str, ...] = get_args(Outcome)
WINNERS: tuple[str, ...] = get_args(Winner)
TABLE_SCORINGS: tuple[str, ...] = get_args(TableScoring)
MAX_SEATS = 4  # the standard rules: "Scrabble speel je met 2 tot 4 spelers"

_PLAYED = ("normal", "flag_fall")
# Match points are added up in units of 1/6 when tables are scaled, so that dividing by 1,
# 2 or 3 opponents stays exact in floats; per opponent the unit is 1, today's arithmetic.
_SCALED_UNIT = 6


@dataclass(frozen=True)
class EntrantRecord:
    """One player entered in the competition."""

    player_id: int
    name: str
    group: str = ""  # division; "" when the competition has no groups


@dataclass(frozen=True)
class GameRecord:
    """One game's result, as the standings need it.

    ``winner`` is already consistent with ``outcome``: by score for a normal game; for a
    flag fall the player whose flag did not fall, whatever the score; for a forfeit the
    player who did not forfeit (``"none"`` when both did); ``"none"`` when annulled; ``"a"``
    for a bye, which ``player_a`` receives (``player_b`` is then ``None``).
    """

    round_number: int
    player_a: int
    player_b: int | None
    score_a: int | None  # board points; None when not played (forfeit, annulled, bye)
    score_b: int | None
    outcome: Outcome
    winner: Winner

    @property
    def player_ids(self) -> tuple[int, ...]:
        """The players of the game: both, or the one with a bye."""
        return (self.player_a,) if self.player_b is None else (self.player_a, self.player_b)


@dataclass(frozen=True)
class SeatRecord:
    """One player's seat at a table: the score as recorded and what happened to them."""

    player_id: int
    score: int | None = None  # board points; None when not played (forfeit, bye)
    flag_fell: bool = False
    forfeited: bool = False  # did not come: no score, loses against everyone at the table


@dataclass(frozen=True)
class TableRecord:
    """One game at a table of 2 to 4 players, the seats in playing order.

    Unlike :class:`GameRecord` there is no ``winner``: every pair at the table is a
    meeting, and who won it follows from the seats, by the one rule of
    ``rules.result`` (``places``, then ``meetings``). A player whose flag fell loses
    against every player whose flag did not; otherwise the higher score wins, equal scores
    draw. A player who forfeited loses against everyone at the table (two who forfeited
    both lose).

    - ``"normal"`` / ``"flag_fall"``: at least two players came and have a score; a flag
      fell (at least one) only in a flag fall. Players who forfeited may sit at it too.
    - ``"forfeit"``: no scores; at least one player forfeited. Those who came win against
      those who did not, and did not meet each other (nobody played).
    - ``"annulled"``: scores as recorded (or None); nothing counts.
    - ``"bye"``: one seat, no score (see :meth:`bye`).

    A table of two is today's one-against-one game: it gives the same standings as the
    :class:`GameRecord` of that game.
    """

    round_number: int
    seats: tuple[SeatRecord, ...]
    outcome: Outcome

    @classmethod
    def bye(cls, round_number: int, player_id: int) -> TableRecord:
        return cls(round_number, (SeatRecord(player_id),), "bye")

    @property
    def player_ids(self) -> tuple[int, ...]:
        return tuple(seat.player_id for seat in self.seats)


Record = GameRecord | TableRecord


@dataclass(frozen=True)
class StandingsSettings:
    """How a competition turns results into a ranking. Defaults: Gouds 8, rule 4."""

    win: float = 2
    draw: float = 1
    loss: float = 0
    bye_match_points: float = 2
    # "average": the player's own average board points per played game, rounded half up,
    # over the games up to the standings round.
    bye_board_points: int | Literal["average"] = 0
    forfeit_win_match_points: float = 2
    forfeit_win_board_points: int | Literal["average"] = 0
    forfeit_loss_match_points: float = 0
    tiebreaks: tuple[str, ...] = ("spread",)
    ranking: Literal["totals", "average"] = "totals"
    # With ranking="average": players with fewer games rank after those who have enough.
    min_games: int = 0
    # At a table of 3 or 4: "per_opponent" adds win/draw/loss against every opponent (a
    # foursome's winner gets 6); "scaled" divides that by the number of opponents, so a
    # table is worth one game (its winner gets 2). The same at a table of 2.
    table_scoring: TableScoring = "per_opponent"

    def __post_init__(self) -> None:
        unknown = [name for name in self.tiebreaks if name not in TIEBREAKS]
        if unknown:
            raise ValueError(f"unknown tiebreak {unknown[0]!r}; choose from {TIEBREAKS}")
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise ValueError(f"tiebreak listed twice in {self.tiebreaks}")
        if self.ranking not in ("totals", "average"):
            raise ValueError(f"ranking must be 'totals' or 'average', not {self.ranking!r}")
        for name in ("bye_board_points", "forfeit_win_board_points"):
            value = getattr(self, name)
            if value != "average" and not isinstance(value, int):
                raise ValueError(f"{name} must be an int or 'average', not {value!r}")
        if self.min_games < 0:
            raise ValueError("min_games cannot be negative")
        if self.table_scoring not in TABLE_SCORINGS:
            raise ValueError(
                f"table_scoring must be one of {TABLE_SCORINGS}, not {self.table_scoring!r}"
            )


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings table."""

    rank: int  # shared on complete equality: 1, 2, 2, 4
    player_id: int
    name: str
    group: str
    games: int  # games (tables) that count: played, forfeited either way, and byes
    wins: int  # per opponent met, including forfeit wins; byes are counted apart
    draws: int
    losses: int  # including own forfeits
    byes: int
    match_points: float
    board_points: int  # played games' scores plus board points awarded for byes/forfeits
    opponents_board_points: int  # only games played on the board, every opponent's score
    spread: int  # only games played on the board: own score minus each opponent's
    average_match_points: float | None  # per game counted; None without games
    average_board_points: float | None
    tiebreak_values: dict[str, float] = field(default_factory=dict)
    qualified: bool = True  # False when ranking="average" and games < min_games


@dataclass(frozen=True)
class RoundResult:
    """One line of a player's running totals (the player page).

    At a table of 3 or 4, ``opponent`` and ``opponent_score`` are None and the ``table_``
    fields list the others in seat order; :attr:`opponents` and :attr:`opponent_scores`
    read either form.
    """

    round_number: int
    opponent: int | None  # None for a bye, and at a table of 3 or 4
    outcome: Outcome
    # From this player's point of view; a double forfeit is a "loss". At a table of 3 or
    # 4: "win" when the player won more meetings than they lost, "loss" when fewer.
    result: Result
    score: int | None  # as recorded; None when not played
    opponent_score: int | None
    match_points: float  # gained in this game
    board_points: int  # counted for the standings (awarded points for byes/forfeits)
    cumulative_match_points: float
    cumulative_board_points: int
    table_opponents: tuple[int, ...] = ()  # only at a table of 3 or 4
    table_opponent_scores: tuple[int | None, ...] = ()
    table_results: tuple[Result, ...] = ()  # against each of table_opponents
    place: int | None = None  # at a table of 3 or 4: 1 + the players who beat this one

    @property
    def opponents(self) -> tuple[int, ...]:
        if self.table_opponents:
            return self.table_opponents
        return () if self.opponent is None else (self.opponent,)

    @property
    def opponent_scores(self) -> tuple[int | None, ...]:
        if self.table_opponents:
            return self.table_opponent_scores
        return () if self.opponent is None else (self.opponent_score,)


class _Table(NamedTuple):
    """A game or a table, read one way: the form the rest of this module works on.

    A NamedTuple, not a dataclass: one is made per game, 4,500 for a season of 300.
    """

    round_number: int
    outcome: Outcome
    players: tuple[int, ...]
    scores: tuple[int | None, ...]
    # Each seat's place (`rules.result.places`), from which `rules.result.meetings` says
    # who beat whom. A GameRecord's come from its `winner`, a TableRecord's from its seats.
    places: tuple[int | None, ...]
    forfeited: tuple[bool, ...]
    # Whether each seat played the game on the board (and so has a score that counts).
    on_board: tuple[bool, ...]
    played_count: int  # seats on the board, and their total score (for relative_score)
    played_total: int


def _make_table(
    round_number: int,
    outcome: Outcome,
    players: tuple[int, ...],
    scores: tuple[int | None, ...],
    places: tuple[int | None, ...],
    forfeited: tuple[bool, ...],
) -> _Table:
    played = outcome in _PLAYED
    on_board = tuple(played and not seat_forfeited for seat_forfeited in forfeited)
    count = total = 0
    for seat_on_board, score in zip(on_board, scores, strict=True):
        if seat_on_board:
            count += 1
            total += score or 0
    return _Table(round_number, outcome, players, scores, places, forfeited, on_board, count, total)


#: One pair at a table, from one side: (opponent, match points of this meeting (win, draw,
#: loss or a forfeit's, unscaled), result (win, draw or loss), opponent's score (None when
#: not played on the board, a forfeit)). A plain tuple: 9,000 are made in a season of 300.
_Meeting = tuple[int, float, Result, int | None]


class _Seat(NamedTuple):
    """What one seat gained from one table."""

    result: Result
    units: float  # match points in units of `_unit(settings)`
    board_points: int
    meetings: tuple[_Meeting, ...]  # in seat order
    wins: int
    draws: int
    losses: int


class _Tally:
    """Mutable totals of one player while the games are read."""

    __slots__ = (
        "board_points",
        "byes",
        "draws",
        "games",
        "losses",
        "match_points",
        "meetings",
        "opponents_board_points",
        "played_board_points",
        "played_games",
        "relative_scores",
        "spread",
        "wins",
    )

    def __init__(self) -> None:
        self.games = self.wins = self.draws = self.losses = self.byes = 0
        self.match_points = 0.0  # in units of `_unit(settings)`
        self.board_points = self.opponents_board_points = self.spread = 0
        self.played_games = self.played_board_points = 0
        # Meetings on the board: (opponent, match points of that meeting, result, ...).
        self.meetings: list[_Meeting] = []
        # Per table played: (own score x players who played, the table's total score).
        self.relative_scores: list[tuple[int, int]] = []

    def average_played_board_points(self) -> int:
        if not self.played_games:
            return 0
        return _round_half_up(Fraction(self.played_board_points, self.played_games))


def compute(
    entrants: Iterable[EntrantRecord],
    games: Iterable[Record],
    settings: StandingsSettings | None = None,
    *,
    after_round: int | None = None,
) -> list[StandingRow]:
    """The standings of all entrants, best first, over the games up to ``after_round``.

    Entrants without games are listed too. Groups are ignored: everyone is ranked together
    (see :func:`compute_by_group`). Players who appear in games but are not entrants count
    as opponents (for opponents' match points) but get no row.
    """
    settings = settings or StandingsSettings()
    entrants = _unique_entrants(entrants)
    tallies = _tally(games, settings, after_round)
    return _rank(entrants, tallies, settings)


def compute_by_group(
    entrants: Iterable[EntrantRecord],
    games: Iterable[Record],
    settings: StandingsSettings | None = None,
    *,
    after_round: int | None = None,
) -> dict[str, list[StandingRow]]:
    """Standings per group (division), groups sorted by name, ranks starting at 1 in each.

    A game between players of different groups still counts for both players (their
    totals, and opponents' match points use the opponent's full total); head-to-head
    compares only players tied within the same group.
    """
    settings = settings or StandingsSettings()
    entrants = _unique_entrants(entrants)
    tallies = _tally(games, settings, after_round)
    groups: dict[str, list[EntrantRecord]] = defaultdict(list)
    for entrant in entrants:
        groups[entrant.group].append(entrant)
    return {name: _rank(groups[name], tallies, settings) for name in sorted(groups)}


def running_totals(
    player_id: int,
    games: Iterable[Record],
    settings: StandingsSettings | None = None,
    *,
    after_round: int | None = None,
) -> list[RoundResult]:
    """The player's games in round order, with match and board points gained and cumulated.

    Annulled games are listed (result ``"annulled"``) and gain nothing. Board points awarded
    as ``"average"`` use the average up to ``after_round`` in every line, so the last line's
    cumulative totals equal the player's row in ``compute(..., after_round=after_round)``.
    """
    settings = settings or StandingsSettings()
    # Only the player's own records are read (and checked), as before tables.
    own_records = [game for game in games if player_id in game.player_ids]
    own = _tables(own_records, after_round)
    tally = _tally(own_records, settings, after_round).get(player_id, _Tally())
    average = tally.average_played_board_points()
    unit = _unit(settings)
    lines: list[RoundResult] = []
    cumulative_match_points = 0.0
    cumulative_board_points = 0
    for table in sorted(own, key=lambda table: table.round_number):
        seat = table.players.index(player_id)
        gained = _seat(table, seat, settings, average)
        cumulative_match_points += gained.units
        cumulative_board_points += gained.board_points
        others = [other for other in range(len(table.players)) if other != seat]
        two = len(table.players) <= 2
        lines.append(
            RoundResult(
                round_number=table.round_number,
                opponent=table.players[others[0]] if two and others else None,
                outcome=table.outcome,
                result=gained.result,
                score=table.scores[seat],
                opponent_score=table.scores[others[0]] if two and others else None,
                match_points=gained.units / unit,
                board_points=gained.board_points,
                cumulative_match_points=cumulative_match_points / unit,
                cumulative_board_points=cumulative_board_points,
                table_opponents=() if two else tuple(table.players[o] for o in others),
                table_opponent_scores=() if two else tuple(table.scores[o] for o in others),
                table_results=() if two else _table_results(table, gained, others),
                place=None if two or table.outcome == "annulled" else _place(gained),
            )
        )
    return lines


class PlayerMeeting(NamedTuple):
    """One player's meeting with an opponent at one table, as the standings count it."""

    round_number: int
    player: int
    opponent: int
    result: Result  # "win", "draw" or "loss", the player's
    # Both None when not played on the board (a forfeit won or lost).
    score: int | None
    opponent_score: int | None


def meetings(games: Iterable[Record], *, after_round: int | None = None) -> Iterator[PlayerMeeting]:
    """Every meeting of the records, from each side, in the order of the records: who beat
    whom as the standings count it (``rules.result.meetings``). The crosstable reads these,
    so that it shows no meeting the standings do not count and none they count otherwise.

    >>> [tuple(m) for m in meetings([GameRecord(1, 1, 2, None, None, "forfeit", "none")])]
    [(1, 1, 2, 'loss', None, None), (1, 2, 1, 'loss', None, None)]
    """
    for table in _tables(games, after_round):
        players, scores = table.players, table.scores
        for seat, other, result, on_board in result_rules.meetings(table.outcome, table.places):
            yield PlayerMeeting(
                table.round_number,
                players[seat],
                players[other],
                result,
                scores[seat] if on_board else None,
                scores[other] if on_board else None,
            )


# -- reading the games -------------------------------------------------------------------


def _unique_entrants(entrants: Iterable[EntrantRecord]) -> list[EntrantRecord]:
    entrants = list(entrants)
    seen: set[int] = set()
    for entrant in entrants:
        if entrant.player_id in seen:
            raise ValueError(f"player {entrant.player_id} is entered twice")
        seen.add(entrant.player_id)
    return entrants


def _tables(games: Iterable[Record], after_round: int | None) -> list[_Table]:
    """The records up to ``after_round``, checked, each read as a table."""
    return [
        _from_game(game) if isinstance(game, GameRecord) else _from_table(game)
        for game in games
        if after_round is None or game.round_number <= after_round
    ]


def _check(game: GameRecord) -> None:
    if game.outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {game.outcome!r} in {game}")
    if game.winner not in WINNERS:
        raise ValueError(f"unknown winner {game.winner!r} in {game}")
    if game.outcome == "bye":
        if game.player_b is not None or game.winner != "a":
            raise ValueError(f"a bye has no player_b and winner 'a': {game}")
        return
    if game.player_b is None:
        raise ValueError(f"only a bye has no player_b: {game}")
    if game.player_a == game.player_b:
        raise ValueError(f"player {game.player_a} cannot play against themselves: {game}")
    if game.outcome in _PLAYED:
        if game.score_a is None or game.score_b is None:
            raise ValueError(f"a {game.outcome} game needs both scores: {game}")
        if game.winner == "none":
            raise ValueError(f"a {game.outcome} game has a winner or is a draw: {game}")
    if game.outcome == "forfeit" and game.winner == "draw":
        raise ValueError(f"a forfeit cannot be a draw: {game}")


def _played(game: GameRecord) -> tuple[int, int, int]:
    """A played game's second player and both scores, checked."""
    _check(game)
    if game.player_b is None or game.score_a is None or game.score_b is None:
        raise ValueError(f"a played game needs both players and both scores: {game}")
    return game.player_b, game.score_a, game.score_b


#: A pair's places by its `winner`, played on the board and by forfeit ("none": both
#: forfeited, or annulled, where no place is given).
_PLAYED_PLACES: dict[str, tuple[int | None, ...]] = {"a": (1, 2), "b": (2, 1), "draw": (1, 1)}
_FORFEIT_PLACES: dict[str, tuple[int | None, ...]] = {
    "a": (1, None),
    "b": (None, 1),
    "none": (None, None),
}
_NO_PLACES = (None, None)
_NO_FORFEIT = (False, False)
_BOTH = (True, True)


def pair_winner(outcome: str, places: tuple[int | None, ...]) -> Winner:
    """A pair's `winner` as :class:`GameRecord` names it, from its seats' places: who
    beat whom as ``rules.result.meetings`` says ("none": nobody won, as when both stayed
    away or the game was annulled). The adapters' one way from stored places to a winner.

    >>> pair_winner("normal", (2, 1)), pair_winner("forfeit", (None, None))
    ('b', 'none')
    """
    if outcome == "bye":
        return "a"
    first = next(iter(result_rules.meetings(outcome, places)), None)
    if first is None:
        return "none"
    if first.result == "draw":
        return "draw"
    if first.result == "win":
        return "a"
    second = result_rules.meetings(outcome, places)[1]
    return "b" if second.result == "win" else "none"


def _from_game(game: GameRecord) -> _Table:
    """A one-against-one game as a table of two (one seat for a bye); ``winner`` decides."""
    _check(game)
    if game.player_b is None:
        return _make_table(
            game.round_number, game.outcome, (game.player_a,), (game.score_a,), (1,), (False,)
        )
    players, scores = (game.player_a, game.player_b), (game.score_a, game.score_b)
    if game.outcome in _PLAYED:  # the common case, built directly: 4,500 in a season
        total = (game.score_a or 0) + (game.score_b or 0)
        places = _PLAYED_PLACES[game.winner]
        return _Table(
            game.round_number, game.outcome, players, scores, places, _NO_FORFEIT, _BOTH, 2, total
        )
    forfeited = (False, False)
    places = _NO_PLACES
    if game.outcome == "forfeit":
        forfeited = (game.winner != "a", game.winner != "b")
        places = _FORFEIT_PLACES[game.winner]
    return _make_table(game.round_number, game.outcome, players, scores, places, forfeited)


def _check_table(table: TableRecord) -> None:
    seats = table.seats
    if table.outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {table.outcome!r} in {table}")
    players = [seat.player_id for seat in seats]
    if len(set(players)) != len(players):
        raise ValueError(f"a player sits at a table once: {table}")
    if table.outcome == "bye":
        if len(seats) != 1 or seats[0] != SeatRecord(seats[0].player_id):
            raise ValueError(f"a bye is one seat without score, flag or forfeit: {table}")
        return
    if not 2 <= len(seats) <= MAX_SEATS:
        raise ValueError(f"a table has 2 to {MAX_SEATS} seats: {table}")
    if table.outcome == "annulled":
        return
    if any(seat.forfeited and (seat.score is not None or seat.flag_fell) for seat in seats):
        raise ValueError(f"a player who forfeited has no score and no flag: {table}")
    present = [seat for seat in seats if not seat.forfeited]
    if table.outcome == "forfeit":
        if not any(seat.forfeited for seat in seats) or any(
            seat.score is not None for seat in seats
        ):
            raise ValueError(f"a forfeit has no scores and one player who did not come: {table}")
        return
    if len(present) < 2 or any(seat.score is None for seat in present):
        raise ValueError(f"a {table.outcome} table needs two players with a score: {table}")
    flags = any(seat.flag_fell for seat in present)
    if flags != (table.outcome == "flag_fall"):
        raise ValueError(f"a flag fell at a table if and only if it is a flag_fall: {table}")
    if all(seat.flag_fell for seat in present):
        raise ValueError(f"not every flag can fall at a table, someone wins: {table}")


def _from_table(table: TableRecord) -> _Table:
    _check_table(table)
    scores = tuple(seat.score for seat in table.seats)
    forfeited = tuple(seat.forfeited for seat in table.seats)
    return _make_table(
        table.round_number,
        table.outcome,
        tuple(seat.player_id for seat in table.seats),
        scores,
        result_rules.places(
            table.outcome,
            scores=scores,
            flag_fell=tuple(seat.flag_fell for seat in table.seats),
            forfeited=forfeited,
        ),
        forfeited,
    )


def _meetings(table: _Table, settings: StandingsSettings) -> list[list[_Meeting]]:
    """Every seat's meetings at a table, each in seat order, with the match points of
    each: who beat whom is ``rules.result.meetings``' (a forfeit is not on the board: it
    scores the forfeit's match points and has no opponent's score)."""
    players, scores = table.players, table.scores
    on_board_points = {"win": settings.win, "draw": settings.draw, "loss": settings.loss}
    forfeit_points = {
        "win": settings.forfeit_win_match_points,
        "loss": settings.forfeit_loss_match_points,
    }
    meetings: list[list[_Meeting]] = [[] for _ in players]
    for seat, other, result, on_board in result_rules.meetings(table.outcome, table.places):
        if on_board:
            meeting = (players[other], on_board_points[result], result, scores[other])
        else:
            meeting = (players[other], forfeit_points[result], result, None)
        meetings[seat].append(meeting)
    return meetings


def _seat(
    table: _Table,
    seat: int,
    settings: StandingsSettings,
    average: int,
    meetings: list[_Meeting] | None = None,
) -> _Seat:
    """Match points and board points one seat gets from one table, and its meetings.

    ``average`` is the player's average board points, for board points awarded as
    ``"average"`` (a bye, or a forfeit table the player came to). ``meetings`` are the
    seat's from :func:`_meetings`, when the table's are already known.
    """
    outcome = table.outcome
    if outcome == "annulled":
        return _Seat("annulled", 0.0, 0, (), 0, 0, 0)
    if outcome == "bye":
        return _Seat(
            "bye",
            float(settings.bye_match_points * _unit(settings)),
            _points(settings.bye_board_points, average),
            (),
            0,
            0,
            0,
        )
    if meetings is None:
        meetings = _meetings(table, settings)[seat]
    match_points = 0.0
    wins = draws = losses = 0
    for _, points, result, _ in meetings:
        match_points += points
        if result == "win":
            wins += 1
        elif result == "loss":
            losses += 1
        else:
            draws += 1
    if settings.table_scoring == "scaled":
        match_points *= _SCALED_UNIT // len(meetings)
    if table.on_board[seat]:
        board_points = table.scores[seat] or 0
    elif table.forfeited[seat]:
        board_points = 0
    else:
        board_points = _points(settings.forfeit_win_board_points, average)
    result_: Result = "win" if wins > losses else "loss" if wins < losses else "draw"
    return _Seat(result_, match_points, board_points, tuple(meetings), wins, draws, losses)


def _table_results(table: _Table, gained: _Seat, others: list[int]) -> tuple[Result, ...]:
    """The seat's result against each of the others in seat order: "annulled" (nothing
    counts) where they did not meet, at an annulled table or between two who came to a
    forfeit."""
    met: dict[int, Result] = {opponent: result for opponent, _, result, _ in gained.meetings}
    return tuple(met.get(table.players[other], "annulled") for other in others)


def _place(gained: _Seat) -> int:
    return 1 + gained.losses


def _unit(settings: StandingsSettings) -> int:
    return _SCALED_UNIT if settings.table_scoring == "scaled" else 1


def _points(setting: int | Literal["average"], average: int) -> int:
    return average if setting == "average" else setting


def _tally(
    games: Iterable[Record], settings: StandingsSettings, after_round: int | None
) -> dict[int, _Tally]:
    """Every player's totals from the records up to ``after_round``, in one pass.

    A played game of two, 4,500 in a season of 300 and every game before tables, is
    added where it is read, from its fields (no table, seat or meeting objects); every
    other record is read as a :class:`_Table` and added seat by seat.
    """
    tallies: dict[int, _Tally] = defaultdict(_Tally)
    awarded: list[tuple[_Table, int]] = []
    unit = _unit(settings)
    relative = "relative_score" in settings.tiebreaks  # kept only when it is asked for
    # A played pair's two sides by its winner, as the table of two it is would give them
    # (`_meetings`): read once here, not per game.
    by_winner: dict[str, tuple[float, float, Result, Result]] = {}
    for winner, places in _PLAYED_PLACES.items():
        side_a, side_b = (
            meeting
            for (meeting,) in _meetings(
                _make_table(0, "normal", (0, 1), (0, 0), places, _NO_FORFEIT), settings
            )
        )
        by_winner[winner] = (side_a[1], side_b[1], side_a[2], side_b[2])
    for game in games:
        if after_round is not None and game.round_number > after_round:
            continue
        if isinstance(game, GameRecord):
            if game.outcome in _PLAYED:
                player_b, score_a, score_b = _played(game)
                points_a, points_b, result_a, result_b = by_winner[game.winner]
                total = score_a + score_b if relative else None
                _add_two(
                    tallies[game.player_a],
                    player_b,
                    score_a,
                    score_b,
                    result_a,
                    points_a,
                    unit,
                    total,
                )
                _add_two(
                    tallies[player_b],
                    game.player_a,
                    score_b,
                    score_a,
                    result_b,
                    points_b,
                    unit,
                    total,
                )
                continue
            table = _from_game(game)
        else:
            table = _from_table(game)
        if table.outcome == "annulled":
            continue
        meetings = _meetings(table, settings)
        for seat, player_id in enumerate(table.players):
            if table.outcome == "bye" or not (table.on_board[seat] or table.forfeited[seat]):
                # Byes and forfeit wins may award the player's average, known only after
                # all played games are read.
                awarded.append((table, seat))
                continue
            _add(tallies[player_id], table, seat, settings, 0, relative, meetings[seat])
    for table, seat in awarded:
        tally = tallies[table.players[seat]]
        _add(tally, table, seat, settings, tally.average_played_board_points(), relative)
    return tallies


def _add_two(
    tally: _Tally,
    opponent: int,
    score: int,
    opponent_score: int,
    result: Result,
    match_points: float,
    unit: int,
    total: int | None,
) -> None:
    """Add one side of a played game of two: what :func:`_add` adds for a table of two.

    ``total`` is both scores together when relative_score is asked for, else None.
    """
    tally.games += 1
    tally.played_games += 1
    if result == "win":
        tally.wins += 1
    elif result == "draw":
        tally.draws += 1
    else:
        tally.losses += 1
    tally.match_points += match_points * unit  # one opponent: scaled or not, the same
    tally.board_points += score
    tally.played_board_points += score
    tally.opponents_board_points += opponent_score
    tally.spread += score - opponent_score
    tally.meetings.append((opponent, match_points, result, opponent_score))
    if total is not None:
        # as `_add` keeps it: 1 is the table's average, also when both scored 0
        tally.relative_scores.append((score * 2, total) if total else (1, 1))


def _add(
    tally: _Tally,
    table: _Table,
    seat: int,
    settings: StandingsSettings,
    average: int,
    relative: bool,
    meetings: list[_Meeting] | None = None,
) -> None:
    """Add what one seat gained from one table to the player's totals.

    A seat that played on the board (``meetings`` given) is added in one loop over its
    meetings, the sums :func:`_seat` makes, without a :class:`_Seat`: 9,000 a season at
    tables of four. Byes, forfeits and annulled tables go through :func:`_seat`.
    """
    if meetings is not None and table.on_board[seat]:
        score = table.scores[seat] or 0
        units = 0.0
        for meeting in meetings:
            _, points, result, opponent_score = meeting
            units += points
            if result == "win":
                tally.wins += 1
            elif result == "loss":
                tally.losses += 1
            else:
                tally.draws += 1
            if opponent_score is not None:
                tally.opponents_board_points += opponent_score
                tally.spread += score - opponent_score
                tally.meetings.append(meeting)
        if settings.table_scoring == "scaled":
            units *= _SCALED_UNIT // len(meetings)
        tally.games += 1
        tally.match_points += units
        tally.board_points += score
        tally.played_games += 1
        tally.played_board_points += score
        if relative:
            total = table.played_total
            # 1 is the table's average; a table where everyone scored 0 is average for all
            tally.relative_scores.append((score * table.played_count, total) if total else (1, 1))
        return
    gained = _seat(table, seat, settings, average, meetings)
    tally.games += 1
    tally.match_points += gained.units
    tally.board_points += gained.board_points
    if gained.result == "bye":
        tally.byes += 1
    tally.wins += gained.wins
    tally.draws += gained.draws
    tally.losses += gained.losses
    if not table.on_board[seat]:
        return
    score = gained.board_points
    tally.played_games += 1
    tally.played_board_points += score
    if relative:
        total = table.played_total
        tally.relative_scores.append((score * table.played_count, total) if total else (1, 1))
    for meeting in gained.meetings:
        opponent_score = meeting[3]
        if opponent_score is not None:
            tally.opponents_board_points += opponent_score
            tally.spread += score - opponent_score
            tally.meetings.append(meeting)


# -- ranking -----------------------------------------------------------------------------


def _rank(
    entrants: Sequence[EntrantRecord],
    tallies: Mapping[int, _Tally],
    settings: StandingsSettings,
) -> list[StandingRow]:
    empty = _Tally()

    def tally_of(player_id: int) -> _Tally:
        return tallies.get(player_id, empty)

    unit = _unit(settings)
    # in units: sums of exact floats, the same in any order
    match_points_of = {player_id: tally.match_points for player_id, tally in tallies.items()}

    def opponents_match_points(tally: _Tally) -> float:
        return sum(match_points_of[opponent] for opponent, _, _, _ in tally.meetings) / unit

    def sonneborn_berger(tally: _Tally) -> float:
        factor = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        return (
            sum(match_points_of[opp] * factor[result] for opp, _, result, _ in tally.meetings)
            / unit
        )

    def relative_score(tally: _Tally) -> Fraction:
        if not tally.relative_scores:
            return Fraction(0)
        shares = sum((Fraction(own, total) for own, total in tally.relative_scores), Fraction(0))
        return shares / len(tally.relative_scores)

    static: dict[str, Callable[[_Tally], Fraction | float]] = {
        "spread": lambda tally: tally.spread,
        "wins": lambda tally: tally.wins,
        "opponents_match_points": opponents_match_points,
        "sonneborn_berger": sonneborn_berger,
        "relative_score": relative_score,
    }
    # Compared as shown, floats: equal fractions give equal floats.
    values: dict[int, dict[str, float]] = {
        entrant.player_id: {
            name: float(static[name](tally_of(entrant.player_id))) if name in static else 0.0
            for name in settings.tiebreaks
        }
        for entrant in entrants
    }

    def primary(player_id: int) -> tuple[Any, ...]:
        tally = tally_of(player_id)
        if settings.ranking == "totals":
            return (tally.match_points, tally.board_points)
        if not tally.games:
            return (False, 0, 0)
        return (
            True,
            Fraction(tally.match_points) / tally.games,
            Fraction(tally.board_points, tally.games),
        )

    def qualified(player_id: int) -> bool:
        return settings.ranking == "totals" or tally_of(player_id).games >= settings.min_games

    by_id = {entrant.player_id: entrant for entrant in entrants}
    blocks = [
        [entrant.player_id for entrant in entrants if qualified(entrant.player_id)],
        [entrant.player_id for entrant in entrants if not qualified(entrant.player_id)],
    ]
    rows: list[StandingRow] = []
    for block in blocks:
        groups = _split(block, primary)
        for name in settings.tiebreaks:
            refined: list[list[int]] = []
            for group in groups:
                if len(group) == 1:
                    refined.append(group)
                    continue
                if name == "head_to_head":
                    mini_league, complete = _head_to_head(group, tallies)
                    for player_id in group:
                        values[player_id][name] = mini_league[player_id]
                    if not complete:
                        refined.append(group)
                        continue
                refined.extend(_split(group, partial(_tiebreak_value, values, name)))
            groups = refined
        for group in groups:
            rank = len(rows) + 1
            for player_id in sorted(group, key=lambda pid: _name_key(by_id[pid])):
                rows.append(
                    _row(
                        rank,
                        by_id[player_id],
                        tally_of(player_id),
                        values[player_id],
                        qualified=qualified(player_id),
                        unit=unit,
                    )
                )
    return rows


def _tiebreak_value(values: dict[int, dict[str, float]], name: str, player_id: int) -> float:
    return values[player_id][name]


def _split(player_ids: Sequence[int], key: Callable[[int], Any]) -> list[list[int]]:
    """Sort best first by ``key`` and cut into groups of equal key."""
    groups: list[list[int]] = []
    previous: Any = object()
    for player_id in sorted(player_ids, key=key, reverse=True):
        value = key(player_id)
        if groups and value == previous:
            groups[-1].append(player_id)
        else:
            groups.append([player_id])
        previous = value
    return groups


def _head_to_head(
    group: Sequence[int], tallies: Mapping[int, _Tally]
) -> tuple[dict[int, float], bool]:
    """Match points each tied player scored against the others, and whether all have met."""
    members = set(group)
    scores: dict[int, float] = {}
    complete = True
    for player_id in group:
        tally = tallies.get(player_id)
        meetings = tally.meetings if tally else []
        met = {opponent for opponent, _, _, _ in meetings if opponent in members}
        complete = complete and met == members - {player_id}
        scores[player_id] = float(
            sum(match_points for opponent, match_points, _, _ in meetings if opponent in members)
        )
    return scores, complete


def _name_key(entrant: EntrantRecord) -> tuple[str, str, int]:
    return (entrant.name.casefold(), entrant.name, entrant.player_id)


def _row(
    rank: int,
    entrant: EntrantRecord,
    tally: _Tally,
    tiebreak_values: dict[str, float],
    *,
    qualified: bool,
    unit: int,
) -> StandingRow:
    games = tally.games
    match_points = tally.match_points / unit
    return StandingRow(
        rank=rank,
        player_id=entrant.player_id,
        name=entrant.name,
        group=entrant.group,
        games=games,
        wins=tally.wins,
        draws=tally.draws,
        losses=tally.losses,
        byes=tally.byes,
        match_points=match_points,
        board_points=tally.board_points,
        opponents_board_points=tally.opponents_board_points,
        spread=tally.spread,
        average_match_points=match_points / games if games else None,
        average_board_points=tally.board_points / games if games else None,
        tiebreak_values=dict(tiebreak_values),
        qualified=qualified,
    )


def _round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))
