from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DuplicateConfig(AppConfig):
    name = "duplicate"
    verbose_name = _("Duplicate")

    def ready(self) -> None:
        # The keys a duplicate history entry holds, named on the history pages.
        from clubs.history_display import register

        register(
            labels={
                "turn": _("turn"),
                "drawn": _("drawn"),
                "top": _("top"),
                "slip": _("slip"),
                "claimed": _("claimed score"),
                "score": _("score"),
                "reason_code": _("reason"),
            }
        )
