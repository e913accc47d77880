"""Forms of the invitation pages, of a member's details and of the club's settings. They
validate input; clubs/accounts.py and clubs/services.py do the writing."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from clubs import word_lists
from clubs.inputs import BIGINT_MAX, StrictIntegerField, bounded
from clubs.models import Club, Player


class InviteCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Invitation code"),
        max_length=40,
        help_text=_("8 letters and digits, as on your invitation, e.g. ABCD-EF23."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )


class AccountForm(UserCreationForm):
    """Username and password twice; Django's password validators apply."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class InviteForm(forms.Form):
    """The secretary's button: which member to invite."""

    player = bounded(StrictIntegerField(widget=forms.HiddenInput), minimum=1, maximum=BIGINT_MAX)


#: A federation number is one player's: refused by the form, or by the database when two
#: secretaries save it at the same moment.
FEDERATION_NUMBER_TAKEN = _("Another player has this federation number.")


class PlayerForm(forms.ModelForm):
    """A member's name, federation number and the rating they bring: the start of the
    club's rating list (competition/ratings.py), as the admin sets it."""

    rating = bounded(StrictIntegerField(required=False), minimum=0, maximum=3000)
    rating_deviation = bounded(StrictIntegerField(required=False), minimum=30, maximum=350)

    class Meta:
        model = Player
        fields = ("name", "federation_number", "rating", "rating_deviation")
        error_messages = {"federation_number": {"unique": FEDERATION_NUMBER_TAKEN}}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("rating", "rating_deviation"):  # the model's words, as the admin's
            field = Player._meta.get_field(name)
            assert isinstance(field, models.Field)  # a column of Player, not a relation
            self.fields[name].label = capfirst(field.verbose_name)
            self.fields[name].help_text = field.help_text


class ClubSettingsForm(forms.ModelForm):
    """What the club's secretary sets for the whole club: the notation of the duplicate
    slips, the club's own word list (when there is one to choose: clubs/word_lists.py), how
    long former members' data is kept (privacy/retention.py); the name, short name and
    rating system stay the site admin's."""

    former_member_retention_months = bounded(
        StrictIntegerField(required=False), minimum=0, maximum=1200
    )
    word_list = forms.ChoiceField(required=False)

    class Meta:
        model = Club
        fields = ("slip_notation", "word_list", "former_member_retention_months")
        widgets = {"slip_notation": forms.RadioSelect}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("word_list", "former_member_retention_months"):
            field = Club._meta.get_field(name)
            assert isinstance(field, models.Field)  # a column of Club, not a relation
            self.fields[name].label = capfirst(field.verbose_name)
            self.fields[name].help_text = field.help_text
        current = self.instance.word_list
        #: The club's list, chosen before, whose files are no longer there.
        self.missing_word_list = current if current and not word_lists.exists(current) else ""
        names = word_lists.available()
        if not names and not current:
            del self.fields["word_list"]  # nothing to choose: the shipped lists
            return
        choices: list[tuple[str, str]] = [
            ("", str(_("the list of the rules (shipped with Bordpunt)")))
        ]
        choices += [(name, name) for name in names]
        if self.missing_word_list:
            choices.append((current, str(_("%(name)s (missing)") % {"name": current})))
        choice = self.fields["word_list"]
        assert isinstance(choice, forms.ChoiceField)
        choice.choices = choices


class InviteMailForm(forms.Form):
    """Mail the invitation just made (its code, from the invitation page) to an address."""

    code = forms.CharField(max_length=40, widget=forms.HiddenInput)
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )


class EmailChangeForm(forms.Form):
    """A new address for the account, with the password as proof that it is its owner."""

    email = forms.EmailField(
        label=_("New e-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."), code="wrong")
        return password

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email.lower() == (self.user.email or "").lower():
            raise forms.ValidationError(_("This is your address already."), code="same")
        return email
