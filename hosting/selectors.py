"""What the operator's pages read: every club with its numbers and last activity.

Django: selectors.
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from clubs.history import OPERATOR_KEPT
from clubs.models import Club, HistoryEntry, Membership
from competition.models import Competition
from duplicate.models import DuplicateCompetition


def _count(queryset: QuerySet) -> Coalesce:
    """The rows of `queryset` that belong to the outer club, counted in a subquery (joins
    would multiply one count by the other)."""
    counted = (
        queryset.filter(club=OuterRef("pk"))
        .order_by()
        .values("club")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def clubs_for_operator(status: str | None = None) -> QuerySet[Club]:
    """Every club (or those of one `status`) with `member_count`, its competitions (`paired`
    and `duplicates`) and `last_activity` (its newest history entry): one query in all."""
    clubs = Club.objects.annotate(
        member_count=_count(Membership.objects.all()),
        paired=_count(Competition.objects.all()),
        duplicates=_count(DuplicateCompetition.objects.all()),
        last_activity=Subquery(
            HistoryEntry.objects.filter(club=OuterRef("pk")).order_by("-at").values("at")[:1]
        ),
    ).order_by("name")
    if status:
        clubs = clubs.filter(status=status)
    return clubs


def operator_history(limit: int = 50) -> QuerySet[HistoryEntry]:
    """The operator's own actions and the archives' downloads that a removal rests on
    (`OPERATOR_KEPT`), newest first, removed clubs' entries included."""
    return HistoryEntry.objects.filter(OPERATOR_KEPT).select_related("by")[:limit]
