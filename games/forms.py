"""Forms of the board screen. Each turns what was clicked or typed into move notation;
the rules engine then decides whether the move is legal."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.inputs import (
    INTEGER_MAX,
    SMALLINT_MAX,
    StrictIntegerField,
    bounded,
    validate_plain_text,
)
from games.services import MAX_SCORE, MIN_SCORE, ResultKind

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
        kind = cleaned.get("kind")
        if kind is not None:
            cleaned["notation_text"] = self._notation(kind, cleaned)
        return cleaned

    def _notation(self, kind: str | None, data: dict) -> str:
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
    starter = forms.ChoiceField(choices=[("a", "a"), ("b", "b")])


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

    The scores are stored in table order (`score_a` is the first player's), whoever types
    them. A player sees their own box first, "your score", then the opponent's with the
    name (`side`: the reader's "a" or "b"); the secretary sees both names in table order.
    """

    score_a = _score_field(_("Board points first player"))
    score_b = _score_field(_("Board points second player"))
    kind = forms.ChoiceField(label=_("Outcome"), choices=ResultKind.choices, initial="normal")
    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=500,
        validators=[validate_plain_text],
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    confirm = forms.BooleanField(label=_("score is right"), required=False)

    def __init__(self, *args, game=None, side: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.side = side if side in ("a", "b") else None
        self.names = {"a": "", "b": ""}
        if game is None:
            return
        self.names = {"a": game.player_a.name, "b": game.player_b.name}
        for which, name in self.names.items():
            self.fields[f"score_{which}"].label = name
        if self.side:
            self.fields[f"score_{self.side}"].label = _("Your score")
            self.fields[f"score_{_other(self.side)}"].label = _("Opponent")
        self.fields["kind"].choices = _kind_choices(self.names, self.side)

    def score_boxes(self) -> list[tuple[forms.BoundField, str]]:
        """The two score fields as shown, each with the name beneath its label: the
        reader's own first; for the secretary the table order, the label being the name."""
        order = ("b", "a") if self.side == "b" else ("a", "b")
        return [(self[f"score_{which}"], self.names[which] if self.side else "") for which in order]

    def clean(self) -> dict:
        cleaned = super().clean()
        zero_zero = cleaned.get("kind") in ResultKind.SCORED and (
            cleaned.get("score_a") == cleaned.get("score_b") == 0
        )
        if zero_zero and not cleaned.get("confirm"):
            self.add_error("score_a", zero_zero_error())
        return cleaned

    @property
    def needs_confirmation(self) -> bool:
        """Whether the form shows the “score is right” box: it was asked for, or ticked."""
        asked = any(e.code == "implausible" for e in self.errors.as_data().get("score_a", []))
        return self.is_bound and (asked or bool(self.data.get("confirm")))


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


def _kind_choices(names: dict[str, str], side: str | None) -> list[tuple[str, str]]:
    """The outcomes with the players' names instead of "first/second player"."""

    def who(which: str) -> str:
        if which == side:
            return _("%(name)s (you)") % {"name": names[which]}
        return names[which]

    labels = {
        ResultKind.FLAG_A: _("flag fell: %(name)s") % {"name": who("a")},
        ResultKind.FLAG_B: _("flag fell: %(name)s") % {"name": who("b")},
        ResultKind.FORFEIT_A: _("forfeit: %(name)s") % {"name": who("a")},
        ResultKind.FORFEIT_B: _("forfeit: %(name)s") % {"name": who("b")},
    }
    return [(value, labels.get(value, label)) for value, label in ResultKind.choices]
