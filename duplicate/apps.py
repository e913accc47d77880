from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DuplicateConfig(AppConfig):
    name = "duplicate"
    verbose_name = _("Duplicate")

    def ready(self) -> None:
        # The keys a duplicate history entry holds, named on the history pages.
        from clubs.history_display import register
        from clubs.slugs import register_competition_slugs

        register_competition_slugs("duplicate.DuplicateCompetition")
        from games.rule_messages import describe_stored

        register(
            texts={
                "why": lambda value, reading: describe_stored(value),
                # Empty (the NTSV's) reads as a dash; the fields' own names are codes.
                "draw_rules": lambda value, reading: str(_("own draw rules")),
            },
            labels={
                "turn": _("turn"),
                "drawn": _("drawn"),
                "top": _("top"),
                "slip": _("slip"),
                "claimed": _("claimed score"),
                "score": _("score"),
                "why": _("why 0"),
                "rack": _("rack"),
                "late": _("late"),
                "number": _("evening"),
                "draw_rules": _("draw rules"),
            },
        )
