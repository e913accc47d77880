"""The secretary's pages of persons: add a member (a known federation number links the
person), the club's own details of a member, merge two records of one person and undo it.

Django: thin views over persons/services.py.
"""

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player
from clubs.names import name_key
from clubs.permissions import can_manage_club, is_operator
from persons.forms import MemberAddForm, MembershipDetailsForm, MergeForm, UnmergeForm
from persons.models import PersonMerge
from persons.services import (
    PersonsError,
    member_add,
    membership_details_save,
    persons_merge,
    persons_unmerge,
)


def _managed_club(request, club: str) -> Club:
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    return club_obj


@login_required
def member_add_view(request, club: str):
    club_obj = _managed_club(request, club)
    form = MemberAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            membership, linked = member_add(club=club_obj, by=request.user, **form.cleaned_data)
        except PersonsError as error:
            if error.forbidden:
                raise PermissionDenied from None
            form.add_error(None, error.message)
        else:
            name = membership.player.name
            if linked:
                text = _(
                    "%(name)s is a member of the club now; the federation number linked the "
                    "record the person already had, with their results."
                )
            else:
                text = _("%(name)s is a member of the club now.")
            messages.success(request, text % {"name": name})
            return redirect("club_players", club=club_obj.slug)
    return render(request, "persons/member_add.html", {"club": club_obj, "form": form})


@login_required
def membership_view(request, club: str, player_id: int):
    """The club's own details of a member: its secretaries see and change only these."""
    club_obj = _managed_club(request, club)
    membership = get_object_or_404(
        Membership.objects.select_related("player"), club=club_obj, player_id=player_id
    )
    form = MembershipDetailsForm(request.POST or None, instance=membership)
    if request.method == "POST" and form.is_valid():
        try:
            membership_details_save(membership=membership, by=request.user, **form.cleaned_data)
        except PersonsError as error:
            if error.forbidden:
                raise PermissionDenied from None
            form.add_error(None, error.message)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": membership.player.name})
            return redirect("club_players", club=club_obj.slug)
    return render(
        request,
        "persons/membership.html",
        {"club": club_obj, "membership": membership, "form": form},
    )


def _merges_across_clubs(user) -> bool:
    """Staff, the operator and federation officials merge records of different clubs."""
    return (
        user.is_staff
        or is_operator(user)
        or Membership.objects.filter(
            player__user=user, role=Membership.Role.SECRETARY, club__is_federation=True
        ).exists()
    )


def _merge_choices(club: Club, user):
    """The club's members; for who merges across clubs also the records elsewhere whose
    name is a member's (case, spaces and accents aside): the likely second records. At a
    federation's address, every record whose name another record has too."""
    members = Player.objects.filter(memberships__club=club)
    if not _merges_across_clubs(user):
        return members.prefetch_related("clubs")
    names = list(Player.objects.filter(erased_at__isnull=True).values_list("pk", "name").iterator())
    if club.is_federation:
        counted = Counter(name_key(name) for _pk, name in names)
        keys = {key for key, count in counted.items() if count > 1}
    else:
        keys = {name_key(name) for name in members.values_list("name", flat=True)}
    alike = [pk for pk, name in names if name_key(name) in keys]
    return (
        Player.objects.filter(Q(memberships__club=club) | Q(pk__in=alike))
        .distinct()
        .prefetch_related("clubs")
    )


def _merges_of(club: Club):
    """The merges a club's page lists: of its members; at a federation's address, all."""
    if club.is_federation:
        return PersonMerge.objects.all()
    return PersonMerge.objects.filter(
        Q(keep__memberships__club=club) | Q(other__memberships__club=club)
    ).distinct()


@login_required
def merge_view(request, club: str):
    """Merge two records of one person; the merges of the club's members, each undoable."""
    club_obj = _managed_club(request, club)
    form = MergeForm(request.POST or None, players=_merge_choices(club_obj, request.user))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            persons_merge(
                keep=data["keep"], other=data["other"], by=request.user, reason=data["reason"]
            )
        except PersonsError as error:
            if error.forbidden:
                raise PermissionDenied from None
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("%(other)s is merged into %(keep)s.")
                % {"other": data["other"].name, "keep": data["keep"].name},
            )
            return redirect("persons_merge", club=club_obj.slug)
    merges = _merges_of(club_obj).select_related("keep", "other")[:50]
    return render(
        request,
        "persons/merge.html",
        {"club": club_obj, "form": form, "merges": merges, "undo_form": UnmergeForm()},
    )


@login_required
def unmerge_view(request, club: str, merge_id: int):
    """Undo a merge (a POST only)."""
    club_obj = _managed_club(request, club)
    merge = get_object_or_404(_merges_of(club_obj), pk=merge_id)
    if request.method != "POST":
        return redirect("persons_merge", club=club_obj.slug)
    form = UnmergeForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        persons_unmerge(merge=merge, by=request.user, reason=reason)
    except PersonsError as error:
        if error.forbidden:
            raise PermissionDenied from None
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("The merge is undone: %(keep)s and %(other)s are two records again.")
            % {"keep": merge.keep.name, "other": merge.other.name},
        )
    return redirect("persons_merge", club=club_obj.slug)
