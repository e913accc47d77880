from django.contrib import admin

from clubs.models import Club, HistoryEntry, Membership, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "federation_number", "rating", "user"]
    search_fields = ["name", "federation_number", "user__username"]
    list_filter = ["memberships__club"]
    autocomplete_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "role"]
    list_filter = ["club", "role"]
    search_fields = ["player__name", "club__name"]
    autocomplete_fields = ["player", "club"]


@admin.register(HistoryEntry)
class HistoryEntryAdmin(admin.ModelAdmin):
    """The history is read here, never written: no one adds, changes or deletes an entry."""

    list_display = [
        "at",
        "club",
        "author",
        "action_label",
        "object_label",
        "round_number",
        "reason",
    ]
    list_filter = ["club", "action", "at"]
    search_fields = ["object_label", "by_name", "reason"]
    list_select_related = ["club", "by"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
