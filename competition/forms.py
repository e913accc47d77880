"""Forms of the secretary's pages. They validate input; the services do the writing."""

import hashlib
from collections.abc import Sequence

from django import forms
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
from competition.models import TIEBREAK_CHOICES, Competition, Entrant, Group
from competition.rulesets import custom_rules_error
from competition.services.importing import MAX_FILE_BYTES, UNDECIDED, NameQuestion
from games.models import Game
from games.services import MAX_SCORE, MIN_SCORE, ResultKind, result_kind_of

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
}


def score_field(label) -> forms.IntegerField:
    field = StrictIntegerField(
        label=label,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "form-control score"}),
    )
    return bounded(field, minimum=SCORE_MIN, maximum=SCORE_MAX)


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


class CompetitionForm(forms.ModelForm):
    """A competition's settings; the tiebreak order is chosen slot by slot."""

    class Meta:
        model = Competition
        fields = [
            "name",
            "slug",
            "kind",
            "rules",
            "custom_rules",
            "start_date",
            "number_of_rounds",
            "pairing_system",
            "starters",
            "bye_match_points",
            "bye_board_points",
            "bye_board_points_fixed",
            "forfeit_win_match_points",
            "forfeit_win_board_points",
            "ranking",
            "min_games",
            "only_confirmed_results",
        ]
        widgets = {"start_date": forms.DateInput(attrs={"type": "date"})}
        field_classes = {
            "custom_rules": RulesJSONField,
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

    def clean_slug(self) -> str:
        """The short name is the competition's address within its club: unique there."""
        slug = self.cleaned_data["slug"]
        taken = Competition.objects.filter(club=self.instance.club_id, slug=slug).exclude(
            pk=self.instance.pk
        )
        if taken.exists():
            raise forms.ValidationError(
                _("The club already has a competition with this short name."), code="unique"
            )
        return slug

    def clean(self) -> dict:
        cleaned = super().clean()
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

    def save(self, commit: bool = True) -> Competition:
        self.instance.tiebreaks = self.cleaned_data["tiebreaks"]
        return super().save(commit=commit)


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
        self.fields["player"].queryset = Player.objects.filter(
            memberships__club=competition.club_id
        ).exclude(entries__competition=competition)
        self.fields["group"].queryset = competition.groups.all()
        if not competition.groups.exists():
            del self.fields["group"]
        self.fields["joined_round"].initial = (
            competition.rounds.filter(games__isnull=False).distinct().count() + 1
        )

    def clean(self) -> dict:
        cleaned = super().clean()
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
        self.fields["entrant"].queryset = competition.entrants.all()


class ResultRowForm(forms.Form):
    """One table of the round's results page. Scores come first: tab from score to score."""

    game = hidden_number(BIGINT_MAX)
    version = hidden_number(INTEGER_MAX)
    score_a = score_field(_("Board points first player"))
    score_b = score_field(_("Board points second player"))
    kind = forms.ChoiceField(
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

    @staticmethod
    def initial_for(game: Game) -> dict:
        return {
            "game": game.pk,
            "version": game.version,
            "score_a": game.score_a,
            "score_b": game.score_b,
            "kind": result_kind_of(game) or ResultKind.NORMAL,
        }


ResultFormSet = forms.formset_factory(ResultRowForm, extra=0)


class CorrectionForm(forms.Form):
    kind = forms.ChoiceField(label=_("Outcome"), choices=ResultKind.choices)
    score_a = score_field(_("Board points first player"))
    score_b = score_field(_("Board points second player"))
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )
    version = hidden_number(INTEGER_MAX)


class AttendanceForm(forms.Form):
    present = forms.MultipleChoiceField(
        label=_("Present"), widget=forms.CheckboxSelectMultiple, required=False
    )

    def __init__(self, *args, entrants: list[Entrant], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["present"].choices = [(e.player_id, e.player.name) for e in entrants]


class RoundCreateForm(forms.Form):
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
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
            choices = [(UNDECIDED, _("— choose —"))] if question.default == UNDECIDED else []
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


class SwapForm(forms.Form):
    player_x = forms.ChoiceField(label=_("Swap"))
    player_y = forms.ChoiceField(label=_("with"))

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player_x"].choices = players
        self.fields["player_y"].choices = players


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
