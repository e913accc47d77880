"""Invitations: the secretary's list of members with their accounts and each member's
details, the club's settings, and the pages where an invited member turns a code or link
into an account.

Only a POST tries a code. Wrong codes are throttled with growing waits (clubs/throttle.py)
per invitation link and address, and per address; a right code for another member, or
from another address, is never held up by them.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.accounts import (
    AccountError,
    account_create_from_invite,
    code_normalized,
    email_change_confirm,
    email_change_token,
    email_change_waiting,
    email_in_use,
    invite_mail_record,
    invited_player,
    player_invite,
)
from clubs.forms import (
    FEDERATION_NUMBER_TAKEN,
    AccountForm,
    ClubSettingsForm,
    EmailChangeForm,
    InviteCodeForm,
    InviteForm,
    InviteMailForm,
    PlayerForm,
)
from clubs.mail import mail_send
from clubs.models import Club, Membership, Player, ThrottleScope
from clubs.permissions import can_manage_club
from clubs.services import club_save, player_save
from clubs.throttle import (
    Key,
    client_ip,
    invite_keys,
    mail_wait_message,
    throttle_clear,
    throttle_fail,
    throttle_wait,
    wait_message,
)

SESSION_KEY = "invite_code"


@login_required
def club_players(request, club: str):
    """The club's members, who has an account, and an "invite" button for the others."""
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
                    reverse("invite_link", kwargs={"player": player.pk, "code": invitation.code})
                )
                return render(
                    request,
                    "clubs/invitation.html",
                    {
                        "club": club_obj,
                        "invitation": invitation,
                        "link": link,
                        "mail_configured": settings.MAIL_CONFIGURED,
                    },
                )
        else:
            messages.error(request, _("Choose a member to invite."))
    memberships = Membership.objects.filter(club=club_obj).select_related("player__user")
    return render(
        request,
        "clubs/players.html",
        {"club": club_obj, "memberships": memberships, "now": timezone.now()},
    )


@login_required
def club_player(request, club: str, player_id: int):
    """A member's name, federation number and start rating, for the club's secretary (the
    start rating was the admin's alone); the change goes into the history of each of the
    player's clubs."""
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    player = get_object_or_404(Player, pk=player_id, memberships__club=club_obj)
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        try:
            player_save(form.instance, by=request.user)
        except IntegrityError:  # the same federation number saved at the same moment
            form.add_error("federation_number", FEDERATION_NUMBER_TAKEN)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": form.instance.name})
            return redirect("club_players", club=club_obj.slug)
    return render(request, "clubs/player_form.html", {"club": club_obj, "form": form})


@login_required
def club_settings(request, club: str):
    """The club's settings for its secretary: how the players write a duplicate slip, and
    a note when no mail is set up (the players' notifications are then off). Saved
    through `club_save`, which keeps the change in the club's history."""
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    form = ClubSettingsForm(request.POST or None, instance=club_obj)
    if request.method == "POST" and form.is_valid():
        club_save(form.instance, by=request.user)
        messages.success(request, _("The club's settings are saved."))
        return redirect(club_obj.get_absolute_url())
    return render(
        request,
        "clubs/settings.html",
        {"club": club_obj, "form": form, "mail_configured": settings.MAIL_CONFIGURED},
    )


def _invite_page(request, *, player_id: int | None, prefill: str = ""):
    """The code form. Only a POST tries the code, so a link opened by anything (a preview,
    an `<img>` on another site) counts for nothing; a wrong POST counts against the link's
    player from this address and against the address (clubs/throttle.py)."""
    posted = request.method == "POST"
    # Bound even when the body is empty: a refusal is then said on the form.
    form = InviteCodeForm(request.POST if posted else None, initial={"code": prefill})
    if not posted:
        return render(request, "clubs/invite_code.html", {"form": form})
    keys = invite_keys(player_id=player_id, address=client_ip(request))
    waiting = throttle_wait(keys)
    if not waiting and form.is_valid():
        code = code_normalized(form.cleaned_data["code"])
        if code is not None and invited_player(code) is not None:
            request.session[SESSION_KEY] = code
            throttle_clear(keys[:-1])  # the link's own count; the address's stays
            return redirect("invite_account")
        form.add_error("code", _("This code is not valid (mistyped, used already or expired)."))
        waiting = throttle_fail(keys)
    if waiting:
        form.add_error(None, ValidationError(wait_message(waiting), code="throttled"))
    return render(request, "clubs/invite_code.html", {"form": form}, status=429 if waiting else 200)


def invite_code(request):
    """Type the code from the paper invitation."""
    return _invite_page(request, player_id=None)


def invite_link(request, player: int, code: str):
    """The link from the invitation: it names the player and carries the code, which the
    form shows filled in."""
    return _invite_page(request, player_id=player, prefill=code[:40])


