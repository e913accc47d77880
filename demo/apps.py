"""Demo data: a club with every kind of result, for `make run` and the browser crawl.

It sits above every app whose data it makes; nothing imports it.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    name = "demo"
    verbose_name = _("Demo data")
