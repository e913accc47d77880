"""Filters of the club page's list of competitions (a club keeps many seasons) and of a
competition's history (who, what, which round).

Django: django-filter over the ORM.
"""

import django_filters
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from competition.models import Competition


class CompetitionFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", label=_("Name"))
    kind = django_filters.ChoiceFilter(
        choices=Competition.Kind.choices, label=_("Kind"), empty_label=_("every kind")
    )
    rules = django_filters.ChoiceFilter(
        choices=Competition.Rules.choices, label=_("Rules"), empty_label=_("all rules")
    )

    class Meta:
        model = Competition
        fields = ["name", "kind", "rules"]


class HistoryFilter(django_filters.FilterSet):
    """The choices offered are those the competition's history holds: one query each."""

    by_name = django_filters.ChoiceFilter(label=_("Who"), empty_label=_("everyone"))
    action = django_filters.ChoiceFilter(label=_("What"), empty_label=_("everything"))
    round_number = django_filters.ChoiceFilter(label=_("Round"), empty_label=_("all rounds"))

    class Meta:
        model = HistoryEntry
        fields = ["by_name", "action", "round_number"]

    def __init__(self, *args, competition: Competition, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        entries = HistoryEntry.objects.filter(competition_id=competition.pk).order_by()
        names = entries.exclude(by_name="").values_list("by_name", flat=True).distinct()
        self.filters["by_name"].extra["choices"] = [(name, name) for name in sorted(names)]
        labels = dict(HistoryAction.choices)
        actions = entries.values_list("action", flat=True).distinct()
        self.filters["action"].extra["choices"] = sorted(
            ((code, labels.get(code, code)) for code in actions), key=lambda pair: str(pair[1])
        )
        rounds = entries.exclude(round_number=None).values_list("round_number", flat=True)
        self.filters["round_number"].extra["choices"] = [
            (number, number) for number in sorted({n for n in rounds.distinct() if n is not None})
        ]
