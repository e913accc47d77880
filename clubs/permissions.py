"""Who may change what: secretaries their own club's data, staff everything."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from clubs.models import Club, Membership


def can_manage_club(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return Membership.objects.filter(
        club=club, player__user=user, role=Membership.Role.SECRETARY
    ).exists()


def clubs_managed_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Club] | None:
    """The clubs `user` may manage, as a queryset to filter by; None means every club (staff).

    >>> clubs_managed_by(AnonymousUser())
    <QuerySet []>
    """
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return None
    return Club.objects.filter(
        memberships__player__user=user, memberships__role=Membership.Role.SECRETARY
    )