def invite_link_without_player(request, code: str):
    """Links handed out before they named the player: the code alone."""
    return _invite_page(request, player_id=None, prefill=code[:40])


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
            login(request, user, backend="config.security.ThrottledBackend")
            messages.success(
                request, _("Welcome, %(name)s: your account is ready.") % {"name": player.name}
            )
            return redirect("my_games")
    return render(request, "clubs/invite_account.html", {"form": form, "player": player})


def _mail_keys(request, email: str) -> list[Key]:
    """Mails to an address someone types: counted per account (or visitor's address when
    signed out) and per address typed, so neither one person nor one mailbox gets many."""
    sender = str(request.user.pk) if request.user.is_authenticated else ""
    return [
        Key(ThrottleScope.MAIL_SENDER, sender, "" if sender else client_ip(request)[:64]),
        Key(ThrottleScope.MAIL_RECIPIENT, email.strip().lower()[:150], ""),
    ]


def invite_mail(request, club: str, player_id: int):
    """Mail the invitation the page has just shown (its code comes back with the form) to
    the address the secretary types. A POST only."""
    if not request.user.is_authenticated:
        # Not `login_required`: after logging in, back to the members' page (this address
        # takes a POST only, with the code the page had just shown).
        return redirect_to_login(reverse("club_players", kwargs={"club": club}))
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    player = get_object_or_404(Player, pk=player_id, memberships__club=club_obj)
    if request.method != "POST":
        return redirect("club_players", club=club_obj.slug)
    form = InviteMailForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("club_players", club=club_obj.slug)
    email = form.cleaned_data["email"]
    code = code_normalized(form.cleaned_data["code"]) or ""
    keys = _mail_keys(request, email)
    if waiting := throttle_wait(keys):
        messages.error(request, mail_wait_message(waiting))
        return redirect("club_players", club=club_obj.slug)
    try:
        invite_mail_record(club=club_obj, player=player, code=code, email=email, by=request.user)
    except AccountError as error:
        if error.forbidden:
            raise PermissionDenied from None
        messages.error(request, error.message)
        return redirect("club_players", club=club_obj.slug)
    throttle_fail(keys)
    mail_send(
        to=email,
        template="clubs/mail/invitation",
        context={
            "club": club_obj,
            "player": player,
            "code": f"{code[:4]}-{code[4:]}",
            "link": request.build_absolute_uri(
                reverse("invite_link", kwargs={"player": player.pk, "code": code})
            ),
            "address": request.build_absolute_uri(reverse("invite_code")),
        },
    )
    messages.success(
        request,
        _("The invitation for %(name)s is mailed to %(email)s.")
        % {"name": player.name, "email": email},
    )
    return redirect("club_players", club=club_obj.slug)


@login_required
def account(request):
    """The signed-in person's account: its username and address, a new address (confirmed
    from that address before it counts) and the way to a new password."""
    form = EmailChangeForm(request.POST or None, user=request.user)
    status = 200
    if request.method == "POST" and settings.MAIL_CONFIGURED:
        keys = _mail_keys(request, request.POST.get("email", "")[:254])
        waiting = throttle_wait(keys)
        if not waiting:
            throttle_fail(keys)  # every try counts, a wrong password too
            if form.is_valid():
                _mail_email_change(request, form.cleaned_data["email"])
                return redirect("account")
        else:
            form.add_error(None, ValidationError(mail_wait_message(waiting), code="throttled"))
            status = 429
    return render(
        request,
        "clubs/account.html",
        {"form": form, "mail_configured": settings.MAIL_CONFIGURED},
        status=status,
    )


def _mail_email_change(request, email: str) -> None:
    """The link to the new address; an address another account has gets a mail saying so
    instead, and the page says the same either way: it never tells who has an account."""
    if email_in_use(email, other_than=request.user):
        mail_send(
            to=email,
            template="clubs/mail/email_taken",
            context={"login_url": request.build_absolute_uri(reverse("login"))},
        )
    else:
        token = email_change_token(request.user, email)
        mail_send(
            to=email,
            template="clubs/mail/email_change",
            context={
                "username": request.user.get_username(),
                "link": request.build_absolute_uri(
                    reverse("email_change_confirm", kwargs={"token": token})
                ),
            },
        )
    messages.success(
        request,
        _("A link is mailed to %(email)s. Your address changes when you follow it.")
        % {"email": email},
    )


def email_change_confirm_view(request, token: str):
    """The link mailed to the new address: shows the change and a button; only the POST
    changes the address (a mail program that opens the link changes nothing)."""
    try:
        if request.method == "POST":
            email_change_confirm(token)
        else:
            user, new = email_change_waiting(token)
    except AccountError as error:
        return render(request, "clubs/email_change_failed.html", {"message": error.message})
    if request.method != "POST":
        return render(request, "clubs/email_change_confirm.html", {"account": user, "new": new})
    messages.success(request, _("Your e-mail address is changed."))
    return redirect("account" if request.user.is_authenticated else "login")
