"""Who may change what: secretaries their own club's data, staff everything, and the
operator the one club it is acting for."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubStatus, Membership

#: Why a write to a suspended club is refused, wherever it comes in.
CLUB_SUSPENDED = _(
    "This club is suspended by the operator of Bordpunt: everything can be read, "
    "but nothing can be changed."
)


def club_is_read_only(club: Club) -> bool:
    """A suspended club is read-only: the one rule, asked by `hosting.middleware` for every
    write to an address of the club and by `games.policy` for every write of a game."""
    return club.status == ClubStatus.SUSPENDED


def is_operator(user: AbstractBaseUser | AnonymousUser) -> bool:
    """The operator of a hosted Bordpunt: approves, suspends and removes clubs (hosting/).
    A permission, so it is given as Django gives any: to a user or a group."""
    return isinstance(user, User) and user.has_perm("clubs.operate_service")


#: The attribute that says which club an operator is acting for in this request: set by
#: `hosting.middleware.OperatorMiddleware` from the session, after it checked the permission.
ACTING_FOR = "acting_for_club_id"


def acting_for(user: AbstractBaseUser | AnonymousUser) -> int | None:
    """The id of the club the operator is acting for in this request, or None."""
    return getattr(user, ACTING_FOR, None)


def can_manage_club(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    """Kept on the user object, as Django keeps its permissions (`_perm_cache`): a request
    that asks twice (the view, then the service) asks the database once."""
    if not isinstance(user, User):  # signed out: every account is a User (AUTH_USER_MODEL)
        return False
    if user.is_staff or acting_for(user) == club.pk:
        return True
    known: dict[int, bool] = user.__dict__.setdefault("_managed_clubs", {})
    if club.pk not in known:
        known[club.pk] = Membership.objects.filter(
            club=club, player__user=user, role=Membership.Role.SECRETARY
        ).exists()
    return known[club.pk]


def clubs_managed_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Club] | None:
    """The clubs `user` may manage, as a queryset to filter by; None means every club (staff).

    >>> clubs_managed_by(AnonymousUser())
    <QuerySet []>
    """
    if not isinstance(user, User):  # signed out: every account is a User (AUTH_USER_MODEL)
        return Club.objects.none()
    if user.is_staff:
        return None
    secretary = Q(memberships__player__user=user, memberships__role=Membership.Role.SECRETARY)
    acting = acting_for(user)
    return Club.objects.filter(secretary | Q(pk=acting) if acting is not None else secretary)
