"""The first run of an installed Bordpunt: on an empty home `bordpunt run` opens this page,
which makes the club, the secretary's account and the first competition, then shows the
club's first steps, logged in.

Only for the browser the command opened: the page answers only the code the command made
for this run (BORDPUNT_SETUP_CODE, in the address it opens), and only while there is no club
at all; a hosted Bordpunt has no code, so the page does not exist there.
"""

import secrets
from datetime import date

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.models import User
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.inputs import validate_plain_text
from clubs.models import Club
from competition.models import Competition
from hosting.forms import NewPasswordForm
from hosting.services import FIRST_RUN_DONE, FirstRunError, club_first_run


class FirstRunForm(NewPasswordForm):
    field_order = [
        "code",
        "club_name",
        "secretary_name",
        "username",
        "password1",
        "password2",
        "rules",
    ]
    code = forms.CharField(widget=forms.HiddenInput)
    club_name = forms.CharField(
        label=gettext_lazy("Club name"), max_length=120, validators=[validate_plain_text]
    )
    secretary_name = forms.CharField(
        label=gettext_lazy("Your name"),
        max_length=120,
        validators=[validate_plain_text],
        help_text=gettext_lazy("You become the club's secretary."),
    )
    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        validators=User._meta.get_field("username").validators,
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
    )
    rules = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        choices=[
            (Competition.Rules.GOUDS_8, Competition.Rules.GOUDS_8.label),
            (Competition.Rules.STANDARD, Competition.Rules.STANDARD.label),
            (Competition.Rules.SBNL, Competition.Rules.SBNL.label),
        ],
        initial=Competition.Rules.GOUDS_8,
        help_text=gettext_lazy("The first competition's rules; each competition can have its own."),
    )

    def account(self, cleaned: dict) -> User:
        return User(
            username=cleaned.get("username", ""), first_name=cleaned.get("secretary_name", "")
        )


def _code_matches(code: str) -> bool:
    expected = settings.FIRST_RUN_CODE
    return bool(expected) and secrets.compare_digest(code.encode(), expected.encode())


def first_run(request):
    """The setup form (GET with the command's code), and the club made from it (POST)."""
    if not settings.FIRST_RUN_CODE:
        raise Http404("Only an installed Bordpunt has a first run.")
    if Club.objects.exists():
        messages.info(request, FIRST_RUN_DONE)
        return redirect("login")
    code = (request.POST if request.method == "POST" else request.GET).get("code", "")
    if not _code_matches(code):
        raise Http404("Not the code of this run.")
    form = FirstRunForm(request.POST or None, initial={"code": code})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made = club_first_run(
                club_name=data["club_name"],
                secretary_name=data["secretary_name"],
                username=data["username"],
                password=data["password1"],
                rules=data["rules"],
                competition_name=_("Club competition %(year)s") % {"year": date.today().year},
            )
        except FirstRunError as error:
            form.add_error(None, str(error))
        else:
            login(request, made.user, backend=settings.AUTHENTICATION_BACKENDS[0])
            messages.success(
                request, _("Welcome to Bordpunt: %(club)s is ready.") % {"club": made.club}
            )
            return redirect("first_steps", club=made.club.slug)
    return render(request, "hosting/first_run.html", {"form": form})
