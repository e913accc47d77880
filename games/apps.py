from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The codes a game's history entries hold, named on the history pages.
        from games.history_text import register_history_texts

        register_history_texts()
