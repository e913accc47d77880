"""The admin of clubs and players, the history (read only), and the rules every admin of
the project follows: what holds results is changed through the app's services, never here,
and every other change goes through a service too, so the history keeps it.
"""

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from clubs import services
from clubs.history import HistoryAction
from clubs.models import Club, HistoryEntry, Membership, Player, Submission, Throttle


class ViewOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted here (superusers included): the pages of the
    app change these rows through the services, which keep the history."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class KeepsResultsAdmin(admin.ModelAdmin):
    """A row that has results is never deleted: not one by one, not in bulk.

    `results_exist(obj)` says which rows; `kept_message` why, shown on the row's page and
    on the bulk delete page instead of the list of what would go.
    """

    kept_message = _("“%(object)s” has results: it is kept and cannot be deleted.")

    def results_exist(self, obj) -> bool:
        raise NotImplementedError

    def has_delete_permission(self, request, obj=None) -> bool:
        if obj is not None and self.results_exist(obj):
            return False
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs, request):
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        kept = [self.kept_message % {"object": obj} for obj in objs if self.results_exist(obj)]
        if kept:
            # Refused anyway (the list below is not empty): say why, not which permission.
            perms_needed = set()
        return deleted, counts, perms_needed, [*kept, *protected]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id)
        if obj is not None and request.method == "GET" and self.results_exist(obj):
            messages.info(request, self.kept_message % {"object": obj})
        return super().change_view(request, object_id, form_url, extra_context)


class MembershipInline(admin.StackedInline):
    """Stacked, not tabular: every field, the delete box included, gets its own label
    (the tabular form names its columns only in the table's head, which a screen reader
    does not tie to the controls: axe's "label" and "select-name")."""

    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


class ThroughServicesAdmin(admin.ModelAdmin):
    """Saves and deletes through the services (`save_service`, `delete_service`, each
    `f(obj, by=user)`), which keep the history; in bulk too, one row at a time."""

    save_service: Callable[..., Any] = staticmethod(lambda obj, *, by: obj.save())
    delete_service: Callable[..., Any] = staticmethod(lambda obj, *, by: obj.delete())

    def save_model(self, request, obj, form, change: bool) -> None:
        self.save_service(obj, by=request.user)

    def delete_model(self, request, obj) -> None:
        self.delete_service(obj, by=request.user)

    def delete_queryset(self, request, queryset) -> None:
        for obj in queryset:
            self.delete_service(obj, by=request.user)


def _save_memberships(request, formset) -> None:
    memberships = formset.save(commit=False)
    for membership in formset.deleted_objects:
        services.membership_delete(membership, by=request.user)
    for membership in memberships:
        services.membership_save(membership, by=request.user)


@admin.register(Club)
class ClubAdmin(ThroughServicesAdmin):
    list_display = ["name", "slug", "city", "status"]
    search_fields = ["name", "slug", "city"]
    # Approval and suspension are the operator's, on the operator's pages (hosting/).
    readonly_fields = ["status"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]
    save_service = staticmethod(services.club_save)

    def save_formset(self, request, form, formset, change: bool) -> None:
        _save_memberships(request, formset)


@admin.register(Player)
class PlayerAdmin(ThroughServicesAdmin):
    list_display = ["name", "federation_number", "rating", "user"]
    search_fields = ["name", "federation_number", "user__username"]
    list_filter = ["memberships__club"]
    autocomplete_fields = ["user"]
    save_service = staticmethod(services.player_save)
    delete_service = staticmethod(services.player_delete)


@admin.register(Membership)
class MembershipAdmin(ThroughServicesAdmin):
    list_display = ["player", "club", "role"]
    list_filter = ["club", "role"]
    search_fields = ["player__name", "club__name"]
    autocomplete_fields = ["player", "club"]
    save_service = staticmethod(services.membership_save)
    delete_service = staticmethod(services.membership_delete)


class ActionFilter(admin.SimpleListFilter):
    """Every kind of change by its label (the field stores codes without `choices`)."""

    title = _("what")
    parameter_name = "action__exact"

    def lookups(self, request, model_admin):
        return HistoryAction.choices

    def queryset(self, request, queryset):
        return queryset.filter(action=self.value()) if self.value() else queryset


@admin.register(HistoryEntry)
class HistoryEntryAdmin(ViewOnlyAdmin):
    """The history, to read: rows are never changed or deleted, by anyone."""

    list_display = [
        "at",
        "club",
        "author",
        "action_label",
        "object_label",
        "round_number",
        "reason",
    ]
    list_filter = ["club", ActionFilter, ("at", admin.DateFieldListFilter)]
    search_fields = ["object_label", "by_name", "reason"]
    date_hierarchy = "at"
    list_select_related = ["club", "by"]
    actions = None

    @admin.display(description=_("by"))
    def author(self, entry: HistoryEntry) -> str:
        return entry.author


@admin.register(Throttle)
class ThrottleAdmin(admin.ModelAdmin):
    """Who waits after wrong passwords or codes. Deleting a row lifts its wait at once (the
    way to unlock someone); the counts themselves are only ever written by clubs/throttle.py."""

    list_display = ("scope", "subject", "address", "failures", "last_failure_at", "locked_until")
    list_filter = ("scope",)
    search_fields = ("subject", "address")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    """The keys of forms already saved (clubs/submissions.py): read only, the record of
    what a form sent twice was answered with."""

    list_display = ("made", "kind", "led_to", "by")
    list_filter = ("kind",)
    search_fields = ("key", "led_to", "by__username")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    """Django's own user admin, with the last login and the sign-up moment shown, not
    edited: they are the site's record, and Django's split date and time boxes for them
    carry no label a screen reader can read (axe's "label")."""

    readonly_fields = ("last_login", "date_joined")
