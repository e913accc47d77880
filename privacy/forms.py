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
