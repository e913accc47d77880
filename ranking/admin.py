"""Ranked events, games and results, and the official versions published, are shown here,
never changed: they come from the evenings played (`ranking.services.evening_publish`) or
from a results file, and a season's GV computes them again; a version is frozen
(`ranking.publications`); the history keeps each of those."""

from django.contrib import admin

from clubs.admin import ViewOnlyAdmin
from ranking.models import Publication, RankedEvent, RankedGame, RankedResult


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


@admin.register(Publication)
class PublicationAdmin(ViewOnlyAdmin):
    list_display = ["season", "version", "on", "published_at", "by_name"]
    list_filter = ["season"]
    list_select_related = ["season"]
