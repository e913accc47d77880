"""The forms of a duplicate evening: what the spelleider, a player and the secretary type.

Each only checks the shape of what was typed (lengths, whole numbers); whether a draw is in
the bag or a slip fits the board is the engine's to say, through the services.
"""

from typing import cast

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from clubs.inputs import StrictIntegerField, bounded
from duplicate.models import DuplicateCompetition, Presence
from duplicate.rule_fields import CHOICES, DRAW_FIELDS, PRESET_LABELS, SLIP_FIELDS
from duplicate.services.turns import ADD_TIME_MAX
from rules.board import Notation
from rules.errors import RulesError
from rules.referee import DuplicateSettings

#: A rack is 7 tiles (8 in Gouds 8); a little room for spaces typed between them.
TILES_MAX = 20
#: What a slip keeps (`Slip.text`).
SLIP_MAX = 60
SCORE_MAX = 9999


def _claimed() -> StrictIntegerField:
    field = StrictIntegerField(label=_("Score you count"), required=False)
    return bounded(field, minimum=0, maximum=SCORE_MAX)


class DrawForm(forms.Form):
    """Empty: the app draws; otherwise the tiles drawn from the real bag (? = blank), and
    the draws thrown back before them for the minimum (their tiles back in the bag)."""

    tiles = forms.CharField(
        label=_("Tiles drawn from the bag"),
        max_length=TILES_MAX,
        required=False,
        help_text=_("Leave empty to let the app draw. A blank is ?."),
    )

    rejected = forms.CharField(
        label=_("Draws thrown back first"),
        max_length=TILES_MAX * 5,
        required=False,
        help_text=_(
            "Only when a draw had too few vowels or consonants: the tiles of each draw "
            "thrown back, separated by commas."
        ),
    )

    def clean_tiles(self) -> str:
        return "".join(self.cleaned_data["tiles"].split()).upper()


class TopForm(forms.Form):
    play = forms.CharField(label=_("Top"), max_length=40, required=False)


class RedoForm(DrawForm):
    reason = forms.CharField(label=_("Reason"), max_length=200)


class AddTimeForm(forms.Form):
    """Time the spelleider adds to the open turn, and why."""

    seconds = bounded(StrictIntegerField(label=_("Seconds")), minimum=1, maximum=ADD_TIME_MAX)
    reason = forms.CharField(label=_("Reason"), max_length=200)


class AcceptLateForm(forms.Form):
    """A late slip the spelleider accepts, and why."""

    slip = bounded(StrictIntegerField(widget=forms.HiddenInput), minimum=1, maximum=2**31 - 1)
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


class JurySlipForm(SlipForm):
    """A paper slip typed in the jury room: for which player (`players`: (id, label), the
    label with the player's table) and turn."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    turn = forms.TypedChoiceField(label=_("Turn"), coerce=int)

    def __init__(self, *args, players=(), turns=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        chosen = list(players)
        # A callable: Django reads a room's 150 choices when a post is validated, not for
        # every page (the page writes its options itself: views/player_options_html.py);
        # set as a list, they were checked three times a page (4 ms, benchmarks/jury.py).
        cast(forms.ChoiceField, self.fields["player"]).choices = lambda: chosen
        cast(forms.ChoiceField, self.fields["turn"]).choices = [(n, n) for n in turns]
        self.order_fields(["turn", "player", "text", "claimed"])


class ResolveConflictForm(forms.Form):
    """The spelleider's choice for a slip typed twice differently, and why."""

    conflict = bounded(StrictIntegerField(widget=forms.HiddenInput), minimum=1, maximum=2**31 - 1)
    choice = forms.ChoiceField(choices=[("take", "take"), ("keep", "keep")])
    reason = forms.CharField(label=_("Reason"), max_length=200)


