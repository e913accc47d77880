"""The person's choice of kinds."""

from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.kinds import Kind


class SubscriptionsForm(forms.Form):
    kinds = forms.MultipleChoiceField(
        label=_("Mail me"),
        choices=Kind.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
