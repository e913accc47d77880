"""Clubs and memberships; who may manage a club."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction

from clubs.models import Membership
from clubs.permissions import can_manage_club
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
    secretary_of,
    user_in_club,
)

pytestmark = pytest.mark.django_db


def test_membership_once_per_club():
    membership = MembershipFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        MembershipFactory(club=membership.club, player=membership.player, secretary=True)
    MembershipFactory(player=membership.player)  # member of a second club


def test_player_federation_number_unique_but_optional():
    PlayerFactory(federation_number=None)
    PlayerFactory(federation_number=None)
    PlayerFactory(federation_number="NL123")
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(federation_number="NL123")


def test_can_manage_club():
    club, other = ClubFactory(), ClubFactory()
    secretary = secretary_of(club)
    assert can_manage_club(secretary, club)
    assert not can_manage_club(secretary, other)
    assert not can_manage_club(user_in_club(club), club)
    assert not can_manage_club(UserFactory(), club)
    assert not can_manage_club(AnonymousUser(), club)
    assert can_manage_club(UserFactory(staff=True), club)
    assert can_manage_club(UserFactory(staff=True), other)


def test_secretary_role_is_per_club():
    club, other = ClubFactory(), ClubFactory()
    user = secretary_of(club)
    MembershipFactory(club=other, player=user.player, role=Membership.Role.MEMBER)
    assert can_manage_club(user, club)
    assert not can_manage_club(user, other)
