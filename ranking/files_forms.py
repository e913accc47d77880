"""The forms of the results files: the federation's upload, and its confirmation.

Django: forms.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.inputs import validate_upload_size
from events.models import Season


class ResultsUploadForm(forms.Form):
    """A results file and the season (of this federation) it counts for."""

    season = forms.ModelChoiceField(
        label=_("Season"),
        queryset=Season.objects.none(),
        help_text=_("The season whose ranking the event counts for; its date must be in it."),
    )
    file = forms.FileField(
        label=_("Results file (.json)"),
        validators=[validate_upload_size],
        help_text=_(
            "The file exported from the event's page on the Bordpunt where it was played. "
            "You see what it holds before anything is saved."
        ),
    )

    def __init__(self, *args, federation, **kwargs):
        super().__init__(*args, **kwargs)
        season = self.fields["season"]
        assert isinstance(season, forms.ModelChoiceField)
        season.queryset = Season.objects.filter(federation=federation)


class ResultsConfirmForm(forms.Form):
    """What the preview showed: the file (by its digest) and the season."""

    digest = forms.CharField(widget=forms.HiddenInput, max_length=64)
    season = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
