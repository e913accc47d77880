"""The NTSV ranking, pure: a game's ranking percentages, and the season rankings built from
them (docs/ranking.md gives every rule with its source and every edge case's choice).

No Django and no app: plain numbers and frozen dataclasses in, the same out.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Generic, NamedTuple, TypeVar

#: Averages this close are equal (a sum of the same floats in another order may differ in
#: the last bits; no two real averages of percentages differ by less).
EQUAL_TO = 9

Person = TypeVar("Person", bound=Hashable)
ClubKey = TypeVar("ClubKey", bound=Hashable)


def winner_and_median(points: Sequence[int]) -> tuple[int, Fraction]:
    """The winner's points and the median player's (of an even number of players, the
    mean of the two in the middle: docs/ranking.md).

    >>> winner_and_median([300, 500, 400, 350])
    (500, Fraction(375, 1))
    """
    ordered = sorted(points)  # ints: sorting Fractions cost a third of a season's import
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[-1], Fraction(ordered[middle])
    return ordered[-1], Fraction(ordered[middle - 1] + ordered[middle], 2)


def game_percentages(points: Sequence[int], gap_value: Decimal | Fraction | int) -> list[Fraction]:
    """Each player's ranking percentage in one game, in the order of `points`:
    100 − VMW × GV / VIW, with VMW the player's points behind the winner and VIW the
    winner's points above the median player's (of an even number of players: the mean of
    the two in the middle). Exact (fractions); `stored_percentages` gives the floats
    stored.

    Edge cases (docs/ranking.md): a value below 0 counts as 0; when VIW is 0 (half the
    players or more share the winner's points: a single player, all equal) the game has no
    gap to scale by, so the winner's points score 100 and any lower score 100 − GV, the
    median player's value.

    >>> [float(p) for p in game_percentages([500, 400, 300], 20)]
    [100.0, 80.0, 60.0]
    >>> [float(p) for p in game_percentages([900, 850, 300], 20)]
    [100.0, 80.0, 0.0]
    >>> [float(p) for p in game_percentages([500, 500, 420], 20)]
    [100.0, 100.0, 80.0]
    """
    if not points:
        return []
    common = _over_one_denominator(points, gap_value)
    if common is None:
        winner = max(points)
        gap = Fraction(gap_value)
        return [Fraction(100) if p == winner else 100 - gap for p in points]
    numerators, denominator = common
    return [Fraction(numerator, denominator) for numerator in numerators]


def stored_percentages(points: Sequence[int], gap_value: Decimal | Fraction | int) -> list[float]:
    """`game_percentages` as they are stored: each the float nearest its exact value.
    Python divides two ints with one rounding, as `float(Fraction)` does, so no Fraction
    is made (a season's import stores 7,200: benchmarks/ranking.py).

    >>> stored_percentages([800, 900, 600, 450, 300], 20)
    [93.33333333333333, 100.0, 80.0, 70.0, 60.0]
    """
    common = _over_one_denominator(points, gap_value) if points else None
    if common is None:
        return [float(percentage) for percentage in game_percentages(points, gap_value)]
    numerators, denominator = common
    return [numerator / denominator for numerator in numerators]


def _over_one_denominator(
    points: Sequence[int], gap_value: Decimal | Fraction | int
) -> tuple[list[int], int] | None:
    """Each percentage's numerator over one common denominator: the same exact value as
    100 − (winner − p) × GV / VIW, five times faster than Fraction arithmetic per player
    (benchmarks/ranking.py: 7,200 results). None when VIW is 0."""
    winner, middle = winner_and_median(points)
    above_median = winner - middle
    if above_median == 0:
        return None
    scale = Fraction(gap_value) / above_median
    top, below = scale.numerator, scale.denominator
    return [max(0, 100 * below - (winner - p) * top) for p in points], below


def game_places(points: Sequence[int]) -> list[int]:
    """Each player's place in one game, in the order of `points`: equal points share the
    better place and the next is skipped (competition ranking, as an interclub's result
    prints an ex aequo: docs/ranking.md).

    >>> game_places([700, 900, 700, 650])
    [2, 1, 2, 4]
    """
    ordered = sorted(points, reverse=True)
    first: dict[int, int] = {}
    for index, value in enumerate(ordered):
        first.setdefault(value, index + 1)
    return [first[value] for value in points]


class ClubMethod(Enum):
    """How a season ranks its clubs (docs/ranking.md, *The club ranking*)."""

    #: The NTSV's: per interclub game the sum of the places of each club's best players,
    #: then per club the sum of its best share of those (lower is better).
    PLACES = "places"
    #: The sum of each club's best N percentages divided by N (higher is better).
    AVERAGE = "average"


@dataclass(frozen=True)
class SeasonRules:
    """A season's ranking rules (`events.Season`'s settings), each with its source in
    docs/ranking.md."""

    #: A person ranks with at least this many games (results that have not dropped out).
    min_games: int = 0
    #: ... and in at least this share (%, rounded up) of the season's interclubs held by
    #: the date, when the season has at least `share_from_interclubs` interclubs.
    min_interclub_share: int = 0
    share_from_interclubs: int = 0
    #: The average takes the best this many results; None: every result.
    counted_results: int | None = None
    #: A result drops out this many months after its game; None: never.
    result_months: int | None = None
    club_method: ClubMethod = ClubMethod.PLACES
    #: AVERAGE: a club's score is the average of its best this many results (missing ones
    #: count 0).
    club_results: int = 10
    #: PLACES: a club scores in an interclub game with at least this many players, the sum
    #: of their best places; the club's season takes its best `club_share` % (rounded up)
    #: of the season's interclub games, each missing one counting `club_missing_points`.
    club_players: int = 3
    club_share: int = 50
    club_missing_points: int = 500


class Result(NamedTuple, Generic[Person, ClubKey]):
    """One person's result in one ranked game (a named tuple, as `ResultLine`: a season of
    benchmarks/ranking.py has 7,200 of each, and one is made four times faster than a
    frozen dataclass: 4.6 against 17 µs, `ResultLine` 2.2 against 11, timeit on the
    shared machine at load average 10, 2026-12-07)."""

    person: Person
    #: The ranked game and its event (an interclub or not): the share of interclubs counts
    #: events, not games.
    game: int
    event: int
    date: date
    percentage: float
    #: The club the person played this event for; None: a guest.
    club: ClubKey | None = None
    interclub: bool = True
    #: The person's place in the game among all its players, guests included
    #: (`game_places`); None: not known (the club ranking by places leaves it out).
    place: int | None = None


class Status(Enum):
    """What a result does in the ranking on a date."""

    COUNTED = "counted"
    #: Outside the person's best N.
    NOT_BEST = "not_best"
    #: Older than the season's months.
    DROPPED_OUT = "dropped_out"
    #: Played after the date of the ranking.
    LATER = "later"


class ResultLine(NamedTuple, Generic[Person, ClubKey]):
    result: Result[Person, ClubKey]
    status: Status

    @property
    def counted(self) -> bool:
        return self.status is Status.COUNTED


@dataclass(frozen=True)
class PersonRow(Generic[Person, ClubKey]):
    """A person in the season ranking. `rank` None: not (yet) ranked, `games` or
    `interclubs` below the season's minimum."""

    person: Person
    rank: int | None
    #: The average of the counted percentages (0.0 without any).
    average: float
    #: Results that have not dropped out by the date, and the interclubs among their events.
    games: int
    interclubs: int
    counted: int
    #: Every result of the person, best first, each with its status.
    results: tuple[ResultLine[Person, ClubKey], ...]
    too_few_games: bool = False
    too_few_interclubs: bool = False

    @property
    def ranked(self) -> bool:
        return self.rank is not None


