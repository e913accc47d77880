"""Seasons, events and entries are shown here, never changed: the event pages change them
through `events.services`, which check who may and keep the history. (Seasons are the
federation officials' pages' to change: ranking/.)"""

from django.contrib import admin

from clubs.admin import ViewOnlyAdmin
from events.models import Entry, Event, Season


@admin.register(Season)
class SeasonAdmin(ViewOnlyAdmin):
    list_display = ["name", "federation", "start", "end", "gap_value"]
    list_filter = ["federation"]
    search_fields = ["name"]
    list_select_related = ["federation"]


@admin.register(Event)
class EventAdmin(ViewOnlyAdmin):
    list_display = ["name", "organiser", "kind", "date", "season"]
    list_filter = ["organiser", "kind"]
    search_fields = ["name"]
    list_select_related = ["organiser", "season"]


@admin.register(Entry)
class EntryAdmin(ViewOnlyAdmin):
    list_display = ["player", "event", "club", "created_at"]
    list_filter = ["event"]
    search_fields = ["player__name"]
    list_select_related = ["player", "event", "club"]
