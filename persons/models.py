"""The record of a merge of two records of one person (persons/services.py).

Django: the model.
"""

from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Player


class PersonMerge(models.Model):
    """`other` merged into `keep`: exactly what moved, so that `persons_unmerge` can put
    it back. `other` stays as a record without relations (its id keeps old links and
    history entries meaningful) until the merge is undone."""

    keep = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("kept record")
    )
    other = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("merged record")
    )
    at = models.DateTimeField(_("when"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    by_name = models.CharField(_("by (name)"), max_length=150, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    #: What moved: `rows` ({"model", "field", "pks"}), `removed` (rows of `other` that
    #: duplicated one of `keep`'s, serialized), `fields` (each record's fields before),
    #: `memberships` (kept memberships' details before they took the other's).
    moved = models.JSONField(_("what moved"), encoder=DjangoJSONEncoder, default=dict)
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("undone by"),
    )
    undone_by_name = models.CharField(_("undone by (name)"), max_length=150, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("merge of two records of a person")
        verbose_name_plural = _("merges of records of persons")

    def __str__(self) -> str:
        return f"{self.other_id} → {self.keep_id} ({self.at:%Y-%m-%d %H:%M})"

    @property
    def moved_rows(self) -> int:
        """How many rows moved, for the pages."""
        rows: list[dict[str, Any]] = self.moved.get("rows", [])
        return sum(len(row["pks"]) for row in rows)
