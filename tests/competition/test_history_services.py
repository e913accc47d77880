"""The services of entrants, groups and competition settings keep the history; an archived
competition refuses every change, whichever service it goes through."""

import datetime

import pytest

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from competition.models import Competition, Entrant
from competition.services import CompetitionArchived, CompetitionError
from competition.services.competitions import (
    SlugTaken,
    competition_archive,
    competition_create,
    competition_settings,
    competition_update,
)
from competition.services.entrants import (
    entrant_add,
    entrant_reinstate,
    entrant_set_group,
    entrant_withdraw,
    group_create,
)
from competition.services.rounds import round_create, round_record_results, round_set_pairings
from games.moves import MoveError, move_add
from games.services import ResultEntry, ResultError, ResultInput, game_record_result
from tests.factories import (
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    GroupFactory,
    PlayerFactory,
    RoundFactory,
)
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


def only_entry(**where) -> HistoryEntry:
    (entry,) = HistoryEntry.objects.filter(**where)
    return entry


# --- entrants and groups ----------------------------------------------------------------


def test_entering_a_player_is_kept_with_who_and_the_competition(competition, secretary):
    group = GroupFactory(competition=competition, name="A")
    player = PlayerFactory(name="Anna")
    entrant = entrant_add(
        competition=competition, player=player, joined_round=3, group=group, by=secretary
    )

    entry = only_entry(action=HistoryAction.ENTRANT_ADD)
    assert (entry.competition_id, entry.club_id) == (competition.pk, competition.club_id)
    assert (entry.object_type, entry.object_id) == ("entrant", entrant.pk)
    assert entry.object_label == "Anna"
    assert (entry.by, entry.by_name) == (secretary, "secretaris")
    assert entry.before is None
    assert entry.after == {"joined_round": 3, "group": "A"}


def test_a_refused_entry_leaves_no_history(competition, secretary):
    player = PlayerFactory()
    entrant_add(competition=competition, player=player, by=secretary)
    with pytest.raises(CompetitionError):
        entrant_add(competition=competition, player=player, by=secretary)
    assert HistoryEntry.objects.filter(action=HistoryAction.ENTRANT_ADD).count() == 1


def test_withdraw_and_reinstate_keep_before_and_after(competition, secretary):
    entrant = EntrantFactory(competition=competition, player=PlayerFactory(name="Bert"))
    entrant_withdraw(entrant=entrant, from_round=4, by=secretary)
    entrant_withdraw(entrant=entrant, from_round=6, by=secretary)
    entrant_reinstate(entrant=entrant, by=secretary)

    withdrawals = HistoryEntry.objects.filter(action=HistoryAction.ENTRANT_WITHDRAW).order_by("pk")
    assert [(e.before, e.after) for e in withdrawals] == [
        ({"withdrawn_from_round": None}, {"withdrawn_from_round": 4}),
        ({"withdrawn_from_round": 4}, {"withdrawn_from_round": 6}),
    ]
    reinstated = only_entry(action=HistoryAction.ENTRANT_REINSTATE)
    assert (reinstated.before, reinstated.after) == (
        {"withdrawn_from_round": 6},
        {"withdrawn_from_round": None},
    )
    assert {e.object_label for e in HistoryEntry.objects.all()} == {"Bert"}


def test_reinstating_a_player_who_never_withdrew_is_not_a_change(competition, secretary):
    entrant_reinstate(entrant=EntrantFactory(competition=competition), by=secretary)
    assert not HistoryEntry.objects.exists()


def test_a_group_change_keeps_the_group_names(competition, secretary):
    north, south = (GroupFactory(competition=competition, name=name) for name in ("Noord", "Zuid"))
    entrant = EntrantFactory(competition=competition, group=north)
    entrant_set_group(entrant=entrant, group=south, by=secretary)
    entrant_set_group(entrant=entrant, group=None, by=secretary)
    entrant_set_group(entrant=entrant, group=None, by=secretary)  # no change, no entry

    changes = HistoryEntry.objects.filter(action=HistoryAction.ENTRANT_GROUP).order_by("pk")
    assert [(e.before, e.after) for e in changes] == [
        ({"group": "Noord"}, {"group": "Zuid"}),
        ({"group": "Zuid"}, {"group": None}),
    ]
    entrant.refresh_from_db()
    assert entrant.group is None


def test_a_group_of_another_competition_is_refused(competition, secretary):
    entrant = EntrantFactory(competition=competition)
    with pytest.raises(CompetitionError):
        entrant_set_group(entrant=entrant, group=GroupFactory(), by=secretary)
    assert not HistoryEntry.objects.exists()


def test_creating_a_group_is_kept(competition, secretary):
    group = group_create(competition=competition, name="  Eerste   klasse ", by=secretary)
    entry = only_entry(action=HistoryAction.GROUP_CREATE)
    assert (entry.object_id, entry.object_label, entry.after) == (
        group.pk,
        "Eerste klasse",
        {"name": "Eerste klasse"},
    )
    assert entry.competition_id == competition.pk


# --- competition settings ---------------------------------------------------------------


def settings_for(**changes) -> dict:
    return {**competition_settings(Competition(name="Zomer", slug="zomer")), **changes}


def test_creating_a_competition_keeps_its_settings(club, secretary):
    created = competition_create(
        club=club,
        settings=settings_for(start_date=datetime.date(2026, 6, 1), tiebreaks=["spread", "wins"]),
        by=secretary,
    )
    entry = only_entry(action=HistoryAction.COMPETITION_CREATE)
    assert (entry.competition_id, entry.object_label, entry.by) == (created.pk, "Zomer", secretary)
    assert entry.after["start_date"] == "2026-06-01"
    assert entry.after["tiebreaks"] == ["spread", "wins"]
    assert entry.after["rules"] == Competition.Rules.GOUDS_8


