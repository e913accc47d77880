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

    def ready(self) -> None:
        from events.history_text import register_history_texts

        # The keys an event's history entry holds, named on the history pages.
        register_history_texts()
