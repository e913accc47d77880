"""The hosted service: clubs that sign themselves up, and the operator above the clubs.

It sits above the apps it serves and none of them imports it.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HostingConfig(AppConfig):
    name = "hosting"
    verbose_name = _("Hosting")
