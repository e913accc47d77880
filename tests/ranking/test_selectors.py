"""The ranking's adapter (ranking.selectors.season_standings) on stored results: the person's
club as of the date asked, each result's place among all its game's players, and the share
rule's threshold counted on the season's calendar (HR 5.7)."""

from __future__ import annotations

import uuid
from datetime import date

import pytest

from events.models import Event, Season
from ranking.models import RankedEvent, RankedGame, RankedResult
from ranking.selectors import season_standings
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

JAN, MAY = date(2026, 1, 10), date(2026, 5, 2)


def ranked_game(season, day, rows):
    """An imported interclub of one game; rows: (player or None, club or None, points)."""
    event = RankedEvent.objects.create(
        season=season,
        uid=uuid.uuid4(),
        name=f"Interclub {day:%B}",
        kind=Event.Kind.INTERCLUB,
        date=day,
        source=RankedEvent.Source.IMPORTED,
    )
    game = RankedGame.objects.create(
        event=event, number=1, date=day, winner_points=0, median_points=0
    )
    RankedResult.objects.bulk_create(
        RankedResult(
            game=game,
            player=player,
            name=player.name if player else "Gast",
            club=club,
            club_name=club.name if club else "",
            points=points,
            percentage=points / 10,
        )
        for player, club, points in rows
    )


@pytest.fixture
def two_interclubs(season, clubs):
    """Bert plays January for Letterkoppen and May for Woordenaars; a guest without a
    federation number beats him in January."""
    letters, words = clubs
    bert, cor = PlayerFactory(name="Bert"), PlayerFactory(name="Cor")
    ranked_game(season, JAN, [(None, None, 900), (bert, letters, 800), (cor, words, 700)])
    ranked_game(season, MAY, [(bert, words, 600), (cor, words, 600)])
    return bert, cor


def test_a_persons_club_is_the_one_of_their_latest_result_by_the_date(season, two_interclubs):
    bert, _cor = two_interclubs
    march = season_standings(season, date(2026, 3, 1))
    june = season_standings(season, date(2026, 6, 1))
    assert march.club_names[march.person_clubs[str(bert.pk)]] == "Letterkoppen"
    assert june.club_names[june.person_clubs[str(bert.pk)]] == "Woordenaars"


def test_places_count_every_player_and_equal_points_share_one(season, two_interclubs):
    bert, cor = two_interclubs
    ranking = season_standings(season, date(2026, 6, 1)).ranking
    places = {
        (line.result.person, line.result.date): line.result.place
        for person in ranking.persons
        for line in person.results
    }
    # January: the guest 1, Bert 2, Cor 3; May: 600 and 600 share place 1.
    assert places == {
        (str(bert.pk), JAN): 2,
        (str(cor.pk), JAN): 3,
        (str(bert.pk), MAY): 1,
        (str(cor.pk), MAY): 1,
    }


def test_the_share_applies_from_the_seasons_count_of_interclubs(season, two_interclubs):
    # 50 % of the 2 interclubs held = 1; the season has 2 (imported) < 11: no share.
    Season.objects.filter(pk=season.pk).update(min_interclub_share=50)
    season.refresh_from_db()
    assert season_standings(season, date(2026, 6, 1)).ranking.interclubs_needed == 0
    # 9 more on the calendar here, not played yet: 11, and the interim standing asks 1.
    Event.objects.bulk_create(
        Event(
            organiser=season.federation,
            name=f"Interclub {n}",
            slug=f"ic-{n}",
            kind=Event.Kind.INTERCLUB,
            season=season,
        )
        for n in range(9)
    )
    assert season_standings(season, date(2026, 6, 1)).ranking.interclubs_needed == 1
