"""Duplicate evenings, turns and slips are shown here, never changed: the spelleider's
and the players' pages change them through `duplicate.services`, which score every slip
with the engine and keep the history."""

from django.contrib import admin

from clubs.admin import ViewOnlyAdmin
from duplicate.models import Evening, Slip, SlipConflict, Turn


@admin.register(Evening)
class EveningAdmin(ViewOnlyAdmin):
    list_display = ["__str__", "competition", "number", "date", "rules"]
    list_filter = ["competition__club", "competition"]
    search_fields = ["competition__name"]
    list_select_related = ["competition__club"]


@admin.register(Turn)
class TurnAdmin(ViewOnlyAdmin):
    list_display = ["__str__", "number", "rack", "top", "top_score", "total"]
    list_filter = ["evening__competition"]
    list_select_related = ["evening__competition"]


@admin.register(Slip)
class SlipAdmin(ViewOnlyAdmin):
    list_display = [
        "__str__",
        "player",
        "text",
        "claimed",
        "score",
        "reason_code",
        "late",
        "late_accepted",
        "void",
    ]
    list_filter = ["late", "corrected", "void", "turn__evening__competition"]
    search_fields = ["player__name", "text"]
    list_select_related = ["player", "turn__evening__competition"]


@admin.register(SlipConflict)
class SlipConflictAdmin(ViewOnlyAdmin):
    list_display = ["__str__", "text", "claimed", "typed_by", "typed_at", "resolved_at", "taken"]
    list_filter = ["slip__turn__evening__competition"]
    list_select_related = ["slip__turn__evening__competition", "typed_by"]
