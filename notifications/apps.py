"""The notifications app: its receivers are connected when Django starts, and the history
learns to read a person's choice of kinds."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from clubs.history_display import register
        from notifications import receivers  # noqa: F401  (connects the signals)
        from notifications.kinds import Kind

        register(
            labels={"notifications": _("notifications")}, choices={"notifications": Kind.choices}
        )
