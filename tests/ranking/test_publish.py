"""An evening of a ranked event is published as a ranked game when duplicate says it is
complete (`duplicate.signals.game_complete`), again when it changes; another GV scores the
season's games again."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from duplicate.models import Slip
from duplicate.signals import game_complete
from events.models import Event, Season
from events.services import EventError, event_update, season_update
from ranking.models import RankedEvent, RankedGame, RankedResult
from ranking.selectors import season_standings
from tests.factories import UserFactory
from tests.ranking.fixtures import play_evening

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 7)


def _points(players):
    return {
        players["An"]: 500,
        players["Bert"]: 400,
        players["Cor"]: 300,
        players["Dirk"]: 200,
        players["Eva"]: 100,
    }


def test_a_complete_evening_is_published_with_every_percentage(interclub, season):
    event, division, players = interclub
    evening = play_evening(division, 1, DAY, _points(players))
    game_complete.send(sender=None, evening=evening)

    ranked = RankedEvent.objects.get()
    assert (ranked.uid, ranked.event, ranked.season, ranked.kind) == (
        event.uid,
        event,
        season,
        Event.Kind.INTERCLUB,
    )
    game = RankedGame.objects.get()
    # winner 500, median 300 (the third of five): VIW 200; GV 20.
    # Bert: 100 − 100 × 20 / 200 = 90; Cor 80; Dirk 70; Eva 60.
    assert (game.number, game.date, game.winner_points, game.median_points) == (1, DAY, 500, 300)
    got = {
        r.name: (r.points, r.percentage, r.club_name, r.federation_number)
        for r in game.results.all()
    }
    assert got == {
        "An": (500, 100.0, "Letterkoppen", "N1"),
        "Bert": (400, 90.0, "Letterkoppen", "N2"),
        "Cor": (300, 80.0, "Woordenaars", "N3"),
        "Dirk": (200, 70.0, "Woordenaars", "N4"),
        "Eva": (100, 60.0, "", ""),
    }
    entry = HistoryEntry.objects.get(action=HistoryAction.RANKING_PUBLISH)
    assert entry.club_id == season.federation_id and entry.after["players"] == 5


def test_a_corrected_evening_replaces_its_game_and_keeps_its_number(interclub):
    _event, division, players = interclub
    first = play_evening(division, 1, DAY, _points(players))
    game_complete.send(sender=None, evening=first)
    second = play_evening(division, 2, DAY, _points(players))
    game_complete.send(sender=None, evening=second)
    # A correction of evening 1: Eva's slip scored 300 (now two at the median).
    Slip.objects.filter(turn__evening=first, player=players["Eva"]).update(score=300)
    game_complete.send(sender=None, evening=first)

    games = list(RankedGame.objects.order_by("number"))
    assert [(g.number, g.evening_id) for g in games] == [(1, first.pk), (2, second.pk)]
    eva = RankedResult.objects.get(game=games[0], name="Eva")
    # median still 300, so Eva now scores as Cor: 80.
    assert (eva.points, eva.percentage) == (300, 80.0)
    assert RankedResult.objects.filter(game=games[0]).count() == 5
    entries = HistoryEntry.objects.filter(action=HistoryAction.RANKING_PUBLISH).order_by("pk")
    assert [e.before for e in entries][-1] == {
        "players": 5,
        "winner_points": 500,
        "median_points": 300.0,
    }


def test_an_evening_of_an_event_without_a_season_is_not_ranked(interclub):
    event, division, players = interclub
    Event.objects.filter(pk=event.pk).update(season=None)
    division.refresh_from_db()
    evening = play_evening(division, 1, DAY, _points(players))
    game_complete.send(sender=None, evening=evening)
    assert not RankedGame.objects.exists()


def test_a_clubs_own_duplicate_evening_is_not_ranked(interclub):
    _event, division, players = interclub
    division.event = None
    division.save()
    game_complete.send(sender=None, evening=play_evening(division, 1, DAY, _points(players)))
    assert not RankedEvent.objects.exists()


def test_an_imported_event_is_not_overwritten_by_a_local_evening(interclub, season):
    event, division, players = interclub
    RankedEvent.objects.create(
        season=season, uid=event.uid, name="Imported", date=DAY, source=RankedEvent.Source.IMPORTED
    )
    game_complete.send(sender=None, evening=play_evening(division, 1, DAY, _points(players)))
    assert not RankedGame.objects.exists()


def test_another_gap_value_scores_the_seasons_games_again(interclub, season, official):
    _event, division, players = interclub
    game_complete.send(sender=None, evening=play_evening(division, 1, DAY, _points(players)))
    fields = {name: getattr(season, name) for name in ("name", "slug", "start", "end")}
    season_update(season=season, fields={**fields, "gap_value": Decimal("25")}, by=official)
    # GV 25: Bert 100 − 100 × 25 / 200 = 87.5; Eva 100 − 400 × 25 / 200 = 50.
    got = dict(RankedResult.objects.values_list("name", "percentage"))
    assert got == {"An": 100.0, "Bert": 87.5, "Cor": 75.0, "Dirk": 62.5, "Eva": 50.0}
    entry = HistoryEntry.objects.get(action=HistoryAction.SEASON_SETTINGS)
    assert (entry.before, entry.after) == ({"gap_value": "20"}, {"gap_value": "25"})


def test_only_an_official_changes_a_season(season, interclub):
    outsider = UserFactory()
    with pytest.raises(EventError) as refused:
        season_update(season=season, fields={"min_games": 3}, by=outsider)
    assert refused.value.code == "not_an_official"
    season.refresh_from_db()
    assert season.min_games == 0
    assert not HistoryEntry.objects.filter(action=HistoryAction.SEASON_SETTINGS).exists()


def test_an_events_season_date_and_kind_changed_after_publishing_move_its_games_at_once(
    interclub, season, official, federation
):
    """The change and what follows from it are one write: the ranking of the season left
    loses the event's results, the new season's has them, scored with its GV."""
    event, division, players = interclub
    Event.objects.filter(pk=event.pk).update(organiser=federation)  # the federation's own
    game_complete.send(sender=None, evening=play_evening(division, 1, DAY, _points(players)))
    later = Season.objects.create(
        federation=federation,
        name="Seizoen 2027",
        slug="2027",
        start=date(2027, 1, 1),
        end=date(2027, 12, 31),
        gap_value=Decimal("40"),
    )
    event.refresh_from_db()
    settings = {"season": later, "date": date(2027, 3, 6), "kind": Event.Kind.OPEN}
    event_update(event=event, settings=settings, by=official)

    ranked = RankedEvent.objects.get()
    assert (ranked.season, ranked.date, ranked.kind) == (later, date(2027, 3, 6), "open")
    # GV 40: Bert 100 − 100 × 40 / 200 = 80; Eva 100 − 400 × 40 / 200 = 20.
    got = dict(RankedResult.objects.values_list("name", "percentage"))
    assert got == {"An": 100.0, "Bert": 80.0, "Cor": 60.0, "Dirk": 40.0, "Eva": 20.0}
    assert season_standings(season).ranking.persons == ()
    placed = season_standings(later, on=date(2027, 3, 6))
    assert [(placed.names[row.person], row.rank) for row in placed.ranking.persons] == [
        ("An", 1),
        ("Bert", 2),
        ("Cor", 3),
        ("Dirk", 4),
        ("Eva", 5),
    ]
    assert placed.ranking.interclubs == 0  # an open tournament now

    event_update(event=event, settings={"season": None}, by=official)
    assert not RankedEvent.objects.exists() and not RankedResult.objects.exists()
    withdrawn = HistoryEntry.objects.get(action=HistoryAction.RANKING_WITHDRAW)
    assert (withdrawn.club_id, withdrawn.before) == (
        federation.pk,
        {"season": "Seizoen 2027", "games": 1},
    )


def test_an_imported_event_stands_when_the_event_here_changes(
    interclub, season, official, federation
):
    event, _division, _players = interclub
    Event.objects.filter(pk=event.pk).update(organiser=federation)
    RankedEvent.objects.create(
        season=season, uid=event.uid, name="Imported", date=DAY, source=RankedEvent.Source.IMPORTED
    )
    event.refresh_from_db()
    event_update(event=event, settings={"season": None}, by=official)
    assert RankedEvent.objects.get().name == "Imported"
