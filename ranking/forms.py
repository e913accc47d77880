"""The federation officials' forms: a season's settings, an official version of its ranking.

Django: forms.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from events.models import Season
from events.services import SEASON_FIELDS


class SeasonForm(forms.ModelForm):
    """A season's name, dates and ranking rules (docs/ranking.md says what each does)."""

    reason = forms.CharField(
        label=_("Why (kept in the history)"), max_length=200, required=False, strip=True
    )

    class Meta:
        model = Season
        fields = list(SEASON_FIELDS)
        widgets = {
            "start": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }
        help_texts = {
            "gap_value": _(
                "The average gap between a game's winner and its median player in earlier "
                "seasons, in percent: the winner scores 100, the median player 100 − GV."
            ),
            "min_interclub_share": _("Rounded up; 0: no minimum."),
            "share_from_interclubs": _(
                "The share applies only in a season of at least this many interclubs "
                "(NTSV: 11, more than ten), then in its interim standings too."
            ),
            "club_method": _(
                "By places: the NTSV's. By average: the average of each club's best results."
            ),
            "club_players": _("By places: a club scores in an interclub with this many players."),
            "club_share": _("By places: rounded up, of the interclubs held."),
            "club_missing_points": _("By places: for each of those a club has no score in."),
            "counted_results": _("The average takes each person's best this many; empty: all."),
            "result_months": _("Empty: a result never drops out."),
            "club_results": _("By average: the sum of a club's best this many, divided by it."),
        }

    def __init__(self, *args: Any, with_reason: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not with_reason:
            del self.fields["reason"]

    def settings(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in SEASON_FIELDS}


class PublicationForm(forms.Form):
    """An official version of the ranking: its date, why (a correction), and the latest
    version the official saw (another published meanwhile: refused)."""

    on = forms.DateField(
        label=_("Ranking on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("Empty: today, or the season's last day once it is over."),
    )
    reason = forms.CharField(
        label=_("Why a new version (announced with it)"),
        max_length=500,
        required=False,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    after_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
