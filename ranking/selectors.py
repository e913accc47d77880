"""Reads of the ranking: the adapter from ranked results to `ranking.core`'s records, and
the season's ranking with the names and clubs its pages, exports and command show.

A person is keyed by their `Player` when the results know it, else by their federation
number (`nr-<number>`, a person of another Bordpunt imported by a results file); a guest
without either plays in the game (the winner and the median count them) but is in no
season ranking.

Django: selectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from clubs.models import Club
from competition.core.collector import collector_paused
from events.models import Event, Season
from ranking.core import (
    ClubMethod,
    Result,
    SeasonRanking,
    SeasonRules,
    game_places,
    season_ranking,
)
from ranking.models import RankedGame, RankedResult

NUMBER_PREFIX = "nr-"


def person_key(player_id: int | None, federation_number: str) -> str | None:
    """The person a result belongs to in a season ranking, or None (a guest without a
    federation number).

    >>> person_key(12, "N123"), person_key(None, "N123"), person_key(None, "")
    ('12', 'nr-N123', None)
    """
    if player_id is not None:
        return str(player_id)
    return NUMBER_PREFIX + federation_number if federation_number else None


def season_rules(season: Season) -> SeasonRules:
    return SeasonRules(
        min_games=season.min_games,
        min_interclub_share=season.min_interclub_share,
        share_from_interclubs=season.share_from_interclubs,
        counted_results=season.counted_results,
        result_months=season.result_months,
        club_method=ClubMethod(season.club_method),
        club_results=season.club_results,
        club_players=season.club_players,
        club_share=season.club_share,
        club_missing_points=season.club_missing_points,
    )


def default_date(season: Season, today: date | None = None) -> date:
    """The date a season's ranking is shown on unless asked: today while it runs, its last
    day once it is over (so its results do not drop out later)."""
    today = today or timezone.localdate()
    return min(today, season.end)


class GameInfo(NamedTuple):
    """What a person's results list shows of a ranked game besides the percentage (a named
    tuple: one per result, 7,200 in a season, made five times faster than a frozen
    dataclass)."""

    event_name: str
    number: int
    points: int
    winner_points: int
    players: int


@dataclass(frozen=True)
class Standings:
    """A season's ranking on a date, with the names of its persons and clubs."""

    season: Season
    ranking: SeasonRanking[str, int]
    names: dict[str, str]
    federation_numbers: dict[str, str]
    club_names: dict[int, str]
    #: The club each person played their latest result by the date for (a guest: none).
    person_clubs: dict[str, int | None]
    games: dict[tuple[str, int], GameInfo]


def season_get(*, federation_slug: str, season_slug: str) -> Season:
    """A federation's season by the short names (404 otherwise; one query)."""
    return get_object_or_404(
        Season.objects.select_related("federation"),
        federation__slug=federation_slug,
        federation__is_federation=True,
        slug=season_slug,
    )


def federation_get(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug, is_federation=True)


def season_standings(season: Season, on: date | None = None) -> Standings:
    """The season's ranking of persons and clubs on `on` (default: `default_date`), from
    every ranked result of the season (four queries whatever the season's size, five
    with clubs). Each result's place in its game is among all its players, guests
    without a federation number too (they are in no season ranking, but they took a
    place)."""
    with collector_paused():
        return _standings_paused(season, on or default_date(season))


def _standings_paused(season: Season, on: date) -> Standings:
    """`season_standings`, the cyclic collector paused: it makes some 50,000 small objects
    for a season of 7,200 results."""
    # The results, then their games apart (48 rows): not 7,200 rows that carry their game's
    # columns too (benchmarks/ranking.py).
    per_game: dict[int, list[tuple]] = {}
    for row in (
        RankedResult.objects.filter(game__event__season=season)
        .order_by("pk")
        .values_list(
            "player_id",
            "federation_number",
            "name",
            "player__name",
            "club_id",
            "club_name",
            "points",
            "percentage",
            "game_id",
        )
    ):
        per_game.setdefault(row[8], []).append(row)
    ranked_games = {
        row[0]: row[1:]
        for row in RankedGame.objects.filter(event__season=season).values_list(
            "pk",
            "number",
            "date",
            "winner_points",
            "event_id",
            "event__name",
            "event__kind",
            "event__event_id",
        )
    }
    # A game imported or removed between the two reads is left out, as if read before.
    per_game = {game: rows for game, rows in per_game.items() if game in ranked_games}
    results: list[Result[str, int]] = []
    names: dict[str, str] = {}
    numbers: dict[str, str] = {}
    club_names: dict[int, str] = {}
    person_clubs: dict[str, int | None] = {}
    played: list[tuple[str, int, str, int, int, int]] = []
    imported_interclubs: set[int] = set()
    interclub = Event.Kind.INTERCLUB  # once: an enum's member is looked up in its class
    # Oldest first: the latest result names a person and, by the date, their club.
    for game_id in sorted(per_game, key=lambda game: (ranked_games[game][1], game)):
        rows = per_game[game_id]
        number_in_event, game_date, winner_points, event_id, event_name, kind, local_event = (
            ranked_games[game_id]
        )
        if kind == interclub and local_event is None:
            imported_interclubs.add(event_id)
        all_points = [row[6] for row in rows]
        places = dict(zip(all_points, game_places(all_points), strict=True))
        is_interclub = kind == interclub
        for (
            player_id,
            number,
            name,
            player_name,
            club_id,
            club_name,
            points,
            percentage,
            _game,
        ) in rows:
            person = person_key(player_id, number)
            if person is None:
                continue
            # A person known here by their name now (a rename, an erasure: privacy/erasure.py
            # leaves "#12"); one of another Bordpunt as the latest result names them.
            names[person] = player_name or name
            if game_date <= on or person not in person_clubs:
                person_clubs[person] = club_id
            if number:
                numbers[person] = number
            if club_id is not None:
                club_names.setdefault(club_id, club_name)
            results.append(
                Result(
                    person=person,
                    game=game_id,
                    event=event_id,
                    date=game_date,
                    percentage=percentage,
                    club=club_id,
                    interclub=is_interclub,
                    place=places[points],
                )
            )
            played.append((person, game_id, event_name, number_in_event, points, winner_points))
    players_per_game = {game: len(rows) for game, rows in per_game.items()}
    # Each GameInfo made once, when its game's players are counted.
    games = {
        (person, game_id): GameInfo(name, number, points, winner, players_per_game[game_id])
        for person, game_id, name, number, points, winner in played
    }
    if club_names:  # a club's name as it is now, where the club is known here
        club_names.update(Club.objects.filter(pk__in=club_names).values_list("pk", "name"))
    return Standings(
        season=season,
        ranking=season_ranking(
            results,
            season_rules(season),
            on,
            # The season's calendar: HR 5.7's "more than ten interclubs" is the season's
            # count, so an interim standing applies the share from the first interclub.
            # Its interclubs here (played or not) and those imported from other Bordpunts.
            season_interclubs=season.events.filter(kind=Event.Kind.INTERCLUB).count()
            + len(imported_interclubs),
        ),
        names=names,
        federation_numbers=numbers,
        club_names=club_names,
        person_clubs=person_clubs,
        games=games,
    )


def parse_date(text: str | None) -> date | None:
    """The `op` of a ranking's address (YYYY-MM-DD), or None when absent; 404 when odd."""
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise Http404("Not a date.") from None
