from django.contrib import admin

from competition.models import Absence, Competition, Entrant, Group, Round


class GroupInline(admin.TabularInline):
    model = Group
    extra = 0


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "kind", "rules", "start_date"]
    list_filter = ["kind", "rules", "club"]
    search_fields = ["name", "slug", "club__name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [GroupInline]


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "competition", "order"]
    list_filter = ["competition"]
    search_fields = ["name", "competition__name"]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["player", "competition", "group", "joined_round", "withdrawn_from_round"]
    list_filter = ["competition", "group"]
    search_fields = ["player__name", "competition__name"]
    autocomplete_fields = ["player"]
    list_select_related = ["player", "competition", "group"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["competition", "number", "date", "status"]
    list_filter = ["status", "competition"]
    search_fields = ["competition__name"]
    date_hierarchy = "date"


@admin.register(Absence)
class AbsenceAdmin(admin.ModelAdmin):
    list_display = ["player", "round"]
    list_filter = ["round__competition"]
    search_fields = ["player__name"]
    list_select_related = ["player", "round__competition"]
