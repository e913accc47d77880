"""Every factory builds an unsaved object without the database and creates a valid saved one."""

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, HistoryEntry, Membership, Player
from competition.models import Absence, Competition, Entrant, Group, Round
from games.models import Game, Move, Outcome, Seat
from tests.factories import (
    AbsenceFactory,
    ClubFactory,
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    GroupFactory,
    HistoryEntryFactory,
    MembershipFactory,
    MoveFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    UserFactory,
    competition_with_results,
)
from tests.seats import winner

FACTORIES = [
    (UserFactory, get_user_model()),
    (ClubFactory, Club),
    (PlayerFactory, Player),
    (MembershipFactory, Membership),
    (CompetitionFactory, Competition),
    (GroupFactory, Group),
    (EntrantFactory, Entrant),
    (RoundFactory, Round),
    (AbsenceFactory, Absence),
    (GameFactory, Game),
    (SeatFactory, Seat),
    (HistoryEntryFactory, HistoryEntry),
    (MoveFactory, Move),
]


@pytest.mark.parametrize(("factory", "model"), FACTORIES, ids=lambda value: value.__name__)
def test_build_needs_no_database(factory, model):
    # No `db` fixture: any query here fails the test.
    obj = factory.build()
    assert isinstance(obj, model)
    assert obj.pk is None


@pytest.mark.django_db
@pytest.mark.parametrize(("factory", "model"), FACTORIES, ids=lambda value: value.__name__)
def test_create_saves_a_valid_row(factory, model):
    obj = factory.create()
    assert model.objects.filter(pk=obj.pk).exists()
    obj.full_clean()


@pytest.mark.django_db
def test_created_game_has_both_seats():
    game = GameFactory()
    seats = [(seat.position, seat.round_id) for seat in game.seat_list]
    assert seats == [(0, game.round_id), (1, game.round_id)]
    assert len({player.pk for player in game.players}) == 2


@pytest.mark.django_db
def test_bye_and_played_traits():
    bye = GameFactory(bye=True)
    assert (bye.outcome, winner(bye)) == (Outcome.BYE, "a")
    assert [seat.position for seat in bye.seat_list] == [0]
    played = GameFactory(played=True, score_a=250, score_b=300)
    assert (played.outcome, winner(played), played.scores) == (Outcome.NORMAL, "b", (250, 300))
    draw = GameFactory(played=True, score_a=250, score_b=250)
    assert winner(draw) == "draw"


@pytest.mark.django_db
def test_round_factory_numbers_on_within_a_competition():
    competition = CompetitionFactory()
    assert [RoundFactory(competition=competition).number for _ in range(3)] == [1, 2, 3]
    assert RoundFactory().number == 1


@pytest.mark.django_db
def test_secretary_trait_and_staff_trait():
    assert MembershipFactory(secretary=True).role == Membership.Role.SECRETARY
    user = UserFactory(staff=True)
    assert user.is_staff
    assert user.check_password("bordpunt-test")


@pytest.mark.django_db
def test_competition_with_results_builder():
    played = competition_with_results(entrants=5, rounds=2)
    games = Game.objects.filter(round__competition=played.competition)
    # 5 players: 2 games and a bye per round.
    assert games.count() == 6
    assert games.filter(outcome=Outcome.BYE).count() == 2
    assert not games.filter(outcome=Outcome.PENDING).exists()
    assert Seat.objects.filter(round__competition=played.competition).count() == 10
    for game in games:
        game.full_clean()
