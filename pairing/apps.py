"""Pairing: the engines (`pairing.core`, pure), the adapter that pairs a round of a
competition (`pairing.services`), the attendance and pairing pages, `manage.py pair`.

It sits above `competition`, whose rounds it fills; `competition` never imports it.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingConfig(AppConfig):
    name = "pairing"
    verbose_name = _("Pairing")
