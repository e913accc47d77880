"""Forms of the invitation pages. They validate input; clubs/accounts.py does the writing."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from clubs.inputs import BIGINT_MAX, StrictIntegerField, bounded


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
