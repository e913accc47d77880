"""Forms of the board screen. Each turns what was clicked or typed into move notation;
the rules engine then decides whether the move is legal."""

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.inputs import (
    INTEGER_MAX,
    SMALLINT_MAX,
    StrictIntegerField,
    bounded,
    validate_plain_text,
)
from games.models import MAX_SEAT
from games.services import MAX_SCORE, MIN_SCORE, SEAT_LETTERS, ResultKind

SQUARE_PATTERN = r"[A-Oa-o](1[0-5]|[1-9])"


class MoveForm(forms.Form):
    """One entry on the scoresheet: a play (start square, direction, letters, or the
    notation typed whole) or one of the other turns."""

    KINDS = [
        ("play", _("play")),
        ("exchange", _("exchange")),
        ("pass", _("pass")),
        ("swap", _("blank swap")),
        ("challenge_removed", _("challenge: word removed")),
        ("challenge_upheld", _("challenge: word valid")),
        ("flagfall", _("flag fall")),
        ("endrack", _("rack at the end")),
    ]

    version = bounded(StrictIntegerField(widget=forms.HiddenInput), minimum=0, maximum=INTEGER_MAX)
    kind = forms.ChoiceField(choices=KINDS, initial="play", widget=forms.HiddenInput)
    notation = forms.CharField(
        label=_("Move"),
        required=False,
        max_length=40,
        help_text=_(
            "e.g. 8H WOORD (across) or H8 WOORD (down); . or (X) for letters on the board; "
            "lowercase for a blank"
        ),
    )
    start = forms.RegexField(
        label=_("Start square"), regex=rf"^{SQUARE_PATTERN}$", required=False, max_length=3
    )
    direction = forms.ChoiceField(
        label=_("Direction"),
        choices=[("across", _("across")), ("down", _("down"))],
        initial="across",
        required=False,
    )
    letters = forms.CharField(label=_("Letters"), required=False, max_length=15)
    tiles = forms.CharField(
        label=_("Tiles"),
        required=False,
        max_length=8,
        help_text=_("Exchange: the tiles, or how many."),
    )
    squares = forms.CharField(label=_("Squares of the blanks"), required=False, max_length=8)
    rack = forms.RegexField(
        label=_("Rack (optional)"), regex=r"^[A-Za-z?]{0,8}$", required=False, max_length=8
    )

    def clean(self) -> dict:
        cleaned = super().clean()
        assert cleaned is not None  # Django's clean() returns cleaned_data
        kind = cleaned.get("kind")
        if kind is not None:
            cleaned["notation_text"] = self._notation(kind, cleaned)
        return cleaned

    def _notation(self, kind: str, data: dict) -> str:
        if kind == "play":
            typed = " ".join((data.get("notation") or "").split())
            if typed:
                return typed
            start, letters = data.get("start"), (data.get("letters") or "").strip()
            if not start or not letters:
                raise forms.ValidationError(
                    _("Click the start square and type the letters, or type the whole move.")
                )
            column, row = start[0].upper(), start[1:]
            position = f"{row}{column}" if data.get("direction") != "down" else f"{column}{row}"
            return f"{position} {letters}"
        if kind == "exchange":
            tiles = (data.get("tiles") or "").strip()
            if not tiles:
                raise forms.ValidationError(_("Give the exchanged tiles, or how many."))
            return f"-{tiles}"
        if kind == "swap":
            squares = (data.get("squares") or "").replace(",", " ").split()
            if not squares:
                raise forms.ValidationError(_("Give the square of each blank to swap."))
            return "swap " + " ".join(squares)
        if kind == "endrack":
            return f"({(data.get('tiles') or '').strip()})"
        return {
            "pass": "-",
            "challenge_removed": "--",
            "challenge_upheld": "(challenge)",
            "flagfall": "(flagfall)",
        }[kind]


