"""Who may merge two records of one person, and undo a merge: staff, the operator, a
federation's official (a secretary of a club that is a federation), or a secretary of a
club both records are members of.

Django: reads only.
"""

from collections.abc import Collection

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

from clubs.models import Membership, Player
from clubs.permissions import acting_for, is_operator


def may_merge(
    user: AbstractBaseUser | AnonymousUser,
    keep: Player,
    other: Player,
    *,
    other_clubs: Collection[int] | None = None,
) -> bool:
    """`other_clubs`: the other record's clubs when they are not its memberships now (an
    undo: the merge moved them to `keep`)."""
    if not isinstance(user, User):  # signed out: every account is a User (AUTH_USER_MODEL)
        return False
    if user.is_staff or is_operator(user):
        return True
    official = Membership.objects.filter(
        player__user=user, role=Membership.Role.SECRETARY, club__is_federation=True
    )
    if official.exists():
        return True
    shared = set(Membership.objects.filter(player=keep).values_list("club_id", flat=True))
    if other_clubs is None:
        other_clubs = Membership.objects.filter(player=other).values_list("club_id", flat=True)
    shared &= set(other_clubs)
    if acting_for(user) in shared:
        return True
    return Membership.objects.filter(
        club_id__in=shared, player__user=user, role=Membership.Role.SECRETARY
    ).exists()