@dataclass(frozen=True)
class ClubGame(Generic[Person, ClubKey]):
    """A club's result in one interclub game (the places method): the sum of the places of
    its best `club_players` players there, and the club's place among the clubs."""

    club: ClubKey
    game: int
    event: int
    date: date
    points: int
    place: int
    #: The players whose places count, best first.
    players: tuple[Result[Person, ClubKey], ...]


@dataclass(frozen=True)
class ClubRow(Generic[Person, ClubKey]):
    club: ClubKey
    rank: int
    #: AVERAGE: the sum of the club's best N percentages divided by N (higher is better).
    #: PLACES: the sum of its counted games' points and of the missing ones' (lower is
    #: better).
    score: float
    #: AVERAGE: the results counted (at most N), best first.
    counted: tuple[Result[Person, ClubKey], ...]
    #: AVERAGE: the club's results; PLACES: the interclub games it scored in.
    results: int
    #: PLACES: the games counted, best first, and how many were missing.
    games: tuple[ClubGame[Person, ClubKey], ...] = ()
    missing: int = 0


@dataclass(frozen=True)
class SeasonRanking(Generic[Person, ClubKey]):
    on: date
    #: The season's interclubs with results by the date (that have not dropped out), and the
    #: number of them a person must have played.
    interclubs: int
    interclubs_needed: int
    persons: tuple[PersonRow[Person, ClubKey], ...]
    clubs: tuple[ClubRow[Person, ClubKey], ...]
    #: PLACES: every club's result in each interclub game by the date, by game, then place.
    club_games: tuple[ClubGame[Person, ClubKey], ...] = ()
    #: PLACES: how many of its games each club keeps.
    club_games_counted: int = 0


