from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DuplicateConfig(AppConfig):
    name = "duplicate"
    verbose_name = _("Duplicate")

    def ready(self) -> None:
        from clubs.slugs import register_competition_slugs
        from duplicate.history_text import register_history_texts

        # A duplicate competition shares `/<club>/<short name>/` with paired ones.
        register_competition_slugs("duplicate.DuplicateCompetition")
        # The keys a duplicate history entry holds, named on the history pages.
        register_history_texts()
        from duplicate.divisions import DUPLICATE
        from events.divisions import register_division_kind

        # A duplicate competition can be a division of an open event (events/).
        register_division_kind(DUPLICATE)
