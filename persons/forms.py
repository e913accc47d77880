"""The secretary's forms: a new member, the club's details of a member, a merge.

Django: forms.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Membership, Player


class MembershipDetailsForm(forms.ModelForm):
    """The club's own details of its member; the person's name is on `Player`."""

    class Meta:
        model = Membership
        fields = ("member_number", "joined", "note")
        widgets = {"joined": forms.DateInput(attrs={"type": "date"})}


class MemberAddForm(forms.Form):
    """A new member: a person by name, and the federation number when known (it links the
    person's record if another club has it); the club's own details as on the member's
    page. The service checks them all again."""

    name = forms.CharField(label=_("Name"), max_length=120)
    federation_number = forms.CharField(
        label=_("Federation number"),
        max_length=20,
        required=False,
        help_text=_(
            "When given and already known (a member of another club), the person's record is "
            "linked: their results and rating follow them."
        ),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        details = MembershipDetailsForm()
        for name in MembershipDetailsForm.Meta.fields:
            self.fields[name] = details.fields[name]


class PlayerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        clubs = ", ".join(sorted({club.name for club in obj.clubs.all()}))
        number = f" · {obj.federation_number}" if obj.federation_number else ""
        return f"{obj.name}{number} ({clubs}) #{obj.pk}" if clubs else f"{obj.name} #{obj.pk}"


class MergeForm(forms.Form):
    keep = PlayerChoiceField(
        label=_("Keep this record"),
        queryset=Player.objects.none(),
        help_text=_("Its name stays; it takes what the other has."),
    )
    other = PlayerChoiceField(
        label=_("Merge this record into it"),
        queryset=Player.objects.none(),
        help_text=_("Its results, entries and memberships move to the kept record."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)

    def __init__(self, *args, players, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("keep", "other"):
            self.fields[name].queryset = players  # type: ignore[attr-defined]

    def clean(self):
        data = super().clean() or {}
        if data.get("keep") is not None and data.get("keep") == data.get("other"):
            raise forms.ValidationError(_("Choose two different records."))
        return data


class UnmergeForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)
