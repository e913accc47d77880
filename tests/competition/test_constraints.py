"""Database constraints of competitions, entrants and rounds."""

import pytest
from django.db import IntegrityError, transaction

from competition.models import Entrant, Round
from tests.factories import (
    AbsenceFactory,
    CompetitionFactory,
    EntrantFactory,
    GroupFactory,
    PlayerFactory,
    RoundFactory,
)

pytestmark = pytest.mark.django_db


def test_entrant_once_per_competition():
    entrant = EntrantFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        EntrantFactory(competition=entrant.competition, player=entrant.player)
    # The same player may enter another competition.
    EntrantFactory(player=entrant.player)
    assert Entrant.objects.filter(player=entrant.player).count() == 2


@pytest.mark.parametrize(
    ("joined", "withdrawn"),
    [(1, 1), (3, 2), (3, 3)],
    ids=["same-round", "before-joining", "late-entrant-same-round"],
)
def test_withdrawal_must_come_after_joining(joined, withdrawn):
    with pytest.raises(IntegrityError), transaction.atomic():
        EntrantFactory(joined_round=joined, withdrawn_from_round=withdrawn)


def test_withdrawal_after_joining_is_accepted():
    entrant = EntrantFactory(joined_round=3, withdrawn_from_round=4)
    assert entrant.is_active_in(3)
    assert not entrant.is_active_in(2)
    assert not entrant.is_active_in(4)


def test_joined_round_is_at_least_one():
    with pytest.raises(IntegrityError), transaction.atomic():
        EntrantFactory(joined_round=0)


def test_round_number_unique_per_competition():
    competition = CompetitionFactory()
    RoundFactory(competition=competition, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(competition=competition, number=1)
    Round.objects.create(competition=CompetitionFactory(), number=1)


def test_round_number_is_positive():
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(competition=CompetitionFactory(), number=0)


def test_competition_slug_unique_per_club():
    competition = CompetitionFactory(slug="zomer")
    with pytest.raises(IntegrityError), transaction.atomic():
        CompetitionFactory(club=competition.club, slug="zomer")
    CompetitionFactory(slug="zomer")  # another club


def test_group_name_unique_per_competition():
    group = GroupFactory(name="A")
    with pytest.raises(IntegrityError), transaction.atomic():
        GroupFactory(competition=group.competition, name="A")


def test_absence_once_per_round():
    absence = AbsenceFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        AbsenceFactory(round=absence.round, player=absence.player)
    AbsenceFactory(round=absence.round, player=PlayerFactory())
