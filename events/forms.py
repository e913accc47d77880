"""Forms of the event pages. They validate input; `events.services` does the writing.

Django: forms.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from events.divisions import Division
from events.models import Event, Season
from events.services import MAX_PEOPLE, SETTINGS_FIELDS


class EventForm(forms.ModelForm):
    """An event's settings. The season: one of the organiser's own (a federation's)."""

    class Meta:
        model = Event
        fields = SETTINGS_FIELDS
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "entry_closes_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }
        help_texts = {
            "slug": _("The event's address: /<club>/evenement/<short name>/."),
            "season": _("Only a federation's own events count for its seasons."),
            "entry_closes_at": _("Empty: entries stay open."),
        }

    def __init__(self, *args: Any, organiser: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        season = self.fields["season"]
        assert isinstance(season, forms.ModelChoiceField)
        season.queryset = Season.objects.filter(federation=organiser)
        if not organiser.is_federation:
            del self.fields["season"]

    def settings(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.fields}

    def _post_clean(self) -> None:
        """The service checks the model (the short name under the organiser's lock)."""


class PeopleForm(forms.Form):
    """Directors or jury members: usernames or e-mail addresses, one per line."""

    people = forms.CharField(
        label=_("Usernames or e-mail addresses"),
        help_text=_("One per line. The list replaces the one before; empty: nobody."),
        required=False,
        max_length=MAX_PEOPLE * 160,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


GUEST = ""


class EntryForm(forms.Form):
    """Who enters, for which club, in which divisions. The choices are what this visitor
    may offer; the service decides again (`events.services.entry_create`)."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    club = forms.ChoiceField(label=_("Plays for"), required=False)
    divisions = forms.MultipleChoiceField(label=_("Divisions"), widget=forms.CheckboxSelectMultiple)

    def __init__(
        self,
        *args: Any,
        players: list[Player],
        clubs: list[Club],
        divisions: list[Division],
        guests: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.chosen_players = {player.pk: player for player in players}
        self.chosen_clubs = {str(club.pk): club for club in clubs}
        self.chosen_divisions = {division.key: division for division in divisions}
        cast(forms.TypedChoiceField, self.fields["player"]).choices = [
            (player.pk, player.name) for player in players
        ]
        club_choices: list[tuple[str, Any]] = [
            (key, club.name) for key, club in self.chosen_clubs.items()
        ]
        if guests:
            club_choices.append((GUEST, _("as a guest (no club)")))
        cast(forms.ChoiceField, self.fields["club"]).choices = club_choices
        cast(forms.MultipleChoiceField, self.fields["divisions"]).choices = [
            (key, f"{division.name} ({division.kind.label})")
            for key, division in self.chosen_divisions.items()
        ]
        if len(divisions) == 1:
            self.fields["divisions"].initial = [divisions[0].key]

    def entry(self) -> tuple[Player, Club | None, list[Division]]:
        data = self.cleaned_data
        club = self.chosen_clubs.get(data["club"]) if data["club"] != GUEST else None
        return (
            self.chosen_players[data["player"]],
            club,
            [self.chosen_divisions[key] for key in data["divisions"]],
        )


class EntryByNumberForm(forms.Form):
    """A director's entry of any person by federation number; the service finds or makes
    the person and decides (`events.services.entry_create_by_number`)."""

    number = forms.CharField(label=_("Federation number"), max_length=20)
    federation = forms.CharField(
        label=_("Of federation"),
        required=False,
        max_length=10,
        help_text=_("A guest of another federation: its code (such as VLAS). Empty: ours."),
    )
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(
        label=_("Plays for"),
        required=False,
        max_length=120,
        help_text=_("The club's name or federation code; empty: as a guest."),
    )
    divisions = forms.MultipleChoiceField(label=_("Divisions"), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, divisions: list[Division], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.chosen_divisions = {division.key: division for division in divisions}
        cast(forms.MultipleChoiceField, self.fields["divisions"]).choices = [
            (key, f"{division.name} ({division.kind.label})")
            for key, division in self.chosen_divisions.items()
        ]
        if len(divisions) == 1:
            self.fields["divisions"].initial = [divisions[0].key]
        for name in ("number", "federation", "name", "club"):
            self.fields[name].widget.attrs["autocomplete"] = "off"

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "number": data["number"],
            "federation": data["federation"],
            "name": data["name"],
            "club": data["club"],
            "divisions": [self.chosen_divisions[key] for key in data["divisions"]],
        }
