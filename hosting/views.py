"""The home page, a club's sign-up and its first steps, and the operator's pages under
/dienst/ (the clubs, their status, acting for one, the invitation to sign up).

The sign-up's answer is the same page whatever the address: a new sign-up, an address with
an account (which gets a mail saying so) and a second tab's sign-up read alike, so the page
never tells whether an address has an account. Sign-ups are throttled per address typed
and per visitor's address (clubs/throttle.py).

The operator's pages are thin: each action is one service of `hosting.services`, its
refusal a message. Only an account with the operator's permission
(`clubs.permissions.is_operator`) comes in; anyone else is refused as the secretary's pages
refuse (login, then 403).

Django: views.
"""

from __future__ import annotations

from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.history import HistoryAction
from clubs.mail import mail_send
from clubs.models import Club, ClubStatus, Membership, ThrottleScope
from clubs.permissions import can_manage_club, is_operator
from clubs.throttle import Key, client_ip, throttle_fail, throttle_wait
from competition.models import Competition, Round
from competition.qr import qr_svg
from duplicate.models import DuplicateCompetition
from hosting import services
from hosting.forms import (
    ClubSearchForm,
    InviteSignUpForm,
    ReasonForm,
    RemoveForm,
    SignUpForm,
    StatusFilterForm,
)
from hosting.front_door import installed_front_door, phone_address
from hosting.middleware import ACTING, operator_page
from hosting.selectors import clubs_for_operator, operator_history
from hosting.services import (
    OperatorError,
    SignUpError,
    email_key,
    invited_email,
    signup_confirm,
    signup_invite,
    signup_request,
    signup_waiting,
)

INVITATION_PARAMETER = "uitnodiging"


def club_room(request):
    """The address to join, in large type and as a QR code, for a screen in the club room:
    the laptop's in the club's network (`bordpunt run --lan`), or hosted the address this
    page was opened at; where phones cannot reach the site, why (hosting/front_door.py). It
    shows nothing else, so anyone may see it."""
    url, unreachable = phone_address(request)
    qr = qr_svg(url, title=_("Scan to open Bordpunt on your phone")) if url else ""
    return render(
        request, "hosting/club_room.html", {"url": url, "qr": qr, "unreachable": unreachable}
    )


def home(request):
    """What Bordpunt is, the clubs (active and suspended; never one waiting for approval),
    found by name or town with a plain GET form, and the way to sign a club up. An installed
    Bordpunt's is its club's page, or the setup (hosting/front_door.py)."""
    if settings.BORDPUNT_INSTALLED:
        front_door = installed_front_door(request)
        if front_door is not None:
            return front_door
    form = ClubSearchForm(request.GET or None)
    clubs = Club.objects.exclude(status=ClubStatus.PENDING)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    if query:
        clubs = clubs.filter(Q(name__icontains=query) | Q(city__icontains=query))
    # A GROUP BY query ignores Meta.ordering: the order is said here.
    clubs = clubs.annotate(competition_count=Count("competitions")).order_by("name")
    return render(
        request,
        "hosting/home.html",
        {
            "clubs": clubs,
            "form": form,
            "query": query,
            "suspended": ClubStatus.SUSPENDED,
            "installed": settings.BORDPUNT_INSTALLED,
        },
    )


def _wait_text(wait_minutes: int) -> str:
    return ngettext(
        "Too many sign-ups. Try again in %(minutes)d minute.",
        "Too many sign-ups. Try again in %(minutes)d minutes.",
        wait_minutes,
    ) % {"minutes": wait_minutes}


def signup(request):
    """The sign-up form (in "invite" mode only with an operator's invitation)."""
    mode = settings.SIGNUP_MODE
    if not settings.MAIL_CONFIGURED:  # the link could not be sent
        return render(request, "hosting/signup_closed.html", {"no_mail": True})
    token = (request.POST if request.method == "POST" else request.GET).get(
        INVITATION_PARAMETER, ""
    )[:1000]  # an invitation token is about 400 characters
    email_of_invitation = invited_email(token) if token else None
    if mode == "invite" and email_of_invitation is None:
        return render(request, "hosting/signup_closed.html", {"bad_invitation": bool(token)})
    form = SignUpForm(request.POST or None, invited_email=email_of_invitation)
    status = 200
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        keys = [
            Key(ThrottleScope.SIGNUP_EMAIL, email_key(email)[:150], ""),
            Key(ThrottleScope.SIGNUP_ADDRESS, "", client_ip(request)[:64]),
        ]
        waiting = throttle_wait(keys)
        if waiting:
            form.add_error(None, ValidationError(_wait_text(waiting), code="throttled"))
            status = 429
        else:
            throttle_fail(keys)  # every sign-up counts, whatever became of it
            _signup_and_mail(request, form.cleaned_data)
            return redirect("signup_sent")
    return render(
        request,
        "hosting/signup.html",
        {"form": form, "mode": mode, "invitation": token if email_of_invitation else ""},
        status=status,
    )


