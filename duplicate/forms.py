"""The forms of a duplicate evening: what the spelleider, a player and the secretary type.

Each only checks the shape of what was typed (lengths, whole numbers); whether a draw is in
the bag or a slip fits the board is the engine's to say, through the services.
"""

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.inputs import StrictIntegerField, bounded
from duplicate.models import DuplicateCompetition
from rules.board import Notation

#: A rack is 7 tiles (8 in Gouds 8); a little room for spaces typed between them.
TILES_MAX = 20
#: What a slip keeps (`Slip.text`).
SLIP_MAX = 60
SCORE_MAX = 9999


def _claimed() -> StrictIntegerField:
    field = StrictIntegerField(label=_("Score you count"), required=False)
    return bounded(field, minimum=0, maximum=SCORE_MAX)


class DrawForm(forms.Form):
    """Empty: the app draws; otherwise the tiles drawn from the real bag (? = blank)."""

    tiles = forms.CharField(
        label=_("Tiles drawn from the bag"),
        max_length=TILES_MAX,
        required=False,
        help_text=_("Leave empty to let the app draw. A blank is ?."),
    )

    def clean_tiles(self) -> str:
        return "".join(self.cleaned_data["tiles"].split()).upper()


class TopForm(forms.Form):
    play = forms.CharField(label=_("Top"), max_length=40, required=False)


class RedoForm(DrawForm):
    reason = forms.CharField(label=_("Reason"), max_length=200)


#: How a slip is written, in each notation of a club (`Club.slip_notation`).
SLIP_HELP = {
    Notation.ROWS_NUMBERED: _(
        "Coordinates and word: 8H WOORD across, H8 WOORD down (a blank in lowercase)."
    ),
    Notation.ROWS_LETTERED: _(
        "Coordinates and word, the row a letter: H8 WOORD across, 8H WOORD down "
        "(a blank in lowercase)."
    ),
}


class SlipForm(forms.Form):
    """A slip; ``notation``: the club's, which its help shows."""

    text = forms.CharField(label=_("Play"), max_length=SLIP_MAX)
    claimed = _claimed()

    def __init__(self, *args, notation: Notation | str = Notation.ROWS_NUMBERED, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["claimed"] = _claimed()
        self.fields["text"].help_text = SLIP_HELP[Notation(notation)]


class PaperSlipForm(SlipForm):
    """A paper slip typed by the secretary: for which player and turn."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    turn = forms.TypedChoiceField(label=_("Turn"), coerce=int)

    def __init__(self, *args, players=(), turns=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["player"]).choices = [(p.pk, p.name) for p in players]
        cast(forms.ChoiceField, self.fields["turn"]).choices = [(n, n) for n in turns]
        self.order_fields(["player", "turn", "text", "claimed"])


class CorrectSlipForm(SlipForm):
    slip = forms.TypedChoiceField(label=_("Slip"), coerce=int, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args, slips=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["slip"]).choices = [(pk, pk) for pk in slips]


class DuplicateCompetitionForm(forms.ModelForm):
    """A duplicate competition's settings: only what a duplicate competition has."""

    class Meta:
        model = DuplicateCompetition
        fields = ["name", "slug", "rules", "start_date", "think_seconds", "best_evenings"]
        widgets = {"start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        field_classes = {"think_seconds": StrictIntegerField, "best_evenings": StrictIntegerField}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        bounded(self.fields["think_seconds"], minimum=10, maximum=3600)
        bounded(self.fields["best_evenings"], minimum=1, maximum=999)

    def settings(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class ParticipantForm(forms.Form):
    """A player of the club to enter."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, empty_value=None)

    def __init__(self, *args, players: list, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.TypedChoiceField, self.fields["player"])
        # Nobody chosen until the secretary chooses: the form posted as shown enters nobody.
        field.choices = [("", "---------"), *((p.pk, p.name) for p in players)]


class WithdrawForm(forms.Form):
    """Withdraw a participant from an evening on (1–999), or reinstate them."""

    participant = forms.TypedChoiceField(coerce=int)
    from_evening = bounded(
        StrictIntegerField(label=_("Withdrawn from evening"), required=False),
        minimum=1,
        maximum=999,
    )

    def __init__(self, *args, participants: list, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.TypedChoiceField, self.fields["participant"])
        field.choices = [(p.pk, p.pk) for p in participants]