def months_before(day: date, months: int) -> date:
    """The same day `months` earlier (the month's last day when it has fewer days).

    >>> months_before(date(2026, 3, 31), 1), months_before(date(2026, 12, 6), 12)
    (datetime.date(2026, 2, 28), datetime.date(2025, 12, 6))
    >>> months_before(date(1, 6, 1), 12)
    datetime.date(1, 1, 1)
    """
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    if year < date.min.year:  # before the calendar's first day: every result is younger
        return date.min
    for last in (day.day, 30, 29, 28):
        try:
            return date(year, month + 1, last)
        except ValueError:
            continue
    raise AssertionError("every month has 28 days")  # pragma: no cover


def _status_by_date(result: Result[Person, ClubKey], on: date, since: date | None) -> Status:
    if result.date > on:
        return Status.LATER
    if since is not None and result.date <= since:
        return Status.DROPPED_OUT
    return Status.COUNTED


def _average(values: Iterable[float], over: int) -> float:
    return math.fsum(values) / over if over else 0.0


def _ranks(scores: Sequence[float]) -> list[int]:
    """Competition ranks ("1, 1, 3") of scores sorted best first; equal to EQUAL_TO places."""
    ranks: list[int] = []
    for index, score in enumerate(scores):
        same = index and round(scores[index - 1], EQUAL_TO) == round(score, EQUAL_TO)
        ranks.append(ranks[-1] if same else index + 1)
    return ranks


