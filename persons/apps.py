"""One person across clubs: a member added by a federation number already known is the
same person (a new membership, not a new record), and two records of one person are
merged, and the merge undone, with every relation moved and the history kept.

Above `clubs` alone: the merge walks the relations to `clubs.Player` that Django knows,
so it imports none of the apps that hold them.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PersonsConfig(AppConfig):
    name = "persons"
    verbose_name = _("Persons")
