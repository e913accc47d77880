"""The federation's ranking: each ranked game's percentages (the NTSV formula), the season
ranking of persons and of clubs, and the results files that carry an event's results from
one Bordpunt to another. Above the apps whose results it ranks.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingConfig(AppConfig):
    name = "ranking"
    verbose_name = _("Ranking")

    def ready(self) -> None:
        from duplicate.signals import game_complete
        from ranking.history_text import register_history_texts
        from ranking.services import on_game_complete

        # An evening's results complete (or corrected): its ranked game published again.
        game_complete.connect(on_game_complete, dispatch_uid="ranking.evening_publish")
        register_history_texts()
