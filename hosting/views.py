"""The home page, a club's sign-up and its first steps, and the operator's invitation to sign up.

The sign-up's answer is the same page whatever the address: a new sign-up, an address with
an account (which gets a mail saying so) and a second tab's sign-up read alike, so the page
never tells whether an address has an account. Sign-ups are throttled per address typed
and per visitor's address (clubs/throttle.py).
"""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from clubs.mail import mail_send
from clubs.models import Club, ClubStatus, Membership, ThrottleScope
from clubs.permissions import can_manage_club, is_operator
from clubs.throttle import Key, client_ip, throttle_fail, throttle_wait
from competition.models import Competition, Round
from duplicate.models import DuplicateCompetition
from hosting.forms import ClubSearchForm, InviteSignUpForm, SignUpForm
from hosting.services import (
    SignUpError,
    email_key,
    invited_email,
    signup_confirm,
    signup_invite,
    signup_request,
    signup_waiting,
)

INVITATION_PARAMETER = "uitnodiging"


def home(request):
    """What Bordpunt is, the clubs (active and suspended; never one waiting for approval),
    found by name or town with a plain GET form, and the way to sign a club up."""
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
        {"clubs": clubs, "form": form, "query": query, "suspended": ClubStatus.SUSPENDED},
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


def first_steps(request, club: str):
    """The new club's three first steps, each ticked when done; a club waiting for the
    operator's approval says so."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
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
        {"club": club_obj, "steps": steps, "pending": club_obj.status == ClubStatus.PENDING},
    )


def invite(request):
    """The operator mails an invitation to sign a club up (for BORDPUNT_SIGNUP=invite; it
    works in every mode). Kept as a `SignUpInvitation`."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
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
