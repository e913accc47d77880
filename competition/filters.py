"""Filters for the club page's list of competitions (a club keeps many seasons)."""

import django_filters
from django.utils.translation import gettext_lazy as _

from competition.models import Competition


class CompetitionFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", label=_("Name"))
    kind = django_filters.ChoiceFilter(choices=Competition.Kind.choices, label=_("Kind"))
    rules = django_filters.ChoiceFilter(choices=Competition.Rules.choices, label=_("Rules"))

    class Meta:
        model = Competition
        fields = ["name", "kind", "rules"]
