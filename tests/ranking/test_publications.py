"""A season's ranking published as an official version: frozen rows, corrections as new
versions with their reason and changes, the history, the JSON and CSV, the refusals."""

from __future__ import annotations

import csv
import io
import json
import uuid
from datetime import date

import pytest
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from events.models import Event
from ranking.changes import Kind
from ranking.models import Publication, RankedEvent, RankedGame, RankedResult
from ranking.publications import PublicationError, publication_changes, publication_create
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 7)


def ranked_game(season, club, results, number=1):
    """A ranked game of an imported interclub: `results` is [(player, percentage)]."""
    event = RankedEvent.objects.get_or_create(
        season=season,
        name="Interclub",
        defaults={
            "uid": uuid.uuid4(),
            "kind": Event.Kind.INTERCLUB,
            "date": DAY,
            "source": RankedEvent.Source.IMPORTED,
        },
    )[0]
    game = RankedGame.objects.create(
        event=event, number=number, date=DAY, winner_points=500, median_points=300
    )
    RankedResult.objects.bulk_create(
        RankedResult(
            game=game,
            player=player,
            name=player.name,
            club=club,
            club_name=club.name,
            points=int(percentage * 5),
            percentage=percentage,
        )
        for player, percentage in results
    )
    return game


@pytest.fixture
def ranked(season, clubs):
    # The club ranking by average: two players of one club rank it, where the ranking by
    # places asks three (what is published is the ranking the season chose, either way).
    season.club_method = season.ClubMethod.AVERAGE
    season.save(update_fields=["club_method"])
    an, bert = PlayerFactory(name="An"), PlayerFactory(name="Bert")
    ranked_game(season, clubs[0], [(an, 100.0), (bert, 80.0)])
    return an, bert


def test_a_version_stays_as_published_and_a_correction_lists_its_changes(
    season, official, clubs, ranked, django_assert_num_queries
):
    _an, bert = ranked
    # Who may, a savepoint and its release, the lock, the latest version, the games, their
    # results, the season's interclubs, the clubs' names, the publication, its persons, its
    # clubs, the history entry.
    with django_assert_num_queries(13):
        first = publication_create(season=season, by=official, on=date(2026, 6, 1))
    assert (first.version, first.on, first.by_name, first.interclubs) == (
        1,
        date(2026, 6, 1),
        "official",
        1,
    )
    assert [(p.rank, p.name, p.club_name, p.average) for p in first.persons.all()] == [
        (1, "An", "Letterkoppen", 100.0),
        (2, "Bert", "Letterkoppen", 80.0),
    ]
    # A correction: Bert's result was 95, and Cor plays a second game.
    RankedResult.objects.filter(player=bert).update(percentage=95.0)
    cor = PlayerFactory(name="Cor")
    ranked_game(season, clubs[1], [(cor, 90.0)], number=2)
    with pytest.raises(PublicationError) as refused:
        publication_create(season=season, by=official, on=date(2026, 6, 1), after_version=1)
    assert refused.value.code == "reason_needed"
    second = publication_create(
        season=season, by=official, on=date(2026, 6, 1), reason="Bert 95", after_version=1
    )
    assert second.version == 2
    # Version 1 is as it was published.
    assert [(p.name, p.average) for p in first.persons.all()] == [("An", 100.0), ("Bert", 80.0)]
    changed = publication_changes(second)
    assert changed.previous == 1
    assert [
        (c.kind, c.name, c.rank_before, c.rank_after, c.value_after) for c in changed.persons
    ] == [
        (Kind.CHANGED, "Bert", 2, 2, 95.0),
        (Kind.ADDED, "Cor", None, 3, 90.0),
    ]
    # Clubs (best 10, missing ones 0): Woordenaars is new; Letterkoppen (100 + 80) / 10 = 18
    # became (100 + 95) / 10 = 19.5.
    assert [(c.kind, c.name, c.value_before, c.value_after) for c in changed.clubs] == [
        (Kind.CHANGED, "Letterkoppen", 18.0, 19.5),
        (Kind.ADDED, "Woordenaars", None, 9.0),
    ]
    entries = HistoryEntry.objects.filter(action=HistoryAction.RANKING_OFFICIAL).order_by("pk")
    assert [(e.after["version"], e.reason, e.by_id) for e in entries] == [
        (1, "", official.pk),
        (2, "Bert 95", official.pk),
    ]
    assert publication_changes(first).previous is None


def test_only_officials_publish_and_a_version_seen_late_is_refused(season, official, ranked):
    with pytest.raises(PublicationError) as refused:
        publication_create(season=season, by=UserFactory())
    assert refused.value.code == "not_official"
    publication_create(season=season, by=official, after_version=0)
    with pytest.raises(PublicationError) as refused:
        publication_create(season=season, by=official, reason="again", after_version=0)
    assert refused.value.code == "published_meanwhile"
    assert "Versie 1" in refused.value.message
    assert Publication.objects.count() == 1


def test_the_pages_show_the_official_version_and_its_downloads(client, season, official, ranked):
    client.force_login(official)
    url = reverse("ranking_publications", args=["ntsv", "2026"])
    page = client.post(url, {"on": "2026-06-01", "reason": "", "after_version": "0"})
    assert page.status_code == 302
    season_page = client.get(reverse("ranking_season", args=["ntsv", "2026"])).content.decode()
    assert 'id="official-version"' in season_page and "1 juni 2026" in season_page
    data = json.loads(client.get(page.url.rstrip("/") + ".json").content)
    assert (data["version"], data["on"], data["persons"][1]["average"]) == (1, "2026-06-01", 80.0)
    assert data["clubs"] == [{"rank": 1, "club": "Letterkoppen", "score": 18.0, "results": 2}]
    rows = list(csv.reader(io.StringIO(client.get(page.url.rstrip("/") + ".csv").content.decode())))
    assert rows[1:] == [
        ["1", "", "An", "Letterkoppen", "1", "1", "1", "100.0"],
        ["2", "", "Bert", "Letterkoppen", "1", "1", "1", "80.0"],
    ]
    assert client.get(page.url.rstrip("/") + ".xls").status_code == 404
    client.logout()
    assert client.post(url, {"after_version": "1", "reason": "x"}).status_code in (302, 403)
    assert Publication.objects.count() == 1
