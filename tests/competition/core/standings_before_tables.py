# A frozen copy of competition/core/standings.py as it was before tables (commit 20ca706),
# the oracle for "a table of two gives exactly today's result" in test_standings_tables.py.
# Not used by the app. Do not edit; delete once nobody needs the comparison.

"""Standings of a competition: who ranks where, computed from the results of its games.

Pure: frozen dataclasses in, dataclasses out (DESIGN.md, "Rules of the house", item 2).
This module must never import Django or anything from the project's apps; the competition
app's adapter turns ORM rows into :class:`EntrantRecord` and :class:`GameRecord` and
renders the :class:`StandingRow` results. The ranking and every choice made here (byes, forfeits,
annulled games, averages, tiebreaks) are documented in ``docs/standings.md``.

>>> entrants = [EntrantRecord(1, "Anna"), EntrantRecord(2, "Bert")]
>>> games = [GameRecord(1, 1, 2, 412, 388, "normal", "a")]
>>> [(row.rank, row.name, row.match_points, row.spread) for row in compute(entrants, games)]
[(1, 'Anna', 2.0, 24), (2, 'Bert', 0.0, -24)]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any, Literal, get_args

Outcome = Literal["normal", "flag_fall", "forfeit", "annulled", "bye"]
Winner = Literal["a", "b", "draw", "none"]
Tiebreak = Literal["spread", "wins", "head_to_head", "opponents_match_points", "sonneborn_berger"]
Result = Literal["win", "draw", "loss", "bye", "annulled"]

TIEBREAKS: tuple[str, ...] = get_args(Tiebreak)
OUTCOMES: tuple[str, ...] = get_args(Outcome)
WINNERS: tuple[str, ...] = get_args(Winner)

_PLAYED = ("normal", "flag_fall")


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


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings table."""

    rank: int  # shared on complete equality: 1, 2, 2, 4
    player_id: int
    name: str
    group: str
    games: int  # games that count: played, forfeited either way, and byes
    wins: int  # including forfeit wins; byes are counted apart
    draws: int
    losses: int  # including own forfeits
    byes: int
    match_points: float
    board_points: int  # played games' scores plus board points awarded for byes/forfeits
    opponents_board_points: int  # only games played on the board
    spread: int  # only games played on the board: own score minus opponent's
    average_match_points: float | None  # per game counted; None without games
    average_board_points: float | None
    tiebreak_values: dict[str, float] = field(default_factory=dict)
    qualified: bool = True  # False when ranking="average" and games < min_games


@dataclass(frozen=True)
class RoundResult:
    """One line of a player's running totals (the player page)."""

    round_number: int
    opponent: int | None  # None for a bye
    outcome: Outcome
    result: Result  # from this player's point of view; a double forfeit is a "loss"
    score: int | None  # as recorded; None when not played
    opponent_score: int | None
    match_points: float  # gained in this game
    board_points: int  # counted for the standings (awarded points for byes/forfeits)
    cumulative_match_points: float
    cumulative_board_points: int


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
        "spread",
        "wins",
    )

    def __init__(self) -> None:
        self.games = self.wins = self.draws = self.losses = self.byes = 0
        self.match_points = 0.0
        self.board_points = self.opponents_board_points = self.spread = 0
        self.played_games = self.played_board_points = 0
        # Games played on the board: (opponent, match points gained, result).
        self.meetings: list[tuple[int, float, Result]] = []

    def average_played_board_points(self) -> int:
        if not self.played_games:
            return 0
        return _round_half_up(Fraction(self.played_board_points, self.played_games))


