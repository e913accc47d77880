"""Ratings that follow a player across seasons, competitions and table sizes.

A rating is computed from results, never stored as truth: `compute` takes the club's rating
periods (one per club evening) in order and returns every player's rating after each.
Two systems (docs/ratings.md gives the formulas and sources):

- **Glicko-2** (Glickman, "Example of the Glicko-2 system", 2013), the default: a rating,
  a deviation (how sure the rating is) and a volatility. Every rated player takes part in
  every period; one who is absent keeps the rating while the deviation grows (step 6).
- **Elo, NASPA style**: expected score 1 / (1 + e^(0.0031879 · (opponent - own))),
  K = 20, K = 40 for a player's first 50 rated games.

A table of 3 or 4 is, for the rating, every pair at the table one game of the period
(`table_games`). Within a period every game is rated against the ratings the players had at
its start, each player's games taken in one fixed (sorted) order: the order of games within
a period does not change the outcome, to the last bit.

Pure: imports nothing from Django or the apps (`tests/competition/core/test_purity.py`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import NamedTuple

from competition.core.collector import collector_paused
from rules import result as result_rules


class System(StrEnum):
    """The rating systems a club can choose."""

    GLICKO2 = "glicko2"
    ELO = "elo"


#: Glicko-2 defaults (Glickman's paper, step 1): a new player, and the system constant.
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
#: Glickman's convergence tolerance for the volatility (step 5).
EPSILON = 0.000001
#: 173.7178 = 400 / ln 10: the Glicko scale to the Glicko-2 scale and back (step 2).
SCALE = 173.7178
#: A deviation above this marks the rating as provisional (lichess uses the same: 110).
PROVISIONAL_DEVIATION = 110.0

#: Elo (NASPA style): the logistic factor per rating point, and the K factors.
ELO_FACTOR = 0.0031879
ELO_K = 20.0
ELO_K_NEW = 40.0
#: Fewer rated games than this: the higher K, and the rating is provisional.
ELO_NEW_GAMES = 50


class Rating(NamedTuple):
    """A player's rating on the Glicko scale; Elo has no deviation nor volatility (None)."""

    rating: float
    deviation: float | None = None
    volatility: float | None = None


class Seat(NamedTuple):
    """One player at a table: the board points, and whether their flag fell."""

    player: int
    points: int
    flag_fell: bool = False


@dataclass(frozen=True)
class Table:
    """One game of 2 to 4 players, rated as one game per pair of seats."""

    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        seats = self.seats
        if len(seats) == 2:  # the common case, checked without a set: 45,000 of them
            if seats[0].player == seats[1].player:
                raise ValueError("a player sits at a table once")
            if seats[0].flag_fell and seats[1].flag_fell:
                raise ValueError("not every flag can fall: someone wins")
        elif not 2 <= len(seats) <= 4:
            raise ValueError("a table has 2 to 4 seats")
        elif len({seat.player for seat in seats}) != len(seats):
            raise ValueError("a player sits at a table once")
        elif all(seat.flag_fell for seat in seats):
            raise ValueError("not every flag can fall: someone wins")


@dataclass(frozen=True)
class Period:
    """One rating period (a club evening): its tables, and a key and date to show."""

    key: str
    tables: tuple[Table, ...]
    date: date | None = None


@dataclass(frozen=True)
class Start:
    """A known start: a player who begins from this rating and deviation, not the default."""

    rating: float
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Game:
    """One rated game from one player's side: the opponent, the score 1, 0.5 or 0."""

    player: int
    opponent: int
    score: float


class GameChange(NamedTuple):
    """One game of a period as the player's history shows it: who, the opponent's rating at
    the start of the period, the score and the expected score."""

    opponent: int
    opponent_rating: float
    score: float
    expected: float


