"""Privacy (AVG/GDPR): what Bordpunt keeps about a person, their copy of it, and erasure.

It sits above every app that keeps personal data, and none of them imports it.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrivacyConfig(AppConfig):
    name = "privacy"
    verbose_name = _("Privacy")