def season_ranking(
    results: Iterable[Result[Person, ClubKey]],
    rules: SeasonRules,
    on: date,
    *,
    season_interclubs: int = 0,
) -> SeasonRanking[Person, ClubKey]:
    """The season's ranking of persons and of clubs on the date `on`, from every result of
    the season (docs/ranking.md):

    - a result counts from its game's date up to `on`; with `result_months` it drops out
      that many months after its game (a result of 6 December 2025 is out on 6 December
      2026 with 12 months);
    - a person's average is that of their best `counted_results` results (all when None);
    - a person ranks with at least `min_games` results that have not dropped out, and at
      least `min_interclub_share` % (rounded up) of the season's interclubs played so far
      when the season has at least `share_from_interclubs` interclubs (the more of
      `season_interclubs`, those on its calendar, and those held by the date); the others
      are listed unranked after the ranked, by average; a person without a result that
      counts by the date is left out;
    - equal averages share a rank (competition ranking: 1, 1, 3);
    - the clubs by `rules.club_method` (`club_ranking_by_places`, `club_ranking`); a
      result counts for the club the person played the event for (a guest's for none),
      ranked or not.

    Two interclubs; An played both games of both (her best 3 of 4 count), Bert one game:

    >>> d1, d2 = date(2026, 1, 10), date(2026, 3, 7)
    >>> rows = [Result("An", 1, 1, d1, 90.0, "X"), Result("An", 2, 1, d1, 70.0, "X"),
    ...         Result("An", 3, 2, d2, 80.0, "X"), Result("An", 4, 2, d2, 100.0, "X"),
    ...         Result("Bert", 3, 2, d2, 95.0, "Y")]
    >>> rules = SeasonRules(min_games=2, counted_results=3, club_method=ClubMethod.AVERAGE,
    ...                     club_results=2)
    >>> ranking = season_ranking(rows, rules, on=date(2026, 12, 31))
    >>> [(r.rank, r.person, r.average, r.counted, r.games) for r in ranking.persons]
    [(1, 'An', 90.0, 3, 4), (None, 'Bert', 95.0, 1, 1)]
    >>> [(c.rank, c.club, c.score) for c in ranking.clubs]
    [(1, 'X', 95.0), (2, 'Y', 47.5)]
    """
    since = months_before(on, rules.result_months) if rules.result_months is not None else None
    by_person: dict[Person, list[ResultLine[Person, ClubKey]]] = {}
    interclubs: set[int] = set()
    interclub_games: set[int] = set()
    for result in results:
        status = _status_by_date(result, on, since)
        by_person.setdefault(result.person, []).append(ResultLine(result, status))
        if status is Status.COUNTED and result.interclub:
            interclubs.add(result.event)
            interclub_games.add(result.game)
    share_applies = max(season_interclubs, len(interclubs)) >= rules.share_from_interclubs
    needed = math.ceil(len(interclubs) * rules.min_interclub_share / 100) if share_applies else 0

    rows: list[PersonRow[Person, ClubKey]] = []
    club_results: dict[ClubKey, list[Result[Person, ClubKey]]] = {}
    for person, lines in by_person.items():
        # By position: a person's results are told apart by where they are, not by value.
        current = sorted(
            (i for i, line in enumerate(lines) if line.status is Status.COUNTED),
            key=lambda i: (-lines[i].result.percentage, lines[i].result.date, lines[i].result.game),
        )
        if not current:  # nothing played by the date, or all of it dropped out
            continue
        chosen = current[: rules.counted_results] if rules.counted_results else current
        best = [lines[i].result for i in chosen]
        for i in current:
            if (club := lines[i].result.club) is not None:
                club_results.setdefault(club, []).append(lines[i].result)
        left_out = set(current) - set(chosen)
        statuses = [
            ResultLine(line.result, Status.NOT_BEST) if i in left_out else line
            for i, line in enumerate(lines)
        ]
        statuses.sort(key=lambda line: (-line.result.percentage, line.result.date))
        played = len({lines[i].result.event for i in current if lines[i].result.interclub})
        rows.append(
            PersonRow(
                person=person,
                rank=None,
                average=_average((r.percentage for r in best), len(best)),
                games=len(current),
                interclubs=played,
                counted=len(best),
                results=tuple(statuses),
                too_few_games=len(current) < rules.min_games,
                too_few_interclubs=played < needed,
            )
        )
    rows.sort(key=lambda row: (-round(row.average, EQUAL_TO), str(row.person)))
    ranked = [row for row in rows if not (row.too_few_games or row.too_few_interclubs)]
    unranked = [row for row in rows if row.too_few_games or row.too_few_interclubs]
    ranks = _ranks([row.average for row in ranked])
    persons = [_with_rank(row, rank) for row, rank in zip(ranked, ranks, strict=True)]
    games: list[ClubGame[Person, ClubKey]] = []
    kept = 0
    if rules.club_method is ClubMethod.AVERAGE:
        clubs = club_ranking(club_results, rules.club_results)
    else:
        games = club_games(
            (result for rows in club_results.values() for result in rows), rules.club_players
        )
        kept = math.ceil(len(interclub_games) * rules.club_share / 100)
        clubs = club_ranking_by_places(games, kept, rules.club_missing_points)
    return SeasonRanking(
        on=on,
        interclubs=len(interclubs),
        interclubs_needed=needed,
        persons=(*persons, *unranked),
        clubs=tuple(clubs),
        club_games=tuple(games),
        club_games_counted=kept,
    )


def _with_rank(row: PersonRow[Person, ClubKey], rank: int) -> PersonRow[Person, ClubKey]:
    return PersonRow(
        person=row.person,
        rank=rank,
        average=row.average,
        games=row.games,
        interclubs=row.interclubs,
        counted=row.counted,
        results=row.results,
    )


def club_ranking(
    results: dict[ClubKey, list[Result[Person, ClubKey]]], best: int
) -> list[ClubRow[Person, ClubKey]]:
    """Clubs by the sum of their best `best` percentages divided by `best` (a club with
    fewer results has 0 for each missing one), highest first; equal scores share a rank.

    >>> d = date(2026, 1, 10)
    >>> rows = {"X": [Result("An", 1, 1, d, 90.0), Result("Cor", 1, 1, d, 50.0)],
    ...         "Y": [Result("Bert", 1, 1, d, 100.0)]}
    >>> [(c.rank, c.club, c.score, c.results) for c in club_ranking(rows, 2)]
    [(1, 'X', 70.0, 2), (2, 'Y', 50.0, 1)]
    """
    scored = []
    for club, club_rows in results.items():
        counted = sorted(club_rows, key=lambda r: (-r.percentage, r.date, r.game))[:best]
        scored.append((club, _average((r.percentage for r in counted), best), counted, club_rows))
    scored.sort(key=lambda item: (-round(item[1], EQUAL_TO), str(item[0])))
    ranks = _ranks([score for _club, score, _counted, _all in scored])
    return [
        ClubRow(club, rank, score, tuple(counted), len(every))
        for (club, score, counted, every), rank in zip(scored, ranks, strict=True)
    ]


