"""Forms of the secretary's pages. They validate input; the services do the writing.

Django: forms.
"""

import hashlib
from collections.abc import Sequence
from datetime import date, datetime, time
from typing import Any, cast

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.inputs import (
    BIGINT_MAX,
    INTEGER_MAX,
    SMALLINT_MAX,
    StrictIntegerField,
    bounded,
    validate_plain_text,
    validate_upload_size,
)
from clubs.models import Player
from clubs.slugs import competition_slug_taken
from competition.core.results_csv import MAX_FILE_BYTES
from competition.models import TIEBREAK_CHOICES, Competition, Entrant, Group, TableSize
from competition.rulesets import custom_rules_error
from competition.selectors import current_round_number
from competition.services.competitions import SETTINGS_FIELDS
from competition.services.importing import UNDECIDED, NameQuestion
from games.forms import zero_zero_error
from games.models import Game
from games.services import (
    MAX_SCORE,
    MIN_SCORE,
    NO_SCORES_OR_ALL,
    SEAT_LETTERS,
    ResultError,
    ResultInput,
    ResultKind,
    played_without,
    result_fields,
    result_kind_of,
    result_of,
)

TIEBREAK_SLOTS = len(TIEBREAK_CHOICES)

# Board points of one player in one game: the results service's own range, so the form
# and the service never disagree about a score.
SCORE_MIN, SCORE_MAX = MIN_SCORE, MAX_SCORE
MAX_ROUNDS = 1_000

# The ranges of a competition's numbers.
COMPETITION_LIMITS = {
    "number_of_rounds": (1, MAX_ROUNDS),
    "bye_match_points": (0, 10),
    "bye_board_points_fixed": (0, SCORE_MAX),
    "forfeit_win_match_points": (0, 10),
    "forfeit_win_board_points": (0, SCORE_MAX),
    "min_games": (0, MAX_ROUNDS),
    "clock_minutes": (1, 180),
}


def score_field(label) -> forms.IntegerField:
    """Board points in ASCII digits. A text input, not type=number: a browser blanks what a
    number input cannot read ("25e"), and the user would not know what was refused."""
    field = StrictIntegerField(
        label=label,
        required=False,
        error_messages={
            "invalid": _("Type the digits 0 to 9 only (a minus sign before a negative score).")
        },
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "class": "form-control score"}
        ),
    )
    bounded(field, minimum=SCORE_MIN, maximum=SCORE_MAX)
    del field.widget.attrs["min"], field.widget.attrs["max"]
    return field


def hidden_number(maximum: int) -> forms.IntegerField:
    return bounded(StrictIntegerField(widget=forms.HiddenInput), minimum=0, maximum=maximum)


class RulesJSONField(forms.JSONField):
    """JSON that Python's parser cannot take (nested too deep) is invalid, not a crash."""

    def to_python(self, value):
        try:
            return super().to_python(value)
        except RecursionError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None

    def bound_data(self, data, initial):
        try:
            return super().bound_data(data, initial)
        except RecursionError:
            return forms.fields.InvalidJSONInput(data)

    def has_changed(self, initial, data) -> bool:
        try:
            return super().has_changed(initial, data)
        except RecursionError:
            return True