def _signup_and_mail(request, data: dict) -> None:
    requested = signup_request(
        email=data["email"],
        club_name=data["club_name"],
        city=data["city"],
        secretary_name=data["secretary_name"],
        password=data["password1"],
        language=get_language() or "",
    )
    if requested.has_account:
        mail_send(
            to=data["email"],
            template="hosting/mail/has_account",
            context={
                "login_url": request.build_absolute_uri(reverse("login")),
                "reset_url": request.build_absolute_uri(reverse("password_reset"))
                if settings.MAIL_CONFIGURED
                else "",
            },
        )
    elif requested.signup is not None:
        mail_send(
            to=requested.signup.email,
            template="hosting/mail/confirm",
            context={
                "signup": requested.signup,
                "link": request.build_absolute_uri(
                    reverse("signup_confirm", kwargs={"token": requested.token})
                ),
                "hours": settings.SIGNUP_LINK_HOURS,
            },
        )


def signup_sent(request):
    """The same answer for every sign-up: look in the mailbox."""
    return render(request, "hosting/signup_sent.html", {"hours": settings.SIGNUP_LINK_HOURS})


def signup_confirm_view(request, token: str):
    """The mailed link shows the sign-up and a button: only the POST confirms, so a mail
    program that opens the link to look at it uses nothing up."""
    try:
        if request.method == "POST":
            confirmed = signup_confirm(token)
        else:
            waiting = signup_waiting(token)
    except SignUpError as error:
        return render(request, "hosting/signup_failed.html", {"message": error.message})
    if request.method != "POST":
        return render(request, "hosting/signup_confirm.html", {"signup": waiting})
    login(request, confirmed.user, backend="config.security.ThrottledBackend")
    messages.success(
        request, _("Welcome to Bordpunt: %(club)s is ready.") % {"club": confirmed.club}
    )
    return redirect("first_steps", club=confirmed.club.slug)


@login_required
def first_steps(request, club: str):
    """The new club's three first steps, each ticked when done; a club waiting for the
    operator's approval says so."""
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    competition = Competition.objects.filter(club=club_obj).order_by("pk").first()
    if competition is not None:
        competition.club = club_obj  # its links name the club: no query for it
    has_duplicate = DuplicateCompetition.objects.filter(club=club_obj).exists()
    members = Membership.objects.filter(club=club_obj).count()
    has_round = Round.objects.filter(competition__club=club_obj).exists()
    steps = [
        {
            "id": "competition",
            "title": _("Make the first competition"),
            "text": _("Its name, the rules and how players are paired."),
            "done": competition is not None or has_duplicate,
            "url": reverse("competition_create", kwargs={"club": club_obj.slug}),
        },
        {
            "id": "players",
            "title": _("Enter the players"),
            "text": _("Type the members' names; invite them to make an account if you like."),
            "done": members > 1,
            "url": reverse("entrants", kwargs=competition.url_kwargs)
            if competition
            else reverse("club_players", kwargs={"club": club_obj.slug}),
        },
        {
            "id": "round",
            "title": _("Make the first round"),
            "text": _("Who is present, then the pairing for the evening."),
            "done": has_round,
            "url": reverse("round_create", kwargs=competition.url_kwargs) if competition else "",
        },
    ]
    return render(
        request,
        "hosting/first_steps.html",
        {
            "club": club_obj,
            "steps": steps,
            "pending": club_obj.status == ClubStatus.PENDING,
            "installed": settings.BORDPUNT_INSTALLED,
        },
    )


@login_required
def invite(request):
    """The operator mails an invitation to sign a club up (for BORDPUNT_SIGNUP=invite; it
    works in every mode). Kept as a `SignUpInvitation`."""
    if not is_operator(request.user):
        raise PermissionDenied
    form = InviteSignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        token = signup_invite(email=email, by=request.user)
        link = request.build_absolute_uri(
            f"{reverse('signup')}?{urlencode({INVITATION_PARAMETER: token})}"
        )
        mail_send(
            to=email,
            template="hosting/mail/invitation",
            context={"link": link, "days": settings.SIGNUP_INVITATION_DAYS},
        )
        messages.success(request, _("The invitation is mailed to %(email)s.") % {"email": email})
        return redirect("signup_invite")
    return render(
        request,
        "hosting/invite.html",
        {"form": form, "mail_configured": settings.MAIL_CONFIGURED},
    )