class PresenceForm(forms.Form):
    """A participant's presence at an evening (`players`: (id, label)); the last turn only
    when they left, else ignored."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    status = forms.ChoiceField(label=_("Presence"), choices=Presence.Status.choices)
    left_after_turn = bounded(
        StrictIntegerField(label=_("Left after turn"), required=False), minimum=1, maximum=999
    )
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args, players=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # No player chosen until the jury chooses one: the form sent as it came marks no
        # one (tests/test_post_back.py).
        cast(forms.ChoiceField, self.fields["player"]).choices = [("", "—"), *players]

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        if data.get("status") != Presence.Status.LEFT:
            data["left_after_turn"] = None
        elif data.get("left_after_turn") is None and "left_after_turn" not in self.errors:
            self.add_error("left_after_turn", _("Give the last turn the player was there for."))
        return data


class TableForm(forms.Form):
    """The table a participant sits at (empty: none)."""

    participant = forms.TypedChoiceField(coerce=int)
    table = bounded(StrictIntegerField(label=_("Table"), required=False), minimum=1, maximum=999)

    def __init__(self, *args, participants: list, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.TypedChoiceField, self.fields["participant"])
        field.choices = [(p.pk, p.pk) for p in participants]


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
        fields = ["name", "slug", "rules", "start_date", "best_evenings"]
        widgets = {"start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        field_classes = {"best_evenings": StrictIntegerField}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
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


#: The bounds of the whole-number rules, as `rules.referee` checks them.
_RULE_BOUNDS = {
    "slips.turn_seconds": (10, 3600),
    "slips.grace_seconds": (0, 60),
    "slips.penalty_points": (0, 100),
    "slips.free_warnings": (0, 100),
    "slips.warning_penalty_points": (0, 100),
    "slips.solo_bonus": (0, 100),
    "slips.solo_min_players": (1, 10_000),
    "draw.min_vowels": (0, 7),
    "draw.min_consonants": (0, 7),
    "draw.minimum_until_turn": (1, 999),
    "draw.late_min_vowels": (0, 7),
    "draw.late_min_consonants": (0, 7),
    "draw.end_below_tiles": (1, 15),
}


def rule_field_name(key: str) -> str:
    """A rule's key ("slips.turn_seconds") as a form field's name."""
    return key.replace(".", "__")


class DuplicateRulesForm(forms.Form):
    """Every duplicate rule of a competition, started from a preset (`rules.referee`):
    the club changes what it plays differently. Whether the whole set holds together is
    the referee's to say (`DuplicateSettings`), through `clean`."""

    preset = forms.ChoiceField(label=_("Started from"), choices=list(PRESET_LABELS.items()))

    def __init__(self, *args, current: DuplicateSettings, **kwargs) -> None:
        kwargs.setdefault("initial", settings_initial(current))
        super().__init__(*args, **kwargs)
        values = flat_settings(current)
        for key, label, help_text in SLIP_FIELDS + DRAW_FIELDS:
            self.fields[rule_field_name(key)] = _rule_field(key, values[key], label, help_text)
        self.settings: DuplicateSettings | None = None

    def clean(self) -> dict:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        parts: dict[str, dict] = {"draw": {}, "slips": {}}
        for key, _label, _help in SLIP_FIELDS + DRAW_FIELDS:
            part, name = key.split(".")
            parts[part][name] = cleaned[rule_field_name(key)]
        try:
            self.settings = DuplicateSettings.from_dict({"preset": cleaned["preset"], **parts})
        except RulesError as error:
            raise forms.ValidationError(
                _("These rules do not hold together: %(reason)s")
                % {"reason": error.params.get("reason", error.code)}
            ) from None
        return cleaned

    def slip_fields(self) -> list:
        return [self[rule_field_name(key)] for key, _label, _help in SLIP_FIELDS]

    def draw_fields(self) -> list:
        return [self[rule_field_name(key)] for key, _label, _help in DRAW_FIELDS]


def flat_settings(settings: DuplicateSettings) -> dict[str, object]:
    """Every rule by its key ("draw.leftovers"), the preset's name as "preset"."""
    data = settings.to_dict()
    flat: dict[str, object] = {"preset": data["preset"]}
    for part in ("draw", "slips"):
        flat |= {f"{part}.{name}": value for name, value in data[part].items()}
    return flat


def settings_initial(settings: DuplicateSettings) -> dict[str, object]:
    flat = flat_settings(settings)
    return {"preset": flat.pop("preset")} | {rule_field_name(k): v for k, v in flat.items()}


def _rule_field(key: str, value: object, label, help_text) -> forms.Field:
    """The form field of one rule, by what its value is."""
    label = capfirst(label)
    if key in CHOICES:
        return forms.ChoiceField(
            label=label, help_text=help_text, choices=list(CHOICES[key].items())
        )
    if isinstance(value, bool):
        return forms.BooleanField(label=label, help_text=help_text, required=False)
    if key in _RULE_BOUNDS:
        minimum, maximum = _RULE_BOUNDS[key]
        optional = key == "draw.minimum_until_turn"
        field = StrictIntegerField(label=label, help_text=help_text, required=not optional)
        return bounded(field, minimum=minimum, maximum=maximum)
    return forms.CharField(label=label, help_text=help_text, max_length=26)


class EveningRulesForm(forms.Form):
    """Bring an evening under the competition's rules as they are now: its slips judged
    and counted again, for a reason the history keeps."""

    evening = forms.TypedChoiceField(label=_("Evening"), coerce=int)
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args, evenings=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.evenings = {evening.pk: evening for evening in evenings}
        field = cast(forms.TypedChoiceField, self.fields["evening"])
        field.choices = [(e.pk, e.number) for e in evenings]

    def clean_evening(self):
        return self.evenings[self.cleaned_data["evening"]]
