"""competition.services.rounds: creating rounds, attendance, pairings and their results."""

import pytest
from django.utils import translation

from competition.models import Absence, Round
from competition.selectors import (
    entrants_active_in,
    entrants_present_in,
)
from competition.services import CompetitionError
from competition.services.rounds import (
    round_create,
    round_record_results,
    round_set_attendance,
    round_set_pairings,
)
from games.models import Game, Outcome
from games.services import ResultEntry, ResultError, ResultInput
from tests.factories import (
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
)
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


def test_round_create_numbers_on(competition):
    numbers = [round_create(competition=competition).number for _ in range(3)]
    assert numbers == [1, 2, 3]
    assert list(competition.rounds.values_list("number", flat=True)) == [1, 2, 3]
    assert round_create(competition=competition).status == Round.Status.DRAFT


def test_round_create_continues_after_the_highest_number(competition):
    RoundFactory(competition=competition, number=4)
    assert round_create(competition=competition).number == 5


def test_round_create_of_an_offered_number_that_exists_returns_that_round(competition):
    # "Add round" clicked twice: the second click finds round 1, it does not add round 2.
    first = round_create(competition=competition, number=1)
    assert round_create(competition=competition, number=1) == first
    assert list(competition.rounds.values_list("number", flat=True)) == [1]
    assert round_create(competition=competition, number=2).number == 2


def test_round_create_refuses_a_number_that_is_not_the_next(competition):
    round_create(competition=competition)
    with pytest.raises(CompetitionError) as caught, translation.override("en"):
        round_create(competition=competition, number=3)
    with translation.override("en"):
        assert str(caught.value.message) == "Round 3 cannot be added: the next round is 2."
    assert competition.rounds.count() == 1


def test_round_create_respects_the_tournament_limit():
    tournament = CompetitionFactory(tournament=True, number_of_rounds=2)
    round_create(competition=tournament)
    round_create(competition=tournament)
    with pytest.raises(CompetitionError) as caught, translation.override("en"):
        round_create(competition=tournament)
    with translation.override("en"):
        assert str(caught.value.message) == "This tournament has all its 2 rounds already."
    assert tournament.rounds.count() == 2


def test_club_competition_has_no_round_limit(competition):
    for _ in range(12):
        round_create(competition=competition)
    assert competition.rounds.count() == 12


def test_attendance_marks_everyone_else_absent(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    round_set_attendance(round=round_obj, present_player_ids=[anna.pk, cor.pk])
    assert set(Absence.objects.filter(round=round_obj).values_list("player_id", flat=True)) == {
        bert.pk,
        dirk.pk,
    }
    assert {entrant.player for entrant in entrants_present_in(round_obj)} == {anna, cor}
    # Saving again replaces the earlier attendance.
    round_set_attendance(round=round_obj, present_player_ids=[anna.pk, bert.pk, cor.pk])
    assert list(Absence.objects.filter(round=round_obj).values_list("player_id", flat=True)) == [
        dirk.pk
    ]


def test_present_and_active_respect_joining_and_withdrawal(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    late = EntrantFactory(competition=competition, joined_round=2).player
    competition.entrants.filter(player=dirk).update(withdrawn_from_round=2)
    first = round_create(competition=competition)
    second = round_create(competition=competition)
    assert {e.player for e in entrants_active_in(first)} == {anna, bert, cor, dirk}
    assert {e.player for e in entrants_active_in(second)} == {anna, bert, cor, late}
    round_set_attendance(round=second, present_player_ids=[anna.pk, late.pk])
    assert {e.player for e in entrants_present_in(second)} == {anna, late}
    # Absences are only recorded for players active in the round.
    assert not Absence.objects.filter(round=second, player=dirk).exists()
    assert {e.player for e in entrants_present_in(first)} == {anna, bert, cor, dirk}


def test_a_paired_player_cannot_be_marked_absent(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    round_set_pairings(round=round_obj, pairings=[pair_spec(anna.pk, bert.pk, 1)])
    with pytest.raises(CompetitionError):
        round_set_attendance(round=round_obj, present_player_ids=[anna.pk, cor.pk, dirk.pk])
    assert not Absence.objects.filter(round=round_obj).exists()


def test_round_set_pairings_replaces_a_round_without_results(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    games = round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, cor.pk, 1), pair_spec(bert.pk, None)],
    )
    assert len(games) == 2
    tables = Game.objects.filter(round=round_obj).with_seats()
    assert {tuple(p.pk for p in game.players) for game in tables} == {
        (anna.pk, cor.pk),
        (bert.pk,),
    }


def test_round_set_pairings_refused_once_results_exist(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    first, _second = round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(first.pk, ResultInput.of_pair("normal", 300, 200))],
        by=None,
    )
    with pytest.raises(CompetitionError):
        round_set_pairings(round=round_obj, pairings=[pair_spec(anna.pk, cor.pk, 1)])
    assert Game.objects.filter(round=round_obj).count() == 2
    assert Game.objects.get(pk=first.pk).scores[0] == 300


def test_round_set_pairings_refuses_outsiders_and_doubles(competition, four_entrants):
    anna, bert, cor, _dirk = four_entrants
    round_obj = round_create(competition=competition)
    outsider = PlayerFactory()
    with pytest.raises(CompetitionError):
        round_set_pairings(round=round_obj, pairings=[pair_spec(anna.pk, outsider.pk, 1)])
    with pytest.raises(CompetitionError):
        round_set_pairings(
            round=round_obj,
            pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, anna.pk, 2)],
        )
    assert not Game.objects.filter(round=round_obj).exists()


def test_round_record_results_finishes_the_round(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    extra = EntrantFactory(competition=competition).player
    round_obj = round_create(competition=competition)
    first, second, _bye = round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(anna.pk, bert.pk, 1),
            pair_spec(cor.pk, dirk.pk, 2),
            pair_spec(extra.pk, None),
        ],
    )
    changed = round_record_results(
        round=round_obj,
        entries=[ResultEntry(first.pk, ResultInput.of_pair("normal", 300, 200))],
        by=None,
    )
    assert changed.changed == 1
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.PUBLISHED  # one game still to play
    round_record_results(
        round=round_obj, entries=[ResultEntry(second.pk, ResultInput.of_pair("forfeit_a"))], by=None
    )
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.FINISHED


def test_round_record_results_is_all_or_nothing(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    first, second = round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    with pytest.raises(ResultError):
        round_record_results(
            round=round_obj,
            entries=[
                ResultEntry(first.pk, ResultInput.of_pair("normal", 300, 200)),
                ResultEntry(second.pk, ResultInput.of_pair("normal", 300, None)),
            ],
            by=None,
        )
    assert not Game.objects.filter(round=round_obj).exclude(outcome=Outcome.PENDING).exists()
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.DRAFT


def test_round_record_results_refuses_games_of_another_round(competition):
    round_obj = RoundFactory(competition=competition)
    foreign = GameFactory()
    with pytest.raises(CompetitionError):
        round_record_results(
            round=round_obj,
            entries=[ResultEntry(foreign.pk, ResultInput.of_pair("annulled"))],
            by=None,
        )
    foreign.refresh_from_db()
    assert foreign.outcome == Outcome.PENDING