def operator_required(view):
    """The operator's alone: a visitor is sent to log in, anyone else refused (403)."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_operator(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return operator_page(wrapper)


def _reason_error(form) -> str:
    """What is wrong with the typed reason (too long, a null character), as Django says it."""
    return form.errors["reason"][0]


@operator_required
def club_list(request):
    """Every club with its status, town, creation, members, competitions, last activity."""
    form = StatusFilterForm(request.GET or None)
    status = form.cleaned_data["status"] if form.is_valid() else None
    return render(
        request,
        "hosting/clubs.html",
        {"clubs": clubs_for_operator(status or None), "form": form, "status": status},
    )


@operator_required
def club_page(request, club: str):
    """One club: its status, its archive, and the operator's actions."""
    club_obj = get_object_or_404(Club, slug=club)
    return render(
        request,
        "hosting/club.html",
        {
            "club": club_obj,
            "ClubStatus": ClubStatus,
            "last_change": services.last_change_at(club_obj),
            "removal_refusal": services.removal_refusal(club_obj),
            # One form per action, each with its own ids on the one page.
            "forms": {
                name: ReasonForm(auto_id=f"id_{name}_%s")
                for name in ("approve", "suspend", "reactivate", "act")
            },
            "remove_form": RemoveForm(auto_id="id_remove_%s"),
            "history": club_obj.history.filter(action__startswith="operator.").select_related("by")[
                :20
            ],
            "acting": getattr(request, "acting_club", None),
        },
    )


@operator_required
def history_page(request):
    """The operator's actions, those on removed clubs included."""
    return render(request, "hosting/history.html", {"entries": operator_history()})


def _status_action(action: HistoryAction, done):
    @operator_required
    @require_POST
    def view(request, club: str):
        club_obj = get_object_or_404(Club, slug=club)
        form = ReasonForm(request.POST)
        if not form.is_valid():
            messages.error(request, _reason_error(form))
            return redirect("operator_club", club=club_obj.slug)
        try:
            services.club_set_status(
                club=club_obj, action=action, by=request.user, reason=form.cleaned_data["reason"]
            )
        except OperatorError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, done % {"club": club_obj.name})
        return redirect("operator_club", club=club_obj.slug)

    return view


club_approve = _status_action(HistoryAction.OPERATOR_APPROVE, gettext_lazy("%(club)s is approved."))
club_suspend = _status_action(
    HistoryAction.OPERATOR_SUSPEND, gettext_lazy("%(club)s is suspended.")
)
club_reactivate = _status_action(
    HistoryAction.OPERATOR_REACTIVATE, gettext_lazy("%(club)s is active again.")
)


@operator_required
@require_POST
def club_remove(request, club: str):
    club_obj = get_object_or_404(Club, slug=club)
    form = RemoveForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _reason_error(form)
            if "reason" in form.errors
            else _("Type the club's short name to confirm the removal."),
        )
        return redirect("operator_club", club=club_obj.slug)
    try:
        removal = services.club_remove(
            club=club_obj,
            by=request.user,
            reason=form.cleaned_data["reason"],
            confirm_slug=form.cleaned_data["confirm_slug"],
        )
    except OperatorError as error:
        messages.error(request, error.message)
        return redirect("operator_club", club=club_obj.slug)
    if (getattr(request, "acting_club", None) or {}).get("id") == club_obj.pk:
        del request.session[ACTING]
    messages.success(request, _("%(club)s is removed.") % {"club": removal.name})
    return redirect("operator_clubs")


@operator_required
@require_POST
def act_start(request, club: str):
    """Start acting for the club: recorded, kept in the session, shown on every page."""
    club_obj = get_object_or_404(Club, slug=club)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _reason_error(form))
        return redirect("operator_club", club=club_obj.slug)
    reason = form.cleaned_data["reason"]
    acting = getattr(request, "acting_club", None)
    try:
        if acting is not None and acting["id"] != club_obj.pk:
            services.acting_stop(club_id=acting["id"], by=request.user)
        if acting is None or acting["id"] != club_obj.pk:
            services.acting_start(club=club_obj, by=request.user, reason=reason)
    except OperatorError as error:
        messages.error(request, error.message)
        return redirect("operator_club", club=club_obj.slug)
    request.session[ACTING] = {"id": club_obj.pk, "slug": club_obj.slug, "name": club_obj.name}
    messages.info(request, _("You are acting for %(club)s.") % {"club": club_obj.name})
    return redirect(club_obj.get_absolute_url())


@operator_required
@require_POST
def act_stop(request):
    """Stop acting for the club (recorded); back to the club on the operator's pages."""
    acting = request.session.pop(ACTING, None)
    if acting is None:
        return redirect("operator_clubs")
    services.acting_stop(club_id=acting["id"], by=request.user)
    messages.info(request, _("You no longer act for %(club)s.") % {"club": acting["name"]})
    if Club.objects.filter(pk=acting["id"]).exists():
        return redirect("operator_club", club=acting["slug"])
    return redirect("operator_clubs")