class CorrectMoveForm(forms.Form):
    version = bounded(StrictIntegerField(widget=forms.HiddenInput), minimum=0, maximum=INTEGER_MAX)
    number = bounded(StrictIntegerField(widget=forms.HiddenInput), minimum=1, maximum=SMALLINT_MAX)
    notation = forms.CharField(label=_("Move"), max_length=40)
    rack = forms.RegexField(
        label=_("Rack (optional)"), regex=r"^[A-Za-z?]{0,8}$", required=False, max_length=8
    )


class VersionForm(forms.Form):
    version = bounded(StrictIntegerField(widget=forms.HiddenInput), minimum=0, maximum=INTEGER_MAX)


class StarterForm(VersionForm):
    starter = forms.TypedChoiceField(
        choices=[(str(seat), str(seat)) for seat in range(MAX_SEAT + 1)], coerce=int
    )


class GcgUploadForm(VersionForm):
    #: A long game with notes is a few kilobytes; this leaves room for any real file.
    MAX_BYTES = 256 * 1024

    file = forms.FileField(label=_("GCG file"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large (at most %(size)s kB): a GCG file is a few kB."),
                params={"size": self.MAX_BYTES // 1024},
            )
        return upload


def _score_field(label) -> forms.IntegerField:
    field = StrictIntegerField(
        label=label,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "score"}),
    )
    return bounded(field, minimum=MIN_SCORE, maximum=MAX_SCORE)


def zero_zero_error() -> forms.ValidationError:
    """0 – 0 is asked like an implausible score: the results page and a player's form."""
    return forms.ValidationError(
        _("0 – 0: nobody scored. If it is right, tick “score is right” and save again."),
        code="implausible",
    )


class GameResultForm(VersionForm):
    """A game's result as one of its players (or the secretary) enters it.

    One score field per seat, `score_a` to `score_d` in table order, whoever types them. A
    player sees their own box first, "your score", then the others with their names
    (`seat`: the reader's position); the secretary sees every name in table order.
    """

    kind = forms.ChoiceField(label=_("Outcome"), choices=ResultKind.choices, initial="normal")
    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=500,
        validators=[validate_plain_text],
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    confirm = forms.BooleanField(label=_("score is right"), required=False)

    def __init__(self, *args, game=None, seat: int | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.names = [player.name for player in game.players] if game is not None else ["", ""]
        self.seat = seat if isinstance(seat, int) and 0 <= seat < len(self.names) else None
        self.letters = SEAT_LETTERS[: len(self.names)]
        for position, letter in enumerate(self.letters):
            label = self.names[position] or _("Board points")
            if position == self.seat:
                label = _("Your score")
            elif self.seat is not None and len(self.names) == 2:
                label = _("Opponent")
            self.fields[f"score_{letter}"] = _score_field(label)
        cast(forms.ChoiceField, self.fields["kind"]).choices = ResultKind.for_table(
            self.names, self.seat
        )

    def scores(self) -> tuple[int | None, ...]:
        """The cleaned scores in table order."""
        return tuple(self.cleaned_data.get(f"score_{letter}") for letter in self.letters)

    def score_boxes(self) -> list[tuple[forms.BoundField, str]]:
        """The score fields as shown, each with the name beneath its label: the reader's
        own first; for the secretary the table order, the label being the name."""
        order = list(range(len(self.letters)))
        if self.seat is not None:
            order.remove(self.seat)
            order.insert(0, self.seat)
        shown = self.seat is not None
        return [
            (self[f"score_{self.letters[position]}"], self.names[position] if shown else "")
            for position in order
        ]

    def clean(self) -> dict:
        cleaned = super().clean()
        assert cleaned is not None  # Django's clean() returns cleaned_data
        scores = [cleaned.get(f"score_{letter}") for letter in self.letters]
        zero = cleaned.get("kind") in ResultKind.SCORED and all(score == 0 for score in scores)
        if zero and not cleaned.get("confirm"):
            self.add_error("score_a", zero_zero_error())
        return cleaned

    @property
    def needs_confirmation(self) -> bool:
        """Whether the form shows the “score is right” box: it was asked for, or ticked."""
        asked = any(e.code == "implausible" for e in self.errors.as_data().get("score_a", []))
        return self.is_bound and (asked or bool(self.data.get("confirm")))
