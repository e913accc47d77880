"""The privacy page, and a person's own data: their copy (JSON) and their erasure.

Django: views, thin: the copy is `privacy.export.personal_data`, the erasure
`privacy.erasure.player_erase`.
"""

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.history import HistoryReason
from clubs.models import Club, Player, erased_name
from clubs.permissions import can_manage_club
from clubs.throttle import client_ip, login_keys, throttle_fail, throttle_wait, wait_message
from privacy.erasure import ErasureError, held_by_club, player_erase, player_erase_for_club
from privacy.export import personal_data
from privacy.forms import ErasureForm, MemberErasureForm


def privacy_page(request):
    """What Bordpunt keeps, why, for how long, who sees it, and how to get a copy or have
    it erased."""
    return render(request, "privacy/privacy.html")


def _player_of(user) -> Player | None:
    return Player.objects.filter(user=user).first()


def _my_data_page(request, form: ErasureForm, status: int = 200):
    player = _player_of(request.user)
    context = {
        "form": form,
        "player": player,
        "placeholder": erased_name(player.pk) if player else "",
    }
    return render(request, "privacy/my_data.html", context, status=status)


@login_required
def my_data(request):
    """The person's page: download the copy, or erase the account."""
    return _my_data_page(request, ErasureForm())


@login_required
def my_data_download(request):
    """The copy, as a JSON file to keep."""
    data = personal_data(request.user)
    body = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"bordpunt-{timezone.localdate():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def my_data_erase(request):
    """Erase the account and personal data, confirmed by the password. Wrong passwords
    count against the login throttle of the account (clubs/throttle.py)."""
    form = ErasureForm(request.POST)
    player = _player_of(request.user)
    if player is None:
        messages.error(request, _("This account belongs to no player: ask the site's admin."))
        return redirect("my_data")
    if not form.is_valid():
        return _my_data_page(request, form)
    keys = login_keys(username=request.user.get_username(), address=client_ip(request))
    waiting = throttle_wait(keys)
    if not waiting and not request.user.check_password(form.cleaned_data["password"]):
        form.add_error("password", _("This is not your password."))
        waiting = throttle_fail(keys)
    if waiting:
        form.add_error(None, ValidationError(wait_message(waiting), code="throttled"))
        return _my_data_page(request, form, status=429)
    if form.errors:
        return _my_data_page(request, form)
    try:
        player_erase(player=player, by=request.user, reason_code=HistoryReason.ERASE_OWN_REQUEST)
    except ErasureError as error:
        form.add_error(None, error.message)
        return _my_data_page(request, form)
    logout(request)
    messages.success(
        request, _("Your account and personal data are erased; your results stay, anonymous.")
    )
    return redirect("privacy")


@login_required
def member_erase(request, club: str, player_id: int):
    """The club's secretary erases a member without an account, at the member's request,
    after typing the member's name."""
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    player = get_object_or_404(Player, pk=player_id)
    if not held_by_club(player, club_obj):
        raise Http404("Not a member, nor a person in no club whose data the club holds.")
    form = MemberErasureForm(request.POST or None, expected=player.name)
    if request.method == "POST" and form.is_valid():
        name = player.name
        try:
            player_erase_for_club(club=club_obj, player=player, by=request.user)
        except ErasureError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, _("The personal data of %(name)s are erased.") % {"name": name}
            )
            return redirect("club_players", club=club_obj.slug)
    context = {
        "club": club_obj,
        "player": player,
        "form": form,
        "placeholder": erased_name(player.pk),
    }
    return render(request, "privacy/member_erase.html", context)
