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
        _register_history_labels()


def _register_history_labels() -> None:
    """Name the settings and entrant fields the history entries of competitions hold."""
    from clubs.history_display import register
    from competition.models import TIEBREAK_CHOICES, Competition, Entrant
    from competition.services.competitions import SETTINGS_FIELDS

    fields = [Competition._meta.get_field(name) for name in SETTINGS_FIELDS]
    register(
        labels={
            **{field.name: field.verbose_name for field in fields},
            "joined_round": Entrant._meta.get_field("joined_round").verbose_name,
            "withdrawn_from_round": Entrant._meta.get_field("withdrawn_from_round").verbose_name,
            "archived": _("archived"),
        },
        choices={
            **{field.name: field.choices for field in fields if field.choices},
            "tiebreaks": TIEBREAK_CHOICES,
        },
    )
