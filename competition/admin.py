"""The admin of competitions: settings go through the services (so the history keeps them);
rounds, entrants and groups are shown, and changed on the secretary's pages.

Nothing with results is deleted: a competition with rounds is protected by the database
(`Round.competition` is PROTECT), and these admins refuse it with a message of their own.

Django: the admin site, writing through the services.
"""

from django.contrib import admin

from clubs import admin as clubs_admin
from clubs.admin import KeepsResultsAdmin, ViewOnlyAdmin
from clubs.models import Player
from competition.models import Absence, Competition, Entrant, Group, Round
from competition.services import competitions
from competition.services.competitions import SETTINGS_FIELDS
from games.models import Game


def _games_with_results(**where) -> bool:
    """A bye is a result too (`games.models.HAS_RESULT`): it counts in the standings."""
    return Game.objects.with_result().filter(**where).exists()


@admin.register(Competition)
class CompetitionAdmin(KeepsResultsAdmin):
    list_display = ["name", "club", "kind", "rules", "start_date", "archived_at"]
    list_filter = ["kind", "rules", "club", ("archived_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "slug", "club__name"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["archived_at", "created_at", "changed_at"]

    def results_exist(self, obj: Competition) -> bool:
        return _games_with_results(round__competition=obj)

    def get_readonly_fields(self, request, obj=None):
        # A competition stays in its club; its archive date is set by archiving.
        return [*self.readonly_fields, "club"] if obj else self.readonly_fields

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is not None and obj.is_archived:
            return False
        return super().has_change_permission(request, obj)

    def delete_model(self, request, obj: Competition) -> None:
        competitions.competition_delete(competition=obj, by=request.user)

    def delete_queryset(self, request, queryset) -> None:
        for competition in queryset:
            competitions.competition_delete(competition=competition, by=request.user)

    def save_model(self, request, obj: Competition, form, change: bool) -> None:
        settings = {name: getattr(obj, name) for name in SETTINGS_FIELDS}
        if change:
            saved = competitions.competition_update(
                competition=obj, settings=settings, by=request.user
            )
        else:
            saved = competitions.competition_create(
                club=obj.club, settings=settings, by=request.user
            )
        obj.pk = saved.pk
        obj.changed_at = saved.changed_at
        obj._state.adding = False


@admin.register(Group)
class GroupAdmin(ViewOnlyAdmin):
    list_display = ["name", "competition", "order"]
    list_filter = ["competition"]
    search_fields = ["name", "competition__name"]


@admin.register(Entrant)
class EntrantAdmin(ViewOnlyAdmin):
    list_display = ["player", "competition", "group", "joined_round", "withdrawn_from_round"]
    list_filter = ["competition", "group"]
    search_fields = ["player__name", "competition__name"]
    list_select_related = ["player", "competition", "group"]


@admin.register(Round)
class RoundAdmin(ViewOnlyAdmin):
    list_display = ["competition", "number", "date", "status"]
    list_filter = ["status", "competition"]
    search_fields = ["competition__name"]
    date_hierarchy = "date"


@admin.register(Absence)
class AbsenceAdmin(ViewOnlyAdmin):
    list_display = ["player", "round"]
    list_filter = ["round__competition"]
    search_fields = ["player__name"]
    list_select_related = ["player", "round__competition"]


admin.site.unregister(Player)


@admin.register(Player)
class PlayerAdmin(KeepsResultsAdmin, clubs_admin.PlayerAdmin):
    """The clubs app's player admin; a player with results is never deleted."""

    def results_exist(self, obj: Player) -> bool:
        return _games_with_results(seats__player=obj)