def test_a_settings_change_keeps_only_the_changed_fields(competition, secretary):
    competition_update(
        competition=competition,
        settings={"bye_match_points": 1, "tiebreaks": ["wins", "spread"], "name": competition.name},
        by=secretary,
        reason="besloten op de ledenvergadering",
    )
    entry = only_entry(action=HistoryAction.COMPETITION_SETTINGS)
    assert entry.before == {"bye_match_points": 2, "tiebreaks": ["spread"]}
    assert entry.after == {"bye_match_points": 1, "tiebreaks": ["wins", "spread"]}
    assert entry.reason == "besloten op de ledenvergadering"
    competition.refresh_from_db()
    assert (competition.bye_match_points, competition.tiebreaks) == (1, ["wins", "spread"])


def test_the_settings_before_are_read_from_the_database_not_the_callers_copy(competition):
    competition.min_games = 7  # as a validated form leaves its instance
    competition_update(competition=competition, settings={"min_games": 7})
    entry = only_entry(action=HistoryAction.COMPETITION_SETTINGS)
    assert (entry.before, entry.after) == ({"min_games": 0}, {"min_games": 7})


def test_saving_unchanged_settings_writes_no_history(competition):
    competition_update(competition=competition, settings={"name": competition.name})
    assert not HistoryEntry.objects.exists()


def test_a_short_name_taken_is_refused_and_nothing_is_kept(club, competition):
    with pytest.raises(SlugTaken):
        competition_create(club=club, settings=settings_for(slug=competition.slug))
    other = CompetitionFactory(club=club, slug="andere")
    with pytest.raises(SlugTaken):
        competition_update(competition=other, settings={"slug": competition.slug})
    assert not HistoryEntry.objects.exists()


def test_invalid_settings_are_refused_with_the_models_message(competition):
    with pytest.raises(CompetitionError):
        competition_update(competition=competition, settings={"tiebreaks": ["spread", "spread"]})
    assert not HistoryEntry.objects.exists()


# --- archiving --------------------------------------------------------------------------


@pytest.fixture
def played(competition, four_entrants):
    """A round with one result, then the competition archived."""
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    games = round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(games[0].pk, ResultInput.of_pair("normal", 300, 200))],
        by=None,
    )
    return round_obj, games


def test_archiving_is_kept_and_happens_once(competition, secretary):
    competition_archive(competition=competition, by=secretary, reason="seizoen voorbij")
    competition_archive(competition=competition, by=secretary)
    entry = only_entry(action=HistoryAction.COMPETITION_ARCHIVE)
    assert (entry.before, entry.after, entry.reason) == (
        {"archived": False},
        {"archived": True},
        "seizoen voorbij",
    )
    competition.refresh_from_db()
    assert competition.is_archived


def test_an_archived_competition_refuses_every_change(competition, secretary, played):
    round_obj, games = played
    entrant = Entrant.objects.filter(competition=competition).first()
    group = GroupFactory(competition=competition)
    competition_archive(competition=competition, by=secretary)
    kept = HistoryEntry.objects.count()
    changed_at = Competition.objects.get(pk=competition.pk).changed_at

    refusals = [
        lambda: entrant_add(competition=competition, player=PlayerFactory(), by=secretary),
        lambda: entrant_withdraw(entrant=entrant, from_round=3, by=secretary),
        lambda: entrant_reinstate(entrant=entrant, by=secretary),
        lambda: entrant_set_group(entrant=entrant, group=group, by=secretary),
        lambda: group_create(competition=competition, name="Nieuw", by=secretary),
        lambda: competition_update(competition=competition, settings={"min_games": 3}),
        lambda: round_create(competition=competition),
    ]
    for refused in refusals:
        with pytest.raises(CompetitionArchived) as raised:
            refused()
        assert "gearchiveerd" in str(raised.value.message)
    # A game's result and its moves: games.policy refuses them before they are written,
    # with the same message, as each app's own error (as the players' path always did).
    with pytest.raises(ResultError, match="gearchiveerd"):
        game_record_result(
            game=games[1], result=ResultInput.of_pair("normal", 400, 100), by=secretary
        )
    with pytest.raises(MoveError, match="gearchiveerd"):
        move_add(game=games[1], notation="8H WOORD", by=secretary)
    # A whole round's results: the refusal is given per row, as every other row error.
    with pytest.raises(ResultError) as raised:
        round_record_results(
            round=round_obj,
            entries=[
                ResultEntry(games[0].pk, ResultInput.of_pair("normal", 100, 400), reason="fout")
            ],
            by=secretary,
        )
    assert str(CompetitionArchived().message) in map(str, raised.value.errors.values())

    assert HistoryEntry.objects.count() == kept
    assert competition.rounds.count() == 1
    games[0].refresh_from_db()
    games[1].refresh_from_db()
    assert (games[0].scores[0], games[0].scores[1]) == (300, 200)
    assert not games[1].has_result and not games[1].moves.exists()
    assert Competition.objects.get(pk=competition.pk).changed_at == changed_at


def test_the_refusal_is_each_apps_error_so_every_page_shows_it():
    refusal = CompetitionArchived()
    assert isinstance(refusal, CompetitionError)
    assert isinstance(refusal, ResultError)
    assert isinstance(refusal, MoveError)
    assert not refusal.conflict


def test_a_round_of_an_archived_competition_keeps_its_games(competition):
    """Archived or not, a competition with rounds is protected by the database."""
    GameFactory(round=RoundFactory(competition=competition), played=True)
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        competition.delete()