class DateInput(forms.DateInput):
    """`<input type="date">`: the browser reads only ISO dates (2026-06-13), whatever the
    reader's language; a localised "13-06-2026" shows an empty field and saves a blank."""

    input_type = "date"

    def __init__(self, attrs=None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class EveningDatesField(forms.Field):
    """The planned evenings, typed one a line (or separated by commas or spaces), as
    2026-09-14 or 14-09-2026; cleaned to the sorted ISO dates the model stores."""

    widget = forms.Textarea(attrs={"rows": 4})

    def __init__(self, *, encoder=None, decoder=None, **kwargs) -> None:
        super().__init__(**kwargs)  # the model's JSONField offers its encoder: not needed

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(value)
        return value

    def to_python(self, value) -> list[str]:
        if isinstance(value, list):  # the initial value, as stored
            return value
        days = set()
        for word in (value or "").replace(",", " ").split():
            try:
                days.add(parse_day(word))
            except ValueError:
                raise forms.ValidationError(
                    _("%(word)s is not a date (2026-09-14 or 14-09-2026).") % {"word": word[:20]},
                    code="invalid",
                ) from None
        return [day.isoformat() for day in sorted(days)]

    def has_changed(self, initial, data) -> bool:
        try:
            return self.to_python(data) != (initial or [])
        except forms.ValidationError:
            return True


def parse_day(word: str) -> date:
    """2026-09-14 or 14-09-2026 (as Dutch readers write it), strictly."""
    try:
        return (
            date.fromisoformat(word)
            if word[4:5] == "-"
            else datetime.strptime(word, "%d-%m-%Y").date()
        )
    except ValueError:
        raise ValueError(word) from None


#: Settings that keep their value when a form leaves them out (one saved before they existed).
KEPT_WHEN_LEFT_OUT = ("table_size", "table_scoring", "evening_start", "evening_end")


class CompetitionForm(forms.ModelForm):
    """A competition's settings; the tiebreak order is chosen slot by slot."""

    class Meta:
        model = Competition
        fields = [name for name in SETTINGS_FIELDS if name != "tiebreaks"]
        widgets = {
            "start_date": DateInput(),
            "evening_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "evening_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }
        field_classes = {
            "custom_rules": RulesJSONField,
            "evening_dates": EveningDatesField,
            **dict.fromkeys(COMPETITION_LIMITS, StrictIntegerField),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        current = list(self.instance.tiebreaks or []) if self.instance.pk else ["spread"]
        for slot in range(TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{slot + 1}"] = forms.ChoiceField(
                label=_("Tiebreak %(number)s") % {"number": slot + 1},
                choices=[("", "—"), *TIEBREAK_CHOICES],
                required=False,
                initial=current[slot] if slot < len(current) else "",
            )
        for name, (minimum, maximum) in COMPETITION_LIMITS.items():
            bounded(self.fields[name], minimum=minimum, maximum=maximum)
        for name in KEPT_WHEN_LEFT_OUT:
            self.fields[name].required = False

    def _kept(self, name: str) -> Any:
        return self.cleaned_data.get(name) or getattr(self.instance, name)

    def clean_table_size(self) -> str:
        return self._kept("table_size")

    def clean_table_scoring(self) -> str:
        return self._kept("table_scoring")

    def clean_evening_start(self) -> time:
        return self._kept("evening_start")

    def clean_evening_end(self) -> time:
        return self._kept("evening_end")

    def clean_slug(self) -> str:
        """The short name is the competition's address within its club: unique there."""
        slug = self.cleaned_data["slug"]
        if competition_slug_taken(self.instance.club_id, slug, own=self.instance):
            raise forms.ValidationError(
                _("The club already has a competition with this short name."), code="unique"
            )
        return slug

    def clean(self) -> dict:
        cleaned = super().clean()
        assert cleaned is not None  # Django's clean() returns cleaned_data
        chosen = [cleaned.get(f"tiebreak_{slot + 1}") for slot in range(TIEBREAK_SLOTS)]
        chosen = [name for name in chosen if name]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError(_("Each tiebreak can be chosen only once."))
        cleaned["tiebreaks"] = chosen
        if cleaned.get("rules") == Competition.Rules.CUSTOM:
            error = custom_rules_error(cleaned.get("custom_rules") or {})
            if error:
                self.add_error("custom_rules", error)
        if cleaned.get("kind") == Competition.Kind.TOURNAMENT and not cleaned.get(
            "number_of_rounds"
        ):
            self.add_error("number_of_rounds", _("A tournament has a fixed number of rounds."))
        return cleaned

    def settings(self) -> dict:
        """The chosen settings, for `competition_create` and `competition_update`."""
        return {name: self.cleaned_data[name] for name in SETTINGS_FIELDS}


class ArchiveForm(forms.Form):
    confirm = forms.BooleanField(
        label=_(
            "Archive this competition: it stays readable, but nothing can be changed any more."
        ),
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class EntrantGroupForm(forms.Form):
    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none(), widget=forms.HiddenInput)
    group = forms.ModelChoiceField(label=_("Group"), queryset=Group.objects.none(), required=False)

    def __init__(self, *args, competition: Competition, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(
            forms.ModelChoiceField, self.fields["entrant"]
        ).queryset = competition.entrants.select_related("player")
        cast(forms.ModelChoiceField, self.fields["group"]).queryset = competition.groups.all()


class EntrantAddForm(forms.Form):
    player = forms.ModelChoiceField(
        label=_("Club member"), queryset=Player.objects.none(), required=False
    )
    new_player_name = forms.CharField(
        label=_("or a new player"),
        max_length=120,
        required=False,
        validators=[validate_plain_text],
    )
    joined_round = bounded(
        StrictIntegerField(label=_("Plays from round"), initial=1), minimum=1, maximum=MAX_ROUNDS
    )
    group = forms.ModelChoiceField(label=_("Group"), queryset=Group.objects.none(), required=False)

    def __init__(self, *args, competition: Competition, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A division of an event takes the event's entrants, of any club (docs/events.md).
        offered = (
            Player.objects.filter(memberships__club=competition.club_id)
            if competition.event_id is None
            else Player.objects.filter(event_entries__event=competition.event_id)
        )
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = offered.exclude(
            entries__competition=competition
        )
        cast(forms.ModelChoiceField, self.fields["group"]).queryset = competition.groups.all()
        if not competition.groups.exists():
            del self.fields["group"]
        self.fields["joined_round"].initial = current_round_number(competition)

    def clean(self) -> dict:
        cleaned = super().clean()
        assert cleaned is not None  # Django's clean() returns cleaned_data
        if not cleaned.get("player") and not cleaned.get("new_player_name", "").strip():
            raise forms.ValidationError(_("Choose a club member or type a new player's name."))
        return cleaned


class WithdrawForm(forms.Form):
    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none(), widget=forms.HiddenInput)
    from_round = bounded(
        StrictIntegerField(label=_("Withdrawn from round")), minimum=2, maximum=MAX_ROUNDS
    )

    def __init__(self, *args, competition: Competition, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["entrant"]).queryset = competition.entrants.all()


def shown_token(values: dict, seats: int = 2) -> str:
    """A row's outcome and scores as one short string, for the page's `shown` field (a
    pair's as before tables: "normal:412:388")."""
    return ":".join(
        "" if values.get(name) is None else str(values[name])
        for name in ("kind", *score_names(seats))
    )


def score_names(seats: int) -> tuple[str, ...]:
    """The score fields of a table of `seats` players: `score_a` to `score_d`."""
    return tuple(f"score_{letter}" for letter in SEAT_LETTERS[: max(seats, 2)])


class ResultRowForm(forms.Form):
    """One table of the round's results page.

    Knows its game, so that what it refuses is said at the right field, in words that name
    the player: a score that is not a plain number, a missing score, scores on a forfeit, a
    correction without a reason, and a score that needs a confirmation (negative, or above
    what the rule set plausibly gives: `competition.rulesets.plausible_score_max`).
    """

    game = hidden_number(BIGINT_MAX)
    version = hidden_number(INTEGER_MAX)
    # The result as the page showed it (`shown_token`): a row typed over is one the
    # secretary means to save, even when the game changed under the page in the meantime.
    shown = forms.CharField(widget=forms.HiddenInput, required=False, max_length=80)
    score_a = score_field(_("Board points first player"))
    score_b = score_field(_("Board points second player"))
    score_c = score_field(_("Board points third player"))
    score_d = score_field(_("Board points fourth player"))
    kind = forms.ChoiceField(
        label=_("Outcome"),
        choices=ResultKind.choices,
        initial=ResultKind.NORMAL,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=500,
        validators=[validate_plain_text],
        widget=forms.TextInput(
            attrs={"class": "form-control form-control-sm", "placeholder": _("reason")}
        ),
    )
    # The scores the user confirmed, as `confirmation_token` wrote them: a confirmation is
    # for those scores only, not for whatever is typed next.
    confirm = forms.CharField(label=_("score is right"), required=False, max_length=80)

    # The order in which the page's fields are visited: the first marked one gets the focus.
    FOCUS_ORDER = ("score_a", "score_b", "score_c", "score_d", "confirm", "kind", "reason")

    def __init__(
        self, *args, game: Game | None = None, score_max: int = SCORE_MAX, rules_name="", **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game_obj = game
        self.score_max = score_max
        self.rules_name = rules_name
        seats = len(game.seat_list) if game is not None else 2
        #: The row's score fields in table order: a pair keeps `score_a` and `score_b` only.
        self.score_names = score_names(seats)
        for name in score_names(4)[len(self.score_names) :]:
            del self.fields[name]
        if game is not None:
            names = [player.name for player in game.players]
            for field, name in zip(self.score_names, names, strict=False):
                self.fields[field].label = _("Board points of %(name)s") % {"name": name}
            if len(names) >= 2:
                cast(forms.ChoiceField, self.fields["kind"]).choices = ResultKind.for_table(names)

    @staticmethod
    def initial_for(game: Game) -> dict:
        seats = len(game.seat_list)
        scores = (*game.scores, None, None)
        shown = {
            **{name: scores[index] for index, name in enumerate(score_names(seats))},
            "kind": result_kind_of(game) or ResultKind.NORMAL,
        }
        return {
            "game": game.pk,
            "version": game.version,
            "shown": shown_token(shown, seats),
            **shown,
        }

    @property
    def typed_over(self) -> bool:
        """Whether the row's result differs from what the page showed (valid forms only)."""
        token = shown_token(self.cleaned_data, len(self.score_names))
        return token != self.cleaned_data.get("shown", "")

    def scores(self) -> tuple[int | None, ...]:
        """The cleaned scores in table order."""
        return tuple(self.cleaned_data.get(name) for name in self.score_names)

    def seat_fields(self) -> list[forms.BoundField]:
        """The score fields in table order, each with its player's name (`player_name`)."""
        players = self.game_obj.players if self.game_obj is not None else []
        fields = []
        for name, player in zip(self.score_names, players, strict=False):
            field = self[name]
            field.player_name = player.name  # type: ignore[attr-defined]  # for the template
            fields.append(field)
        return fields

    def clean(self) -> dict:
        cleaned = super().clean()
        assert cleaned is not None  # Django's clean() returns cleaned_data
        if not self.errors and not self.typed_over:
            # Left as the page showed it: nothing typed to check, and nothing is saved
            # (`_entry_from`). The game may have changed since (another device, its
            # table): a score it no longer holds must not ask for a confirmation and so
            # hold back the rows that were typed.
            return cleaned
        kind = cleaned.get("kind")
        scores = {side: cleaned.get(side) for side in self.score_names}
        valid = {side: side not in self.errors for side in scores}
        if kind in ResultKind.SCORED:
            typed = [side for side, score in scores.items() if score is not None]
            if 0 < len(typed) < len(scores) or (not typed and kind != ResultKind.NORMAL):
                missing = (
                    _("Enter the board points of both players.")
                    if len(scores) == 2
                    else _("Enter the board points of every player.")
                )
                for side in scores:
                    if scores[side] is None and valid[side]:
                        self.add_error(side, missing)
            self._check_plausible(scores)
        elif kind and played_without(kind, list(scores.values())):
            # At a table of 3 or 4 two or more played without who did not come.
            absent = ResultKind.MEANING[kind][1]
            for seat, side in enumerate(scores):
                if seat in absent and scores[side] is not None:
                    self.add_error(
                        side, _("This player did not come; leave the board points empty.")
                    )
                elif seat not in absent and scores[side] is None and valid[side]:
                    self.add_error(side, NO_SCORES_OR_ALL)
            self._check_plausible(
                {
                    side: score
                    for seat, (side, score) in enumerate(scores.items())
                    if seat not in absent
                }
            )
        elif kind:
            for side, score in scores.items():
                if score is not None:
                    self.add_error(
                        side,
                        _("A forfeited or annulled game has no board points; leave them empty."),
                    )
        if not self.errors and self._is_correction(cleaned) and not cleaned.get("reason"):
            self.add_error(
                "reason", _("This game already has a result: give a reason for the correction.")
            )
        return cleaned

    def _check_plausible(self, scores: dict) -> None:
        """Ask before saving 0 – 0 or a score outside the usual range (`scores`: the
        fields of the players who played, by name)."""
        if any(score is None for score in scores.values()) or self.errors:
            return
        if self.cleaned_data.get("confirm") == self.confirmation_token:
            return
        game = self.game_obj
        if game is not None and game.scores == self.scores():
            return  # confirmed when it was saved
        if all(score == 0 for score in scores.values()):
            # Nobody scored: far more often two empty boxes typed as zeros than a game.
            self.add_error(next(iter(scores)), zero_zero_error())
            return
        for side, score in scores.items():
            if score < 0:
                message = _(
                    "%(score)s is a negative score. If it is right, tick “score is right” and "
                    "save again."
                )
            elif score > self.score_max:
                message = _(
                    "%(score)s is higher than usual for %(rules)s (up to %(max)s). If it is "
                    "right, tick “score is right” and save again."
                )
            else:
                continue
            self.add_error(
                side,
                forms.ValidationError(
                    message,
                    code="implausible",
                    params={"score": score, "rules": self.rules_name, "max": self.score_max},
                ),
            )

    def _is_correction(self, cleaned: dict) -> bool:
        """A change of a result the game already has (which needs a reason)."""
        game = self.game_obj
        if game is None or not game.has_result or not cleaned.get("kind"):
            return False
        if cleaned.get("version") != game.version:
            return False  # a stale page: the service says so
        scores = tuple(cleaned.get(name) for name in self.score_names)
        emptied = all(score is None for score in scores)
        if emptied and cleaned["kind"] in ResultKind.SCORED:
            return False  # an emptied row records nothing
        try:
            fields = result_fields(ResultInput(cleaned["kind"], scores), len(scores))
        except ResultError:
            return False  # the service says what is wrong
        return fields != result_of(game)

    @property
    def confirmation_token(self) -> str:
        """The typed scores, as the confirmation checkbox carries them."""
        data = self.data if self.is_bound else {}
        return "/".join(
            str(data.get(self.add_prefix(side), "")).strip()[:15] for side in self.score_names
        )

    @property
    def needs_confirmation(self) -> bool:
        """Whether the row shows the “right” checkbox: it was asked for, or ticked."""
        if not self.is_bound:
            return False
        asked = any(
            error.code == "implausible"
            for side in self.score_names
            for error in self.errors.as_data().get(side, [])
        )
        return asked or self.is_confirmed

    @property
    def is_confirmed(self) -> bool:
        ticked = self.data.get(self.add_prefix("confirm"), "") if self.is_bound else ""
        return bool(ticked) and ticked == self.confirmation_token

    @property
    def only_asks_confirmation(self) -> bool:
        errors = self.errors.as_data()
        codes = {error.code for field_errors in errors.values() for error in field_errors}
        return codes == {"implausible"}

    def first_marked_field(self) -> str | None:
        """The field the cursor should go to after a refused save, or None when all is well."""
        if not self.errors:
            return None
        for name in self.FOCUS_ORDER:
            if name in self.errors:
                return name
        if self.data.get(self.add_prefix("kind")) not in ResultKind.SCORED:
            return "kind"
        return "score_a"

    def prepare_widgets(self, *, autofocus: str | None = None) -> None:
        """The page's keyboard route. Tab goes score, score, next table's score: the
        outcome and the reason are out of the Tab order (the outcome is reached with `*`
        from a score, see static/js/results.js), except a reason that is marked or filled.
        The error line describes the row's inputs for a screen reader."""
        errors_id = self.add_prefix("errors")
        table = self.game_obj.table if self.game_obj is not None else None
        self.fields["kind"].widget.attrs.update(
            {
                "tabindex": "-1",
                "data-outcome": "",
                "aria-keyshortcuts": "*",
                "aria-label": _("Outcome of table %(table)s") % {"table": table}
                if table
                else _("Outcome"),
            }
        )
        reason = self.fields["reason"].widget.attrs
        if "reason" not in self.errors and not self["reason"].value():
            reason["tabindex"] = "-1"
        reason["aria-label"] = _("Reason for correction")
        for name in self.score_names:
            self.fields[name].widget.attrs["aria-label"] = self.fields[name].label
        for name in self.FOCUS_ORDER:
            if name in self.fields and (self.errors or self.needs_confirmation):
                self.fields[name].widget.attrs["aria-describedby"] = errors_id
        if autofocus:
            self.fields[autofocus].widget.attrs["autofocus"] = True

    def first_empty_score(self) -> str | None:
        """The first score field still to fill in on a game without a result."""
        if self.game_obj is None or self.game_obj.has_result:
            return None
        for side in self.score_names:
            if self[side].value() in (None, ""):
                return side
        return None


class BaseResultFormSet(forms.BaseFormSet):
    """The rows of a round's results page, each knowing its game and the plausible range.

    A posted row finds its game by the id it carries, not by its place: a game that went
    to the board since the page was shown drops out of the list, and the rows after it
    must still be the games they were typed for.
    """

    def __init__(self, *args, games: Sequence[Game] = (), score_max: int = SCORE_MAX, **kwargs):
        self.games = list(games)
        self.score_max = score_max
        self.rules_name = kwargs.pop("rules_name", "")
        super().__init__(*args, **kwargs)

    def _game_for(self, index: int) -> Game | None:
        if not self.is_bound:
            return self.games[index] if index < len(self.games) else None
        posted = str(self.data.get(f"{self.add_prefix(index)}-game", ""))
        return next((game for game in self.games if str(game.pk) == posted), None)

    def get_form_kwargs(self, index):
        kwargs = super().get_form_kwargs(index)
        if index is not None:
            kwargs["game"] = self._game_for(index)
        return {**kwargs, "score_max": self.score_max, "rules_name": self.rules_name}


# The factory's class is a subclass of `formset`, which the stubs do not say.
ResultFormSet = cast(
    type[BaseResultFormSet],
    forms.formset_factory(ResultRowForm, formset=BaseResultFormSet, extra=0),
)


class CorrectionForm(forms.Form):
    """One game's result corrected with a reason: a score field per player at the table."""

    kind = forms.ChoiceField(label=_("Outcome"), choices=ResultKind.choices)
    score_a = score_field(_("Board points first player"))
    score_b = score_field(_("Board points second player"))
    score_c = score_field(_("Board points third player"))
    score_d = score_field(_("Board points fourth player"))
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )
    version = hidden_number(INTEGER_MAX)

    def __init__(self, *args, game: Game | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        names = [player.name for player in game.players] if game is not None else []
        self.score_names = score_names(len(names))
        for name in score_names(4)[len(self.score_names) :]:
            del self.fields[name]
        if len(names) > 2:
            for field, name in zip(self.score_names, names, strict=True):
                self.fields[field].label = _("Board points of %(name)s") % {"name": name}
            cast(forms.ChoiceField, self.fields["kind"]).choices = ResultKind.for_table(names)

    def scores(self) -> tuple[int | None, ...]:
        """The cleaned scores in table order."""
        return tuple(self.cleaned_data.get(name) for name in self.score_names)


class AttendanceForm(forms.Form):
    present = forms.MultipleChoiceField(
        label=_("Present"), widget=forms.CheckboxSelectMultiple, required=False
    )

    def __init__(self, *args, entrants: list[Entrant], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["present"]).choices = [
            (e.player_id, e.player.name) for e in entrants
        ]


BYE_CHOICE = "bye"
TABLE_CHOICE = "table-"


class LateArrivalForm(forms.Form):
    """A late arrival's place in a paired round: against the bye, against another late
    arrival at a new table, or a bye. The choices are the round's as the page showed it:
    only players present and without a place. The place is a list of choices that wrap
    (not a select cut off at phone width), one tap each; none is chosen for the user."""

    player = forms.ChoiceField(
        label=_("Late arrival"), widget=forms.Select(attrs={"class": "form-select"})
    )
    opponent = forms.ChoiceField(
        label=_("Plays"), widget=forms.RadioSelect(attrs={"class": "btn-check"})
    )
    pairing = forms.CharField(widget=forms.HiddenInput, max_length=40)

    def __init__(
        self,
        *args,
        unplaced: list[tuple[int, str]],
        bye_players: list[tuple[int, str]],
        chosen: int | None = None,
        tables: Sequence[tuple[int, Sequence[str]]] = (),
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        players: list[tuple[str, str | Promise]] = [
            (str(player_id), name) for player_id, name in unplaced
        ]
        if chosen in {player_id for player_id, _name in unplaced}:
            self.fields["player"].initial = str(chosen)
        elif len(players) > 1:
            # Nobody just ticked: the secretary chooses; the first name is no guess.
            players.insert(0, ("", _("choose…")))
        cast(forms.ChoiceField, self.fields["player"]).choices = players
        opponents: list[tuple[str, str | Promise]] = [
            (str(player_id), _("against %(name)s (has the bye)") % {"name": name})
            for player_id, name in bye_players
        ]
        if len(unplaced) > 1:  # one late arrival alone has nobody new to play
            opponents += [
                (str(player_id), _("new table, against %(name)s") % {"name": name})
                for player_id, name in unplaced
            ]
        # At tables of 3 and 4: join a table that has room (`tables`: number, names).
        opponents += [
            (
                f"{TABLE_CHOICE}{number}",
                _("join table %(table)s (%(names)s)")
                % {"table": number, "names": ", ".join(names)},
            )
            for number, names in tables
        ]
        opponents.append((BYE_CHOICE, _("a bye")))
        cast(forms.ChoiceField, self.fields["opponent"]).choices = opponents

    def opponent_id(self) -> int | None:
        value = self.cleaned_data["opponent"]
        return None if value == BYE_CHOICE or value.startswith(TABLE_CHOICE) else int(value)

    def join_table(self) -> int | None:
        """The table chosen to join, or None."""
        value = self.cleaned_data["opponent"]
        return int(value.removeprefix(TABLE_CHOICE)) if value.startswith(TABLE_CHOICE) else None


class RoundReopenForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason for reopening"), max_length=500, validators=[validate_plain_text]
    )


class RoundDeleteForm(forms.Form):
    confirm = forms.BooleanField(label=_("Yes, delete this round and its pairing"))


class RoundCreateForm(forms.Form):
    date = forms.DateField(label=_("Date"), required=False, widget=DateInput())
    # The round the page offered to add; without it the next round is added.
    number = bounded(StrictIntegerField(required=False), minimum=1, maximum=MAX_ROUNDS)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        validators=[validate_upload_size],
        help_text=_(
            "Columns: round, table, player, opponent, score, opponent_score, outcome; "
            "separated by commas or semicolons, saved as UTF-8. You see what will change "
            "before anything is saved."
        ),
    )

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(size)s MB; a results file is much smaller.")
                % {"size": MAX_FILE_BYTES // (1024 * 1024)},
                code="too_large",
            )
        return file


NEW_PLAYER = "new"


def question_field_name(question: NameQuestion) -> str:
    """A field name per name in the file, stable across requests, free of the name itself."""
    return "name_" + hashlib.sha256(question.key.encode()).hexdigest()[:12]


class ImportConfirmForm(forms.Form):
    """The preview's answers: who each unknown name is, and what the user saw (so the
    server can refuse when the file or the data changed since)."""

    digest = forms.CharField(widget=forms.HiddenInput, max_length=64)
    fingerprint = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)

    def __init__(self, *args, questions: Sequence[NameQuestion] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.questions = list(questions)
        for question in self.questions:
            choices: list[tuple[str, str | Promise]] = (
                [(UNDECIDED, _("— choose —"))] if question.default == UNDECIDED else []
            )
            choices += [
                (
                    str(option.player_id),
                    _("%(name)s (entrant)") % {"name": option.name}
                    if option.entrant
                    else _("%(name)s (club member)") % {"name": option.name},
                )
                for option in question.options
            ]
            choices.append((NEW_PLAYER, _("new player “%(name)s”") % {"name": question.name}))
            default = question.default
            self.fields[question_field_name(question)] = forms.ChoiceField(
                label=question.name,
                choices=choices,
                required=False,
                initial=NEW_PLAYER if default is None else str(default),
            )

    def rows(self):
        """Each name with its field, for the template."""
        return [(question, self[question_field_name(question)]) for question in self.questions]

    def decisions(self) -> dict[str, int | None]:
        """The names the user settled: a player id, or None for a new player."""
        players: dict[str, int | None] = {}
        for question in self.questions:
            value = self.cleaned_data.get(question_field_name(question))
            if value == NEW_PLAYER:
                players[question.key] = None
            elif value:
                players[question.key] = int(value)
        return players


class PairingForm(forms.Form):
    system = forms.ChoiceField(label=_("Pairing system"), choices=Competition.PairingSystem.choices)
    standings_round = bounded(
        StrictIntegerField(
            label=_("Pair from the standings after round"),
            required=False,
            help_text=_("Empty: the last finished round."),
        ),
        minimum=0,
        maximum=SMALLINT_MAX,
    )
    seed = bounded(
        StrictIntegerField(label=_("Seed for random pairing"), required=False),
        minimum=0,
        maximum=INTEGER_MAX,
    )
    table_size = forms.ChoiceField(
        label=_("Table size of this round"),
        required=False,
        help_text=_("Only for this round; the competition's setting stays as it is."),
    )

    def __init__(self, *args, competition: Competition, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        own = TableSize(competition.table_size).label
        cast(forms.ChoiceField, self.fields["table_size"]).choices = [
            ("", _("as the competition: %(size)s") % {"size": own}),
            *TableSize.choices,
        ]

    def clean_table_size(self) -> str | None:
        """Left out of the form (a page from before tables): the round keeps its own."""
        if "table_size" not in self.data:
            return None
        return self.cleaned_data["table_size"]


class SwapForm(forms.Form):
    """Two players of the round to swap. The second starts empty: with the same player
    preselected on both sides, one tap on *Swap* could only be refused."""

    player_x = forms.ChoiceField(
        label=_("Swap"), widget=forms.Select(attrs={"class": "form-select"})
    )
    player_y = forms.ChoiceField(
        label=_("with"), widget=forms.Select(attrs={"class": "form-select"})
    )

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["player_x"]).choices = players
        cast(forms.ChoiceField, self.fields["player_y"]).choices = [("", _("— choose —")), *players]


class GroupForm(forms.Form):
    name = forms.CharField(label=_("New group"), max_length=60, validators=[validate_plain_text])


class TshImportForm(forms.Form):
    """A TSH division file (.t) to create a tournament from."""

    file = forms.FileField(
        label=_("TSH file (.t)"),
        validators=[validate_upload_size],
        help_text=_(
            "One division: players, pairings and results. Nothing is created when any "
            "line is wrong."
        ),
    )
    name = forms.CharField(
        label=_("Name of the tournament"), max_length=120, validators=[validate_plain_text]
    )
    slug = forms.SlugField(
        label=_("Short name"),
        max_length=50,
        required=False,
        help_text=_("For the web address; made from the name when left empty."),
    )
    rules = forms.ChoiceField(
        label=_("Rules"),
        choices=[
            (value, label)
            for value, label in Competition.Rules.choices
            if value != Competition.Rules.CUSTOM
        ],
    )
