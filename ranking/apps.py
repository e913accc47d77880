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
