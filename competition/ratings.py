"""The club's ratings read from the database: rating periods built from the rated games,
computed by the pure `competition.core.ratings`, cached per version of the club's results.

What counts (the rule's home is `games.models.RATED`, asked through `Game.objects.rated()`):
a settled result of a game played on the board in a published round of a competition that
counts for the rating. The rating follows the person (docs/persons.md): the club's pool is
its own competitions and every rated competition at another club that one of its members
is entered in (`rating_pool`), and the list shows the club's members and whoever played in
its own competitions, not the other clubs' players met there. One period per evening: the
rounds of all the pool's rated competitions played on one date; a round without a date is
a period of its own, placed after the last dated round before it in its competition (else
at its competition's start date, else first), in the order of that competition's rounds.
Only evenings with a rated game are periods: a round that is paired but not yet played
changes nothing.

Nothing is stored: the cache key holds the club's rating system, its members and the last
change of each competition of the pool (`Competition.changed_at`, which every result, correction,
setting and name change moves, see competition/versioning.py), so a corrected old result
gives a new key and every later rating follows.

Django: ORM reads and the cache.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Subquery

from clubs.models import Club, Membership, Player
from competition.core import ratings
from competition.core.collector import collector_paused
from competition.models import Competition, Entrant, Round
from games.models import Game, Seat

CACHE_SECONDS = 24 * 3600
#: What the ratings need of a player, read with the games (the names, the known start).
PLAYER_COLUMNS = ("name", "rating", "rating_deviation")


@dataclass(frozen=True)
class RatingRow:
    """One line of the rating list."""

    rank: int
    player_id: int
    name: str
    rating: float
    deviation: float | None
    volatility: float | None
    games: int
    last_played: datetime.date | None
    provisional: bool
    change: float | None  # on the last evening the player played


@dataclass(frozen=True)
class ClubRatings:
    """The club's rating list; each player's history is `rating_history`."""

    system: ratings.System
    rows: tuple[RatingRow, ...]
    names: dict[int, str]
    positions: dict[int, int]  # player id -> index in `rows`
    version: str = ""  # the cache's (`ratings_version`); "" when computed up to a date

    def row_of(self, player_id: int) -> RatingRow | None:
        index = self.positions.get(player_id)
        return None if index is None else self.rows[index]

    def rating_of(self, player: Player) -> ratings.Rating:
        """The player's rating now; one without rated games starts where `compute` would
        start them (the known start, `Player.rating`, or the system's default)."""
        row = self.row_of(player.pk)
        if row is not None:
            return ratings.Rating(row.rating, row.deviation, row.volatility)
        return ratings.start_rating(start_of(player.rating, player.rating_deviation), self.system)

    def chance(self, player_a, player_b) -> float:
        """Player a's expected score against player b ("kans op winst", a draw half)."""
        return ratings.expected_score(
            self.rating_of(player_a),
            self.rating_of(player_b),
            self.system,
        )


def seed_rating(club_rating: ClubRatings | None, player: Player) -> int | None:
    """The rating a first round (or a group) is seeded by: the club's computed rating,
    else the player's known start rating (`Player.rating`), else None."""
    row = club_rating.row_of(player.pk) if club_rating is not None else None
    return round(row.rating) if row is not None else player.rating


def club_system(club: Club) -> ratings.System:
    return ratings.System(club.rating_system)


def rating_pool(club: Club) -> QuerySet[Competition]:
    """The competitions the club's list reads: its own, and the rated ones elsewhere that a
    member of the club is entered in (their whole field, so that the opponents met there
    have their ratings from all their games)."""
    elsewhere = Entrant.objects.filter(player__memberships__club=club).values("competition_id")
    return Competition.objects.filter(Q(club=club) | Q(rated=True, pk__in=elsewhere))


def ratings_version(club: Club) -> str:
    """The cache key's version: one query over the pool's competitions, each one's last
    change. Every one, not the latest: each app server stamps `changed_at` by its own
    clock, and a change stamped by one whose clock is behind may be earlier than another
    competition's last change (the cache is shared by every server). The club's members
    (how many, the latest) come in the same query: who is listed depends on them."""
    members = Membership.objects.filter(club=club).order_by().values("club")
    changes = (
        rating_pool(club)
        .order_by("pk")
        .annotate(
            members=Subquery(members.annotate(n=Count("pk")).values("n")),
            latest=Subquery(members.annotate(m=Max("pk")).values("m")),
        )
        .values_list("pk", "changed_at", "members", "latest")
    )
    text = f"{club.pk}|{club.rating_system}|" + ";".join(
        f"{pk}@{at}/{members}/{latest}" for pk, at, members, latest in changes
    )
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def club_ratings(club: Club, *, on: datetime.date | None = None) -> ClubRatings:
    """The club's ratings after every period, or after the periods up to date `on`.

    Cached per `ratings_version`, in two entries: the list (small: what the list, the
    pairing page and the TSH export read) and every player's history as plain tuples
    (5 MB for 45,000 games; a pickle of named tuples would cost ten times as long).
    """
    if on is not None:
        return _compute(club, on=on, version="")[0]
    version = ratings_version(club)
    found = cache.get(f"ratings:{version}:list")
    if found is None:
        found = _compute_and_cache(club, version)[0]
    return found


def rating_history(club: Club, club_rating: ClubRatings, player_id: int):
    """One player's `PeriodChange`s, oldest first (of the version `club_rating` is)."""
    histories = cache.get(f"ratings:{club_rating.version}:histories")
    if histories is None:
        histories = _compute_and_cache(club, club_rating.version)[1]
    return tuple(
        ratings.PeriodChange(
            period,
            key,
            day,
            ratings.Rating(*before),
            ratings.Rating(*after),
            tuple(ratings.GameChange(*game) for game in games),
        )
        for period, key, day, before, after, games in histories.get(player_id, ())
    )


def _compute_and_cache(club: Club, version: str):
    found, histories = _compute(club, on=None, version=version)
    cache.set_many(
        {f"ratings:{version}:list": found, f"ratings:{version}:histories": histories},
        CACHE_SECONDS,
    )
    return found, histories


def start_of(rating: int | None, deviation: int | None) -> ratings.Start | None:
    """A player's known start (`Player.rating`, `Player.rating_deviation`); an empty
    deviation is the new player's 350: the known rating says where, not how sure."""
    if rating is None:
        return None
    return ratings.Start(float(rating), float(deviation or ratings.START_DEVIATION))


def _compute(club: Club, *, on: datetime.date | None, version: str):
    # Reading 45,000 games and turning the histories into tuples allocate as much as the
    # computation itself: the same pause of the cyclic collector.
    with collector_paused():
        return _compute_paused(club, on=on, version=version)


def _compute_paused(club: Club, *, on: datetime.date | None, version: str):
    system = club_system(club)
    periods, known, listed_ids = _read(club, on=on)
    names = {pk: name for pk, (name, _r, _d) in known.items()}
    starts = {}
    for pk, (_name, rating, deviation) in known.items():
        start = start_of(rating, deviation)
        if start is not None:
            starts[pk] = start
    result = ratings.compute(periods, system=system, starts=starts)
    rows = tuple(
        RatingRow(
            rank=index,
            player_id=row.player,
            name=names.get(row.player, ""),
            rating=row.rating.rating,
            deviation=row.rating.deviation,
            volatility=row.rating.volatility,
            games=row.games,
            last_played=row.last_played,
            provisional=row.provisional,
            change=row.history[-1].change if row.history else None,
        )
        for index, row in enumerate(
            (row for row in ratings.ranked(result) if row.player in listed_ids), start=1
        )
    )
    # Plain tuples: they pickle in C (see `club_ratings`).
    histories = {
        player: tuple(
            (c.period, c.key, c.date, tuple(c.before), tuple(c.after), tuple(map(tuple, c.games)))
            for c in row.history
        )
        for player, row in result.items()
    }
    positions = {row.player_id: index for index, row in enumerate(rows)}
    listed = ClubRatings(
        system=system, rows=rows, names=names, positions=positions, version=version
    )
    return listed, histories


def club_periods(club: Club, *, on: datetime.date | None = None) -> list[ratings.Period]:
    """The club's rating periods in order, from two queries (rounds, rated games)."""
    return _read(club, on=on)[0]


def _read(
    club: Club, *, on: datetime.date | None
) -> tuple[list[ratings.Period], dict[int, tuple[str, int | None, int | None]], set[int]]:
    """The periods, each player's name and known start (read with the games), and who the
    list shows: whoever played in the club's own competitions, and the club's members who
    played elsewhere only (one more query, only when the pool reaches beyond the club).

    A flag fall is a loss for the player whose flag fell whatever the score; otherwise the
    scores decide (`rules.result.places`, as the stored places say).
    """
    rounds = list(
        Round.objects.filter(competition__in=rating_pool(club), competition__rated=True)
        .order_by("competition_id", "number")
        .values_list("pk", "competition_id", "number", "date", "competition__start_date")
    )
    # A round's place: its own date, or after the last dated round before it.
    places: dict[int, tuple[datetime.date, int, int, int]] = {}
    last_date: dict[int, datetime.date] = {}
    for pk, competition_id, number, day, start in rounds:
        if day is not None:
            last_date[competition_id] = day
            places[pk] = (day, 0, 0, 0)
        else:
            after = last_date.get(competition_id, start or datetime.date.min)
            places[pk] = (after, 1, competition_id, number)
    seats = (
        Seat.objects.filter(
            game__in=Game.objects.rated()
            .filter(round__competition__in=rating_pool(club))
            .values("pk"),
            # Who did not come to a table the others played at is not rated for it.
            forfeited=False,
        )
        .values_list(
            "game_id",
            "round_id",
            "player_id",
            "score",
            "flag_fell",
            "round__competition__club_id",
            *(f"player__{name}" for name in PLAYER_COLUMNS),
        )
        .order_by("game_id", "position")
    )
    by_game: dict[int, list[ratings.Seat]] = defaultdict(list)
    round_of: dict[int, int] = {}
    known: dict[int, tuple[str, int | None, int | None]] = {}
    here: set[int] = set()
    for game_id, round_id, player_id, score, flag_fell, club_id, *person in seats:
        known[player_id] = tuple(person)
        if club_id == club.pk:
            here.add(player_id)
        round_of[game_id] = round_id
        by_game[game_id].append(ratings.Seat(player_id, score or 0, flag_fell))
    tables: dict[tuple[datetime.date, int, int, int], list[ratings.Table]] = defaultdict(list)
    for game_id, table in by_game.items():
        place = places[round_of[game_id]]
        if len(table) < 2:
            continue
        if on is not None and place[0] > on:
            continue
        tables[place].append(ratings.Table(tuple(table)))
    periods = [
        ratings.Period(key=_period_key(place), tables=tuple(found), date=_period_date(place))
        for place, found in sorted(tables.items())
    ]
    elsewhere_only = known.keys() - here
    if elsewhere_only:
        here |= set(
            Membership.objects.filter(club=club, player_id__in=elsewhere_only).values_list(
                "player_id", flat=True
            )
        )
    return periods, known, here


def _period_key(place: tuple[datetime.date, int, int, int]) -> str:
    day, undated, competition_id, number = place
    if undated:
        return f"{competition_id}-{number}"
    return day.isoformat()


def _period_date(place: tuple[datetime.date, int, int, int]) -> datetime.date | None:
    return None if place[1] else place[0]
