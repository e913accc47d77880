"""Forms of the secretary's pages. They validate input; the services do the writing."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from competition.models import TIEBREAK_CHOICES, Competition, Entrant, Group
from competition.rulesets import custom_rules_error
from games.models import Game
from games.services import ResultKind, result_kind_of

TIEBREAK_SLOTS = len(TIEBREAK_CHOICES)


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
        ]
        widgets = {"start_date": forms.DateInput(attrs={"type": "date"})}

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
    new_player_name = forms.CharField(label=_("or a new player"), max_length=120, required=False)
    joined_round = forms.IntegerField(label=_("Plays from round"), min_value=1, initial=1)
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
    from_round = forms.IntegerField(label=_("Withdrawn from round"), min_value=2)

    def __init__(self, *args, competition: Competition, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = competition.entrants.all()


class ResultRowForm(forms.Form):
    """One table of the round's results page. Scores come first: tab from score to score."""

    game = forms.IntegerField(widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput)
    score_a = forms.IntegerField(
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "form-control score"}),
    )
    score_b = forms.IntegerField(
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "form-control score"}),
    )
    kind = forms.ChoiceField(
        choices=ResultKind.choices,
        initial=ResultKind.NORMAL,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    reason = forms.CharField(
        required=False,
        max_length=500,
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
    score_a = forms.IntegerField(label=_("Board points first player"), required=False)
    score_b = forms.IntegerField(label=_("Board points second player"), required=False)
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))
    version = forms.IntegerField(widget=forms.HiddenInput)


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
    number = forms.IntegerField(min_value=1, max_value=32767, required=False)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "Columns: round, table, player, opponent, score, opponent_score, outcome. "
            "Nothing is imported when any row is wrong."
        ),
    )


class PairingForm(forms.Form):
    system = forms.ChoiceField(label=_("Pairing system"), choices=Competition.PairingSystem.choices)
    standings_round = forms.IntegerField(
        label=_("Pair from the standings after round"),
        min_value=0,
        required=False,
        help_text=_("Empty: the last finished round."),
    )
    seed = forms.IntegerField(label=_("Seed for random pairing"), required=False)


class SwapForm(forms.Form):
    player_x = forms.ChoiceField(label=_("Swap"))
    player_y = forms.ChoiceField(label=_("with"))

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player_x"].choices = players
        self.fields["player_y"].choices = players


class GroupForm(forms.Form):
    name = forms.CharField(label=_("New group"), max_length=60)