class PeriodChange(NamedTuple):
    """A period a player played in: the rating before and after, and the games."""

    period: int
    key: str
    date: date | None
    before: Rating
    after: Rating
    games: tuple[GameChange, ...]

    @property
    def change(self) -> float:
        return self.after.rating - self.before.rating

    @property
    def score(self) -> float:
        return sum(game.score for game in self.games)

    @property
    def expected(self) -> float:
        return sum(game.expected for game in self.games)


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating after the last period, with what a rating list shows."""

    player: int
    rating: Rating
    games: int
    last_played: date | None
    provisional: bool
    history: tuple[PeriodChange, ...] = field(default=(), repr=False)


def table_games(table: Table) -> list[Game]:
    """Every pair at the table one game, from both sides, as ``rules.result`` decides who
    beat whom: the higher score wins, equal is a draw; a player whose flag fell loses
    against every player whose flag did not.

    >>> t = Table((Seat(1, 400), Seat(2, 350), Seat(3, 350, flag_fell=True)))
    >>> [(g.player, g.opponent, g.score) for g in table_games(t)]
    [(1, 2, 1.0), (1, 3, 1.0), (2, 1, 0.0), (2, 3, 1.0), (3, 1, 0.0), (3, 2, 0.0)]
    """
    seats = table.seats
    flags = tuple(seat.flag_fell for seat in seats)
    outcome = "flag_fall" if any(flags) else "normal"
    places = result_rules.places(
        outcome, scores=tuple(seat.points for seat in seats), flag_fell=flags if any(flags) else ()
    )
    return [
        Game(seats[meeting.seat].player, seats[meeting.opponent].player, _SCORE[meeting.result])
        for meeting in result_rules.meetings(outcome, places)
    ]


#: A meeting's result as a rating reads it.
_SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


# --- Glicko-2 ------------------------------------------------------------------------------


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def glicko2_update(
    player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU
) -> Rating:
    """Glickman's steps 2-8 for one player and one period: `results` are (opponent's rating
    at the start of the period, score). No results: only the deviation grows (step 6).

    The paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300.

    >>> after = glicko2_update(
    ...     Rating(1500, 200, 0.06),
    ...     [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
    ... )
    >>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
    (1464.05, 151.52, 0.059996)

    (The paper prints 1464.06 and 0.05999 from rounded intermediate values.)
    >>> grown = glicko2_update(Rating(1500, 200, 0.06), [])
    >>> grown.rating, round(grown.deviation, 2)  # sqrt(200² + (0.06 · 173.7178)²)
    (1500, 200.27)
    """
    if not results:
        return _grown(player)
    before = {0: player, **{index: r for index, (r, _s) in enumerate(results, 1)}}
    played = {0: [(index, score) for index, (_r, score) in enumerate(results, 1)]}
    return _glicko2_period(before, played, tau)[0][0]


def _glicko_parts(rating: Rating) -> tuple[float, float]:
    deviation = START_DEVIATION if rating.deviation is None else rating.deviation
    volatility = START_VOLATILITY if rating.volatility is None else rating.volatility
    return deviation, volatility


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) = 0, as the paper gives it."""
    a = math.log(sigma * sigma)
    d2, p2, t2, exp = delta * delta, phi * phi, tau * tau, math.exp

    def f(x: float) -> float:
        ex = exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / t2

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


# --- Elo -----------------------------------------------------------------------------------


def elo_expected(own: float, opponent: float) -> float:
    """NASPA's expected score: 1 / (1 + e^(0.0031879 · (opponent - own))).

    >>> elo_expected(1500, 1500)
    0.5
    >>> round(elo_expected(1700, 1500), 3)  # 1 / (1 + e^(-0.63758)) = 0.654
    0.654
    """
    return 1.0 / (1.0 + math.exp(ELO_FACTOR * (opponent - own)))


def elo_update(player: Rating, results: Sequence[tuple[Rating, float]], *, games: int) -> Rating:
    """One period of Elo: K · (score - expected), summed over the period's games against
    the ratings at its start; K is higher while the player has fewer than 50 rated games.

    >>> elo_update(Rating(1500), [(Rating(1500), 1.0)], games=60).rating  # 20 · 0.5
    1510.0
    """
    before = {0: player, **{index: r for index, (r, _s) in enumerate(results, 1)}}
    played = {0: [(index, score) for index, (_r, score) in enumerate(results, 1)]}
    return _elo_period(before, played, {0: games})[0][0]


# --- Expected score of a pairing -----------------------------------------------------------


def expected_score(own: Rating, opponent: Rating, system: System = System.GLICKO2) -> float:
    """The chance to win ("kans op winst"; a draw counts half): for Glicko-2 both deviations
    widen the uncertainty, g(sqrt(phi² + phi_j²)) (Glickman's Glicko paper, eq. for E).

    >>> round(expected_score(Rating(1500, 50), Rating(1500, 350)), 3)
    0.5
    >>> round(expected_score(Rating(1700, 50), Rating(1500, 50)), 3)  # g = 0.9757
    0.755
    >>> round(expected_score(Rating(1700, 350), Rating(1500, 350)), 3)  # g = 0.5370
    0.65
    """
    if system == System.ELO:
        return elo_expected(own.rating, opponent.rating)
    phi = _glicko_parts(own)[0] / SCALE
    phi_j = _glicko_parts(opponent)[0] / SCALE
    mu = (own.rating - START_RATING) / SCALE
    mu_j = (opponent.rating - START_RATING) / SCALE
    combined = math.sqrt(phi * phi + phi_j * phi_j)
    return 1.0 / (1.0 + math.exp(-_g(combined) * (mu - mu_j)))


# --- Periods -------------------------------------------------------------------------------


def start_rating(start: Start | None, system: System) -> Rating:
    """Where a player begins: the known start, or the default of the system."""
    if system == System.ELO:
        return Rating(start.rating if start is not None else START_RATING)
    if start is None:
        return Rating(START_RATING, START_DEVIATION, START_VOLATILITY)
    return Rating(start.rating, start.deviation, start.volatility)


def compute(
    periods: Iterable[Period],
    *,
    system: System = System.GLICKO2,
    starts: Mapping[int, Start] | None = None,
    tau: float = TAU,
) -> dict[int, PlayerRating]:
    """Every player's rating after the last of `periods`, with the history per period.

    A player enters the rating at the first period they play in, from their known `start`
    or the system's default; from then on they take part in every period (absent: the
    deviation grows). Games of a period are rated against the ratings at its start; each
    player's games are taken in one fixed order (sorted), so the order in which they were
    given changes nothing, to the last bit.

    >>> p = Period("1", (Table((Seat(1, 400), Seat(2, 300))),))
    >>> result = compute([p])
    >>> round(result[1].rating.rating, 1), round(result[2].rating.rating, 1)
    (1662.3, 1337.7)
    """
    with collector_paused():
        return _compute(list(periods), system, starts or {}, tau)


def _compute(
    periods: list[Period], system: System, starts: Mapping[int, Start], tau: float
) -> dict[int, PlayerRating]:
    current: dict[int, Rating] = {}
    games_played: dict[int, int] = {}
    last: dict[int, date | None] = {}
    history: dict[int, list[PeriodChange]] = {}
    glicko = system == System.GLICKO2
    for index, period in enumerate(periods):
        played: dict[int, list[tuple[int, float]]] = {}
        for table in period.tables:
            for game in table_games(table):
                played.setdefault(game.player, []).append((game.opponent, game.score))
        for player in played:
            if player not in current:
                current[player] = start_rating(starts.get(player), system)
                games_played[player] = 0
                history[player] = []
        before = current
        if glicko:
            current = {
                player: rating if player in played else _grown(rating)
                for player, rating in before.items()
            }
            changes = _glicko2_period(before, played, tau)
        else:
            current = dict(before)
            changes = _elo_period(before, played, games_played)
        for player, (after, games) in changes.items():
            current[player] = after
            history[player].append(
                PeriodChange(index, period.key, period.date, before[player], after, games)
            )
            games_played[player] += len(games)
            if period.date is not None:
                last[player] = period.date
    return {
        player: PlayerRating(
            player=player,
            rating=rating,
            games=games_played[player],
            last_played=last.get(player),
            provisional=is_provisional(rating, games_played[player], system),
            history=tuple(history[player]),
        )
        for player, rating in current.items()
    }


_Changes = dict[int, tuple[Rating, tuple[GameChange, ...]]]


def _glicko2_period(
    before: Mapping[int, Rating], played: Mapping[int, list[tuple[int, float]]], tau: float
) -> _Changes:
    """Steps 2-8 for every player who played, on the Glicko-2 scale; each player's own
    values at the start of the period worked out once."""
    scaled = {}
    for player in {*played, *(o for games in played.values() for o, _s in games)}:
        rating = before[player]
        deviation, volatility = _glicko_parts(rating)
        phi = deviation / SCALE
        scaled[player] = ((rating.rating - START_RATING) / SCALE, phi, _g(phi), volatility)
    changes: _Changes = {}
    for player, games in played.items():
        mu, phi, _own_g, sigma = scaled[player]
        games.sort()
        v_inverse = improvement = 0.0
        shown = []
        for opponent, score in games:
            mu_j, _phi_j, g_j, _sigma_j = scaled[opponent]
            e_j = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
            v_inverse += g_j * g_j * e_j * (1.0 - e_j)
            improvement += g_j * (score - e_j)
            shown.append(GameChange(opponent, before[opponent].rating, score, e_j))
        v = 1.0 / v_inverse
        sigma_new = _new_volatility(phi, sigma, v, v * improvement, tau)
        phi_star_squared = phi * phi + sigma_new * sigma_new
        phi_new = 1.0 / math.sqrt(1.0 / phi_star_squared + 1.0 / v)
        mu_new = mu + phi_new * phi_new * improvement
        after = Rating(
            START_RATING + SCALE * mu_new, min(SCALE * phi_new, START_DEVIATION), sigma_new
        )
        changes[player] = (after, tuple(shown))
    return changes


def _grown(rating: Rating) -> Rating:
    """Step 6 for a player who did not play: phi' = sqrt(phi² + sigma²), at most 350."""
    deviation, volatility = _glicko_parts(rating)
    phi = deviation / SCALE
    grown = min(math.sqrt(phi * phi + volatility * volatility) * SCALE, START_DEVIATION)
    return Rating(rating.rating, grown, volatility)


def _elo_period(
    before: Mapping[int, Rating],
    played: Mapping[int, list[tuple[int, float]]],
    games_played: Mapping[int, int],
) -> _Changes:
    changes: _Changes = {}
    for player, games in played.items():
        own = before[player].rating
        games.sort()
        shown = [
            GameChange(o, before[o].rating, s, elo_expected(own, before[o].rating))
            for o, s in games
        ]
        k = ELO_K_NEW if games_played[player] < ELO_NEW_GAMES else ELO_K
        change = k * sum(game.score - game.expected for game in shown)
        changes[player] = (Rating(own + change), tuple(shown))
    return changes


def is_provisional(rating: Rating, games: int, system: System) -> bool:
    """Glicko-2: the deviation is above 110; Elo: fewer than 50 rated games."""
    if system == System.ELO:
        return games < ELO_NEW_GAMES
    return (rating.deviation or START_DEVIATION) > PROVISIONAL_DEVIATION


def ranked(ratings: Mapping[int, PlayerRating]) -> list[PlayerRating]:
    """The rating list: highest rating first, then fewest uncertain, then the player id."""
    return sorted(
        ratings.values(),
        key=lambda r: (-r.rating.rating, r.rating.deviation or 0.0, r.player),
    )


def fill_groups(strongest_first: Sequence[int], groups: int) -> list[list[int]]:
    """Groups by strength: the first group the strongest, sizes as equal as possible (the
    larger groups first).

    >>> fill_groups([1, 2, 3, 4, 5, 6, 7], 3)
    [[1, 2, 3], [4, 5], [6, 7]]
    >>> fill_groups([1, 2], 3)
    [[1], [2], []]
    """
    if groups < 1:
        raise ValueError("at least one group")
    size, extra = divmod(len(strongest_first), groups)
    result, start = [], 0
    for index in range(groups):
        end = start + size + (1 if index < extra else 0)
        result.append(list(strongest_first[start:end]))
        start = end
    return result
