"""competition.services.entrants: entering, withdrawing, finding players by name."""

import pytest

from clubs.models import Membership, Player
from competition.models import Entrant
from competition.services import CompetitionError
from competition.services.entrants import (
    entrant_add,
    entrant_reinstate,
    entrant_withdraw,
    player_get_or_create_in_club,
)
from competition.services.rounds import round_create, round_record_results, round_set_pairings
from games.services import ResultEntry, ResultInput
from tests.factories import GroupFactory, MembershipFactory, PlayerFactory
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


def test_entrant_add_enrols_the_player_in_the_club(competition):
    player = PlayerFactory()
    entrant = entrant_add(competition=competition, player=player, joined_round=3)
    assert (entrant.competition, entrant.player, entrant.joined_round) == (competition, player, 3)
    assert Membership.objects.filter(club=competition.club, player=player).exists()


def test_entrant_add_twice_is_refused(competition):
    player = PlayerFactory()
    entrant_add(competition=competition, player=player)
    with pytest.raises(CompetitionError):
        entrant_add(competition=competition, player=player)
    assert Entrant.objects.filter(competition=competition, player=player).count() == 1


def test_entrant_add_refuses_a_group_of_another_competition(competition):
    with pytest.raises(CompetitionError):
        entrant_add(competition=competition, player=PlayerFactory(), group=GroupFactory())
    assert not competition.entrants.exists()


def _play_round(competition, anna, bert, *, result=True):
    round_obj = round_create(competition=competition)
    (game,) = round_set_pairings(round=round_obj, pairings=[pair_spec(anna.pk, bert.pk, 1)])
    if result:
        round_record_results(
            round=round_obj,
            entries=[ResultEntry(game.pk, ResultInput.of_pair("normal", 1, 0))],
            by=None,
        )
    return round_obj


def test_withdraw_before_or_at_joining_is_refused(competition):
    entrant = entrant_add(competition=competition, player=PlayerFactory(), joined_round=3)
    for from_round in (1, 3):
        with pytest.raises(CompetitionError):
            entrant_withdraw(entrant=entrant, from_round=from_round)
    entrant.refresh_from_db()
    assert entrant.withdrawn_from_round is None


def test_withdraw_refused_with_results_in_later_rounds(competition, four_entrants):
    anna, bert, _cor, _dirk = four_entrants
    _play_round(competition, anna, bert)
    _play_round(competition, anna, bert)
    entrant = competition.entrants.get(player=anna)
    with pytest.raises(CompetitionError):
        entrant_withdraw(entrant=entrant, from_round=2)
    entrant.refresh_from_db()
    assert entrant.withdrawn_from_round is None
    # From round 3 on is fine: the results of rounds 1 and 2 stay.
    entrant_withdraw(entrant=entrant, from_round=3)
    entrant.refresh_from_db()
    assert entrant.withdrawn_from_round == 3


def test_withdraw_allowed_with_only_a_pending_game_later(competition, four_entrants):
    anna, bert, _cor, _dirk = four_entrants
    _play_round(competition, anna, bert)
    _play_round(competition, anna, bert, result=False)
    entrant = entrant_withdraw(entrant=competition.entrants.get(player=anna), from_round=2)
    assert entrant.withdrawn_from_round == 2
    entrant_reinstate(entrant=entrant)
    entrant.refresh_from_db()
    assert entrant.withdrawn_from_round is None


def test_player_found_by_name_within_the_club(club, other_club):
    anna = PlayerFactory(name="Anna de Vries")
    MembershipFactory(club=club, player=anna)
    namesake = PlayerFactory(name="Bert Bos")
    MembershipFactory(club=other_club, player=namesake)

    found, created = player_get_or_create_in_club(club=club, name="  anna   DE vries ")
    assert (found, created) == (anna, False)
    # A namesake in another club is someone else.
    bert, created = player_get_or_create_in_club(club=club, name="Bert Bos")
    assert created
    assert bert != namesake
    assert Membership.objects.filter(club=club, player=bert).exists()
    assert Player.objects.filter(name="Bert Bos").count() == 2


def test_player_name_must_not_be_empty_or_ambiguous(club):
    with pytest.raises(CompetitionError):
        player_get_or_create_in_club(club=club, name="   ")
    for _ in range(2):
        MembershipFactory(club=club, player=PlayerFactory(name="Jan Bos"))
    with pytest.raises(CompetitionError):
        player_get_or_create_in_club(club=club, name="jan bos")