def club_games(
    results: Iterable[Result[Person, ClubKey]], players: int
) -> list[ClubGame[Person, ClubKey]]:
    """Each club's result in each interclub game it had at least `players` players in: the
    sum of their best `players` places (results without a club, a place, or of another
    kind of event are left out). In each game the clubs are placed by that sum, lower
    first, an equal sum sharing the place. Ordered by date and game, then place.

    >>> d = date(2026, 1, 10)
    >>> rows = [Result(name, 1, 1, d, 0.0, club, place=place) for name, club, place in (
    ...     ("An", "X", 1), ("Bert", "Y", 2), ("Cor", "X", 4), ("Dirk", "Y", 3),
    ...     ("Eva", "Z", 5))]
    >>> [(g.club, g.points, g.place) for g in club_games(rows, 2)]
    [('X', 5, 1), ('Y', 5, 1)]
    """
    teams: dict[tuple[int, ClubKey], list[Result[Person, ClubKey]]] = {}
    for result in results:
        if result.interclub and result.club is not None and result.place is not None:
            teams.setdefault((result.game, result.club), []).append(result)
    by_game: dict[int, list[tuple[ClubKey, int, tuple[Result[Person, ClubKey], ...]]]] = {}
    for (game, club), rows in teams.items():
        if len(rows) < players:  # too few players to score in this game
            continue
        best = sorted(rows, key=lambda r: (r.place, str(r.person)))[:players]
        points = sum(r.place or 0 for r in best)
        by_game.setdefault(game, []).append((club, points, tuple(best)))
    scored: list[ClubGame[Person, ClubKey]] = []
    for game, teams_of_game in sorted(by_game.items(), key=lambda g: (g[1][0][2][0].date, g[0])):
        teams_of_game.sort(key=lambda team: (team[1], str(team[0])))
        places = game_places([-points for _club, points, _best in teams_of_game])
        first = teams_of_game[0][2][0]
        scored += [
            ClubGame(club, game, first.event, first.date, points, place, best)
            for (club, points, best), place in zip(teams_of_game, places, strict=True)
        ]
    return scored


def club_ranking_by_places(
    games: Iterable[ClubGame[Person, ClubKey]], kept: int, missing_points: int
) -> list[ClubRow[Person, ClubKey]]:
    """Clubs by the sum of the points of their best `kept` games, each game a club lacks
    of them counting `missing_points`; lower first, an equal sum sharing a rank.

    Three games, two kept; X: 6, 9, 30 → 6 + 9 = 15; Y: 7 only → 7 + 500 = 507:

    >>> d = date(2026, 1, 10)
    >>> games = [ClubGame("X", 1, 1, d, 6, 1, ()), ClubGame("X", 2, 2, d, 30, 2, ()),
    ...          ClubGame("X", 3, 3, d, 9, 1, ()), ClubGame("Y", 2, 2, d, 7, 1, ())]
    >>> [(c.rank, c.club, c.score, c.results, c.missing) for c in
    ...  club_ranking_by_places(games, 2, 500)]
    [(1, 'X', 15.0, 3, 0), (2, 'Y', 507.0, 1, 1)]
    """
    by_club: dict[ClubKey, list[ClubGame[Person, ClubKey]]] = {}
    for game in games:
        by_club.setdefault(game.club, []).append(game)
    scored = []
    for club, club_games_ in by_club.items():
        best = sorted(club_games_, key=lambda g: (g.points, g.date, g.game))[:kept]
        missing = kept - len(best)
        score = sum(g.points for g in best) + missing * missing_points
        scored.append((club, score, tuple(best), len(club_games_), missing))
    scored.sort(key=lambda item: (item[1], str(item[0])))
    ranks = _ranks([float(score) for _club, score, _best, _all, _missing in scored])
    return [
        ClubRow(club, rank, float(score), (), every, games=best, missing=missing)
        for (club, score, best, every, missing), rank in zip(scored, ranks, strict=True)
    ]
