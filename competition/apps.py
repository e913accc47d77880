from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from competition.services.rounds import on_game_changed_status
        from competition.versioning import on_game_changed
        from games.signals import game_changed

        game_changed.connect(on_game_changed, dispatch_uid="competition-version")
        game_changed.connect(on_game_changed_status, dispatch_uid="competition-round-status")
