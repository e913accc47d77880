"""The competition app's configuration: connects its receivers when Django starts.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from clubs.signals import club_changed, player_changed
        from competition.services.rounds import on_game_changed_status
        from competition.versioning import on_game_changed, on_game_unchanged, on_names_changed
        from games.signals import game_changed, game_unchanged

        game_changed.connect(on_game_changed, dispatch_uid="competition-version")
        game_unchanged.connect(on_game_unchanged, dispatch_uid="competition-archived")
        player_changed.connect(on_names_changed, dispatch_uid="competition-player-name")
        club_changed.connect(on_names_changed, dispatch_uid="competition-club-name")
        game_changed.connect(on_game_changed_status, dispatch_uid="competition-round-status")
        from clubs.slugs import register_competition_slugs
        from competition.history_text import register_history_texts

        register_competition_slugs("competition.Competition")
        from competition.divisions import PAIRED
        from events.divisions import register_division_kind

        # A paired competition can be a division of an open event (events/).
        register_division_kind(PAIRED)

        register_history_texts()
