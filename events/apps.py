"""Events across clubs: the federation's seasons, open events organised by a club or by a
federation, their directors, jury and entries. Below the competitions: a division of an
event is a paired `competition.Competition` or a `duplicate.DuplicateCompetition` that
points to it.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")
