"""The notifications app: its receivers are connected when Django starts."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from notifications import receivers  # noqa: F401  (connects the signals)
