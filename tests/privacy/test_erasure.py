"""Erasure: the account and personal data go, the results stay under "#<id>", and no one
else's standing, ranking or game changes; the history keeps the fact, not the data."""

import json
from dataclasses import asdict

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone

from clubs.history import HistoryAction, HistoryReason, history_record
from clubs.models import Club, HistoryEntry, Membership, Player, Throttle, ThrottleScope
from clubs.services import player_save
from competition.models import Competition
from competition.selectors import standings_get
from duplicate.models import DuplicateCompetition, Evening, Slip
from duplicate.selectors import evening_results, season_results
from games.models import Seat
from privacy.erasure import ErasureError, player_erase
from tests.factories import ClubFactory, MembershipFactory


def _standings() -> dict:
    """Every competition's standings, row by player, without the names."""
    tables = {}
    for competition in Competition.objects.all():
        view = standings_get(competition)
        tables[competition.pk] = {
            group: {row.player_id: {**asdict(row), "name": None} for row in rows}
            for group, rows in view.groups.items()
        }
    return tables


def _duplicate_rankings() -> dict:
    evenings = {e.pk: [asdict(row) for row in evening_results(e)] for e in Evening.objects.all()}
    seasons = {
        d.pk: [asdict(row) for row in season_results(d.pk)]
        for d in DuplicateCompetition.objects.all()
    }
    return {"evenings": evenings, "seasons": seasons}


def _results() -> list:
    seats = Seat.objects.order_by("pk").values_list("pk", "game_id", "player_id", "score", "place")
    slips = Slip.objects.order_by("pk").values_list("pk", "player_id", "text", "score")
    return [list(seats), list(slips)]


def test_the_results_stay_and_no_one_elses_standing_changes(speler):
    standings, rankings, results = _standings(), _duplicate_rankings(), _results()
    assert any(speler.pk in group for table in standings.values() for group in table.values())
    assert any(
        row["player_id"] == speler.pk for rows in rankings["evenings"].values() for row in rows
    )

    player_erase(player=speler, by=speler.user, reason_code=HistoryReason.ERASE_OWN_REQUEST)

    assert _standings() == standings
    assert _duplicate_rankings() == rankings
    assert _results() == results
    names = {
        row.player_id: row.name
        for competition in Competition.objects.all()
        for rows in standings_get(competition).groups.values()
        for row in rows
    }
    assert names[speler.pk] == f"#{speler.pk}"


def test_the_account_and_personal_fields_go(speler, client):
    client.force_login(speler.user)
    user_id = speler.user.pk
    assert Session.objects.count() == 1
    speler.federation_number, speler.rating = "NL-4711", 1500
    player_save(speler, by=None)
    Throttle.objects.create(
        scope=ThrottleScope.LOGIN_ACCOUNT,
        subject="speler",
        address="192.0.2.7",
        failures=2,
        last_failure_at=timezone.now(),
    )

    logged = LogEntry.objects.log_actions(
        user_id=get_user_model().objects.get(username="admin").pk,
        queryset=[speler],
        action_flag=CHANGE,
        change_message="Changed name.",
        single_object=True,
    )

    player_erase(player=speler, by=speler.user, reason_code=HistoryReason.ERASE_OWN_REQUEST)

    logged.refresh_from_db()  # the admin's own log names the player no more
    assert (logged.object_repr, logged.change_message) == (f"#{speler.pk}", "")
    player = Player.objects.get(pk=speler.pk)
    assert (player.name, player.user, player.federation_number) == (f"#{player.pk}", None, None)
    assert (player.rating, player.rating_deviation, player.invite_code_hash) == (None, None, "")
    assert player.erased_at is not None
    assert not get_user_model().objects.filter(pk=user_id).exists()
    assert not Membership.objects.filter(player=player).exists()
    assert Session.objects.count() == 0
    assert not Throttle.objects.exists()
    assert client.get("/", follow=True).context["user"].is_anonymous


def _history_text() -> str:
    rows = HistoryEntry.objects.values_list("by_name", "object_label", "before", "after", "reason")
    return json.dumps(list(rows), ensure_ascii=False)


