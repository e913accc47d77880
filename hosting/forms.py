"""The sign-up form, the home page's search, the operator's invitation form, and the
operator's forms (a reason for an action, the short name typed to confirm a removal). They
validate; hosting/services.py writes.

Django: forms.
"""

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from clubs.inputs import validate_plain_text
from clubs.models import ClubStatus, club_name_taken
from clubs.names import CLUB_NAME_TAKEN


class NewPasswordForm(forms.Form):
    """A new account's password, typed twice and checked by Django's validators against
    the account the form makes (`account`): the sign-up's and the installed first run's.
    Longer than anyone types is refused before it is hashed."""

    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def account(self, cleaned: dict) -> User:
        """The account as it will be: the validators compare the password with it."""
        raise NotImplementedError

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            try:
                password_validation.validate_password(first, self.account(cleaned))
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class SignUpForm(NewPasswordForm):
    field_order = ["club_name", "city", "secretary_name", "email", "password1", "password2"]
    club_name = forms.CharField(
        label=_("Club name"), max_length=120, validators=[validate_plain_text]
    )
    city = forms.CharField(
        label=_("Town"),
        max_length=80,
        required=False,
        validators=[validate_plain_text],
        help_text=_("Where the club meets; visitors find the club by it."),
    )
    secretary_name = forms.CharField(
        label=_("Your name"),
        max_length=120,
        validators=[validate_plain_text],
        help_text=_("You become the club's secretary."),
    )
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        help_text=_("We mail a link to confirm it; you log in with it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    def __init__(self, *args, invited_email: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.invited_email = invited_email
        if invited_email is not None:  # the operator's invitation names the address
            self.fields["email"].disabled = True
            self.fields["email"].initial = invited_email

    def clean_club_name(self) -> str:
        name = self.cleaned_data["club_name"].strip()
        if club_name_taken(name):
            raise forms.ValidationError(CLUB_NAME_TAKEN, code="taken")
        return name

    def account(self, cleaned: dict) -> User:
        email = cleaned.get("email") or ""
        return User(
            username=email.lower(), email=email, first_name=cleaned.get("secretary_name", "")
        )


class ClubSearchForm(forms.Form):
    q = forms.CharField(label=_("Club or town"), max_length=100, required=False)


class InviteSignUpForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address"), max_length=254)


REASON_MAX = 1000


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=REASON_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept in the club's history."),
    )


class RemoveForm(ReasonForm):
    confirm_slug = forms.CharField(
        label=_("The club's short name, to confirm"), max_length=60, required=True
    )


class StatusFilterForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("every status")), *ClubStatus.choices],
    )
