"""Who may change what: secretaries their own club's data, staff everything."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from clubs.models import Club, Membership


def can_manage_club(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return Membership.objects.filter(
        club=club, player__user=user, role=Membership.Role.SECRETARY
    ).exists()