def test_the_history_keeps_the_fact_not_the_data(speler):
    club = Club.objects.get(slug="gouda")
    old_name = speler.name
    speler.name, speler.federation_number = "Sietske Speler", "NL-4711"
    player_save(speler, by=speler.user)  # an older name and a number in the history
    speler.name = "Sietske de Speler"
    player_save(speler, by=speler.user)
    history_record(  # a reason someone typed that names her; another "Sietske" stays
        club_id=club.pk,
        by=None,
        action=HistoryAction.ROUND_REOPEN,
        object_type="round",
        label="Sietske Bakker",
        reason="Sietske de Speler was late; Sietske Bakker not",
    )
    entries = HistoryEntry.objects.count()
    text = _history_text()
    assert all(word in text for word in (old_name, "Sietske Speler", "NL-4711", '"speler"'))

    player_erase(player=speler, by=speler.user, reason_code=HistoryReason.ERASE_OWN_REQUEST)

    text = _history_text()
    for data in (old_name, "Sietske Speler", "Sietske de Speler", "NL-4711", '"speler"'):
        assert data not in text
    assert f"#{speler.pk} was late; Sietske Bakker not" in text
    assert HistoryEntry.objects.filter(object_label="Sietske Bakker").exists()
    erased = HistoryEntry.objects.get(action=HistoryAction.PLAYER_ERASE)
    assert HistoryEntry.objects.count() == entries + 1
    assert (erased.club, erased.by, erased.by_name, erased.object_id) == (club, None, "", speler.pk)
    assert (erased.before, erased.after, erased.reason_code) == (None, None, "erase_own")
    assert erased.object_label == f"#{speler.pk}"


def test_the_erasure_is_recorded_in_every_club_of_the_person(speler):
    other = ClubFactory(name="Scrabbleclub Delft", slug="delft")
    MembershipFactory(club=other, player=speler)
    player_erase(player=speler, by=None, reason_code=HistoryReason.ERASE_RETENTION)
    recorded = HistoryEntry.objects.filter(action=HistoryAction.PLAYER_ERASE)
    assert sorted(recorded.values_list("club__slug", flat=True)) == ["delft", "gouda"]


def test_an_erased_player_is_not_erased_twice(speler):
    player_erase(player=speler, by=None, reason_code=HistoryReason.ERASE_OWN_REQUEST)
    with pytest.raises(ErasureError):
        player_erase(player=speler, by=None, reason_code=HistoryReason.ERASE_OWN_REQUEST)
    assert HistoryEntry.objects.filter(action=HistoryAction.PLAYER_ERASE).count() == 1


def test_the_history_refuses_every_other_change():
    with pytest.raises(PermissionError):
        HistoryEntry.objects.erase_personal_data({1: {"action": "x"}})


def test_the_ranking_keeps_the_results_without_the_name(speler):
    """A ranked result keeps the name as it was at the event: erased with the rest, while
    its points and percentage stay in the season's ranking."""
    from datetime import date

    from django.utils import timezone

    from events.models import Season
    from ranking.models import Publication, PublishedPerson, RankedEvent, RankedGame, RankedResult

    federation = ClubFactory(name="Federatie", slug="federatie", is_federation=True)
    season = Season.objects.create(
        federation=federation,
        name="2026",
        slug="2026",
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
    )
    ranked = RankedEvent.objects.create(
        season=season, uid="5f0c3c4e-4b1a-4c6a-9a57-1a8d1b7a0001", name="IC", date=date(2026, 3, 1)
    )
    game = RankedGame.objects.create(
        event=ranked, number=1, date=date(2026, 3, 1), winner_points=500, median_points=400
    )
    RankedResult.objects.create(
        game=game,
        player=speler,
        name=speler.name,
        federation_number="4711",
        points=450,
        percentage=90.0,
    )
    # A published version of the ranking names the person too (its rows never change
    # otherwise).
    publication = Publication.objects.create(
        season=season,
        version=1,
        on=date(2026, 3, 1),
        published_at=timezone.now(),
        interclubs=1,
        interclubs_needed=0,
    )
    PublishedPerson.objects.create(
        publication=publication,
        position=1,
        person=str(speler.pk),
        player=speler,
        rank=1,
        federation_number="4711",
        name=speler.name,
        games=1,
        interclubs=1,
        counted=1,
        average=90.0,
    )

    player_erase(player=speler, by=speler.user, reason_code=HistoryReason.ERASE_OWN_REQUEST)

    result = RankedResult.objects.get(game=game)
    assert (result.name, result.federation_number) == (f"#{speler.pk}", "")
    assert (result.player_id, result.points, result.percentage) == (speler.pk, 450, 90.0)
    published = PublishedPerson.objects.get()
    assert (published.name, published.federation_number, published.average) == (
        f"#{speler.pk}",
        "",
        90.0,
    )
