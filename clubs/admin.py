from django.contrib import admin

from clubs.models import Club, Membership, Player


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
