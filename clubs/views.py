"""Invitations: the secretary's list of members with their accounts, and the pages where
an invited member turns a code or link into an account.

Wrong codes count like wrong passwords (django-axes, per address): after the same number
of tries the pages answer with the lockout page until the cool-off has passed.
"""

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.signals import user_login_failed
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.accounts import (
    AccountError,
    account_create_from_invite,
    code_normalized,
    invited_player,
    player_invite,
)
from clubs.forms import AccountForm, InviteCodeForm, InviteForm
from clubs.models import Club, Membership, Player
from clubs.permissions import can_manage_club

#: The "username" under which django-axes counts wrong invitation codes per address.
THROTTLE_CREDENTIALS = {"username": "uitnodigingscode"}
SESSION_KEY = "invite_code"


def club_players(request, club: str):
    """The club's members, who has an account, and an "invite" button for the others."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    if request.method == "POST":
        form = InviteForm(request.POST)
        if form.is_valid():
            player = get_object_or_404(
                Player, pk=form.cleaned_data["player"], memberships__club=club_obj
            )
            try:
                invitation = player_invite(club=club_obj, player=player, by=request.user)
            except AccountError as error:
                if error.forbidden:
                    raise PermissionDenied from None
                messages.error(request, error.message)
            else:
                link = request.build_absolute_uri(
                    reverse("invite_link", kwargs={"code": invitation.code})
                )
                return render(
                    request,
                    "clubs/invitation.html",
                    {"club": club_obj, "invitation": invitation, "link": link},
                )
        else:
            messages.error(request, _("Choose a member to invite."))
    memberships = Membership.objects.filter(club=club_obj).select_related("player__user")
    return render(
        request,
        "clubs/players.html",
        {"club": club_obj, "memberships": memberships, "now": timezone.now()},
    )


def _locked_out(request) -> bool:
    return AxesProxyHandler.is_locked(request, THROTTLE_CREDENTIALS)


def _wrong_code(request) -> None:
    """Count a wrong code; axes marks the request locked out when it was one too many."""
    user_login_failed.send(sender=__name__, credentials=THROTTLE_CREDENTIALS, request=request)


def _accept(request, text: str):
    """A right code goes on to the account form; a wrong one is counted."""
    code = code_normalized(text)
    if code is not None and invited_player(code) is not None:
        request.session[SESSION_KEY] = code
        return redirect("invite_account")
    _wrong_code(request)
    return None


def invite_code(request):
    """Type the code from the paper invitation."""
    if _locked_out(request):
        return _lockout(request)
    form = InviteCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        accepted = _accept(request, form.cleaned_data["code"])
        if accepted is not None:
            return accepted
        form.add_error("code", _("This code is not valid (mistyped, used already or expired)."))
    return render(request, "clubs/invite_code.html", {"form": form}, status=200)


def invite_link(request, code: str):
    """The link from the invitation: the code is in the address."""
    if _locked_out(request):
        return _lockout(request)
    accepted = _accept(request, code)
    if accepted is not None:
        return accepted
    form = InviteCodeForm()
    return render(
        request,
        "clubs/invite_code.html",
        {"form": form, "link_invalid": True},
        status=404,
    )


def invite_account(request):
    """Choose a username and password; the account is then tied to the invited player."""
    code = request.session.get(SESSION_KEY)
    player = invited_player(code) if isinstance(code, str) and code_normalized(code) else None
    if player is None:
        request.session.pop(SESSION_KEY, None)
        messages.error(request, _("Enter the code of your invitation first."))
        return redirect("invite_code")
    form = AccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_create_from_invite(
                code=code,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except AccountError as error:
            form.add_error(None, error.message)
        else:
            request.session.pop(SESSION_KEY, None)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request, _("Welcome, %(name)s: your account is ready.") % {"name": player.name}
            )
            return redirect("my_games")
    return render(request, "clubs/invite_account.html", {"form": form, "player": player})


def _lockout(request):
    return get_lockout_response(request, None, THROTTLE_CREDENTIALS)
