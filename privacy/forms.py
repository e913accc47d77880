"""The confirmation of an erasure: the person's own password.

Django: a form.
"""

from django import forms
from django.utils.translation import gettext_lazy as _


class ErasureForm(forms.Form):
    """A password, so that a browser left logged in cannot erase its owner."""

    password = forms.CharField(
        label=_("Your password"),
        max_length=4096,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("To confirm that you want to erase your account and your personal data."),
    )


class MemberErasureForm(forms.Form):
    """The secretary types the member's name, so that a slip of the finger erases nobody."""

    name = forms.CharField(label=_("The member's name"), max_length=200)

    def __init__(self, *args, expected: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.expected = expected
        self.fields["name"].help_text = _("Type it as it is written above.")

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if name != self.expected:
            raise forms.ValidationError(_("This is not the member's name."), code="mismatch")
        return name
