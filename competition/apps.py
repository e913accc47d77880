from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = _("Competitions")
