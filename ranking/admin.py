"""Ranked events, games and results are shown here, never changed: they come from the
evenings played (`ranking.services.evening_publish`) or from a results file, and a season's
GV computes them again; the history keeps each of those."""

from django.contrib import admin

from clubs.admin import ViewOnlyAdmin
from ranking.models import RankedEvent, RankedGame, RankedResult


@admin.register(RankedEvent)
class RankedEventAdmin(ViewOnlyAdmin):
    list_display = ["name", "season", "kind", "date", "source"]
    list_filter = ["season", "kind", "source"]
    search_fields = ["name", "organiser"]
    list_select_related = ["season"]


@admin.register(RankedGame)
class RankedGameAdmin(ViewOnlyAdmin):
    list_display = ["__str__", "number", "date", "winner_points", "median_points"]
    list_filter = ["event__season"]
    list_select_related = ["event"]


@admin.register(RankedResult)
class RankedResultAdmin(ViewOnlyAdmin):
    list_display = ["name", "federation_number", "club_name", "points", "percentage", "game"]
    list_filter = ["game__event__season"]
    search_fields = ["name", "federation_number"]
    list_select_related = ["game__event"]
