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
        from events.signals import event_changed, season_changed
        from ranking.history_text import register_history_texts
        from ranking.services import on_event_changed, on_game_complete, on_season_changed

        # An evening's results complete (or corrected): its ranked game published again.
        game_complete.connect(on_game_complete, dispatch_uid="ranking.evening_publish")
        # A season's GV changed: its ranked games scored again, in the same transaction.
        season_changed.connect(on_season_changed, dispatch_uid="ranking.season_recompute")
        # An event's season, date, kind or name changed: its games published again (or
        # taken out of the ranking), in the same transaction.
        event_changed.connect(on_event_changed, dispatch_uid="ranking.event_ranked_again")
        register_history_texts()
