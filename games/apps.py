from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The codes a game's history entries hold, named on the history pages.
        from clubs.history_display import register
        from games.models import Outcome, RoundStatus, Side, Winner

        register(
            labels={
                "table": _("table"),
                "player_a": _("first player"),
                "player_b": _("second player"),
            },
            choices={
                "outcome": Outcome.choices,
                "winner": Winner.choices,
                "starter": Side.choices,
                "side": Side.choices,
                "status": RoundStatus.choices,
            },
        )
