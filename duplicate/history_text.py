"""How the history values of duplicate competitions read: each key a duplicate entry holds
named in the reader's language.

Registered with `clubs.history_display` by `DuplicateConfig.ready`.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.history_display import date_text, register
from games.rule_messages import describe_stored


def register_history_texts() -> None:
    """Name the settings, participant and evening keys of duplicate history entries."""
    from duplicate.models import DuplicateCompetition
    from duplicate.rule_fields import CHOICES, LABELS, PRESET_LABELS
    from duplicate.services import SETTINGS_FIELDS

    fields = [
        field
        for name in SETTINGS_FIELDS
        if isinstance(field := DuplicateCompetition._meta.get_field(name), models.Field)
    ]
    register(
        texts={
            "why": lambda value, reading: describe_stored(value),
            # Empty (the NTSV's) reads as a dash; the fields' own names are codes.
            "draw_rules": lambda value, reading: str(_("own draw rules")),
            "slip_rules": lambda value, reading: str(_("own slip rules")),
            "start_date": date_text,
        },
        choices={
            "preset": PRESET_LABELS.items(),
            **{key: labels.items() for key, labels in CHOICES.items()},
        },
        labels={
            **{field.name: field.verbose_name for field in fields},
            "archived": _("archived"),
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
            "slip_rules": _("slip rules"),
            "preset": _("started from"),
            **LABELS,
        },
        # "rules": its codes (standard, sbnl) are a paired competition's too, registered
        # with the same names by competition; registering them here would drop the others.
    )
