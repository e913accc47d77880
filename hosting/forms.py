"""The operator's forms: a reason for an action, the short name typed to confirm a removal.

Django: forms.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import ClubStatus

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