def compute(
    entrants: Iterable[EntrantRecord],
    games: Iterable[GameRecord],
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
    games: Iterable[GameRecord],
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
    games: Iterable[GameRecord],
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
    own_games = [
        game
        for game in _games_up_to(games, after_round)
        if player_id in (game.player_a, game.player_b)
    ]
    tally = _tally(own_games, settings, None).get(player_id, _Tally())
    average = tally.average_played_board_points()
    lines: list[RoundResult] = []
    cumulative_match_points = 0.0
    cumulative_board_points = 0
    for game in sorted(own_games, key=lambda game: game.round_number):
        is_a = game.player_a == player_id
        opponent = game.player_b if is_a else game.player_a
        score, opponent_score = (
            (game.score_a, game.score_b) if is_a else (game.score_b, game.score_a)
        )
        result = _result(game, "a" if is_a else "b")
        match_points, board_points = _award(game, result, score, settings, average)
        cumulative_match_points += match_points
        cumulative_board_points += board_points
        lines.append(
            RoundResult(
                round_number=game.round_number,
                opponent=opponent,
                outcome=game.outcome,
                result=result,
                score=score,
                opponent_score=opponent_score,
                match_points=match_points,
                board_points=board_points,
                cumulative_match_points=cumulative_match_points,
                cumulative_board_points=cumulative_board_points,
            )
        )
    return lines


# -- reading the games -------------------------------------------------------------------


def _unique_entrants(entrants: Iterable[EntrantRecord]) -> list[EntrantRecord]:
    entrants = list(entrants)
    seen: set[int] = set()
    for entrant in entrants:
        if entrant.player_id in seen:
            raise ValueError(f"player {entrant.player_id} is entered twice")
        seen.add(entrant.player_id)
    return entrants


def _games_up_to(games: Iterable[GameRecord], after_round: int | None) -> list[GameRecord]:
    if after_round is None:
        return list(games)
    return [game for game in games if game.round_number <= after_round]


def _played(game: GameRecord) -> tuple[int, int, int]:
    """A played game's second player and both scores, which `_check` requires."""
    if game.player_b is None or game.score_a is None or game.score_b is None:
        raise ValueError(f"a played game needs both players and both scores: {game}")
    return game.player_b, game.score_a, game.score_b


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


def _result(game: GameRecord, side: Literal["a", "b"]) -> Result:
    if game.outcome == "annulled":
        return "annulled"
    if game.outcome == "bye":
        return "bye"
    if game.winner == "draw":
        return "draw"
    return "win" if game.winner == side else "loss"


def _award(
    game: GameRecord,
    result: Result,
    score: int | None,
    settings: StandingsSettings,
    average: int,
) -> tuple[float, int]:
    """Match points and board points one side gets from one game."""
    if result == "annulled":
        return 0.0, 0
    if result == "bye":
        return float(settings.bye_match_points), _points(settings.bye_board_points, average)
    if game.outcome == "forfeit":
        if result == "win":
            return (
                float(settings.forfeit_win_match_points),
                _points(settings.forfeit_win_board_points, average),
            )
        return float(settings.forfeit_loss_match_points), 0
    match_points = {"win": settings.win, "draw": settings.draw, "loss": settings.loss}[result]
    return float(match_points), score or 0


def _points(setting: int | Literal["average"], average: int) -> int:
    return average if setting == "average" else setting


def _tally(
    games: Iterable[GameRecord], settings: StandingsSettings, after_round: int | None
) -> dict[int, _Tally]:
    tallies: dict[int, _Tally] = defaultdict(_Tally)
    awarded: list[tuple[GameRecord, Literal["a", "b"], int]] = []
    for game in _games_up_to(games, after_round):
        _check(game)
        if game.outcome == "annulled":
            continue
        if game.outcome not in _PLAYED:
            # Byes and forfeits may award the player's average, known only after all
            # played games are read.
            awarded.append((game, "a", game.player_a))
            if game.player_b is not None:
                awarded.append((game, "b", game.player_b))
            continue
        player_b, score_a, score_b = _played(game)
        a, b = tallies[game.player_a], tallies[player_b]
        _add_played(a, player_b, score_a, score_b, _result(game, "a"), settings)
        _add_played(b, game.player_a, score_b, score_a, _result(game, "b"), settings)
    for game, side, player_id in awarded:
        tally = tallies[player_id]
        result = _result(game, side)
        match_points, board_points = _award(
            game, result, None, settings, tally.average_played_board_points()
        )
        tally.games += 1
        tally.match_points += match_points
        tally.board_points += board_points
        if result == "bye":
            tally.byes += 1
        elif result == "win":
            tally.wins += 1
        else:
            tally.losses += 1
    return tallies


def _add_played(
    tally: _Tally,
    opponent: int,
    score: int,
    opponent_score: int,
    result: Result,
    settings: StandingsSettings,
) -> None:
    match_points = float(
        {"win": settings.win, "draw": settings.draw, "loss": settings.loss}[result]
    )
    tally.games += 1
    tally.played_games += 1
    if result == "win":
        tally.wins += 1
    elif result == "draw":
        tally.draws += 1
    else:
        tally.losses += 1
    tally.match_points += match_points
    tally.board_points += score
    tally.played_board_points += score
    tally.opponents_board_points += opponent_score
    tally.spread += score - opponent_score
    tally.meetings.append((opponent, match_points, result))


# -- ranking -----------------------------------------------------------------------------


def _rank(
    entrants: Sequence[EntrantRecord],
    tallies: Mapping[int, _Tally],
    settings: StandingsSettings,
) -> list[StandingRow]:
    empty = _Tally()

    def tally_of(player_id: int) -> _Tally:
        return tallies.get(player_id, empty)

    match_points_of = {player_id: tally.match_points for player_id, tally in tallies.items()}

    def opponents_match_points(tally: _Tally) -> float:
        return sum(match_points_of[opponent] for opponent, _, _ in tally.meetings)

    def sonneborn_berger(tally: _Tally) -> float:
        factor = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        return sum(match_points_of[opp] * factor[result] for opp, _, result in tally.meetings)

    static: dict[str, Callable[[_Tally], float]] = {
        "spread": lambda tally: tally.spread,
        "wins": lambda tally: tally.wins,
        "opponents_match_points": opponents_match_points,
        "sonneborn_berger": sonneborn_berger,
    }
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
        met = {opponent for opponent, _, _ in meetings if opponent in members}
        complete = complete and met == members - {player_id}
        scores[player_id] = float(
            sum(match_points for opponent, match_points, _ in meetings if opponent in members)
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
) -> StandingRow:
    games = tally.games
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
        match_points=tally.match_points,
        board_points=tally.board_points,
        opponents_board_points=tally.opponents_board_points,
        spread=tally.spread,
        average_match_points=tally.match_points / games if games else None,
        average_board_points=tally.board_points / games if games else None,
        tiebreak_values=dict(tiebreak_values),
        qualified=qualified,
    )


def _round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))
