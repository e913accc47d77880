"""Club archives: a whole club backed up as one ZIP and restored from one.

It sits above the apps it archives (clubs, games, competition, duplicate) and none of them
imports it.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchivesConfig(AppConfig):
    name = "archives"
    verbose_name = _("Club archives")
