"""The hosted service: clubs that sign themselves up, and the operator above the clubs.

It sits above the apps it serves and none of them imports it.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HostingConfig(AppConfig):
    name = "hosting"
    verbose_name = _("Hosting")

    def ready(self) -> None:
        # A logout ends the operator's acting for a club: recorded as a stop would be.
        from django.contrib.auth.signals import user_logged_out

        from hosting.signals import acting_ends_at_logout

        user_logged_out.connect(acting_ends_at_logout, dispatch_uid="hosting.acting_logout")
