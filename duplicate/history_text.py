"""How the history values of duplicate competitions read: each key a duplicate entry holds
named in the reader's language.

Registered with `clubs.history_display` by `DuplicateConfig.ready`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from clubs.history_display import Reading, date_text, register
from games.rule_messages import describe_stored


def clock_time(value: Any, reading: Reading | None = None) -> str:
    """A turn's deadline (stored as an ISO moment) as the room's clock shows it, to the
    second ("20:03:30"): the evening's date is the entry's own."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return formats.time_format(moment, "H:i:s")


def register_history_texts() -> None:
    """Name the settings, participant and evening keys of duplicate history entries."""
    from duplicate.models import DuplicateCompetition, Presence
    from duplicate.rule_fields import CHOICES, LABELS, PRESET_LABELS
    from duplicate.services.competitions import SETTINGS_FIELDS

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
            "deadline": clock_time,
        },
        choices={
            "preset": PRESET_LABELS.items(),
            "presence": Presence.Status.choices,
            **{key: labels.items() for key, labels in CHOICES.items()},
        },
        labels={
            **{field.name: field.verbose_name for field in fields},
            "archived": _("archived"),
            # Kept by entries made before the time per turn became a rule (duplicate/0008).
            "think_seconds": _("thinking time per turn (seconds)"),
            "turn": _("turn"),
            "drawn": _("drawn"),
            "top": _("top"),
            "slip": _("slip"),
            "claimed": _("claimed score"),
            "score": _("score"),
            "why": _("why 0"),
            "rack": _("rack"),
            "late": _("late"),
            "late_accepted": _("late slip accepted"),
            "void": _("void"),
            "typed_again": _("typed again"),
            "taken": _("second typing taken"),
            "table": _("table"),
            "presence": _("presence"),
            "left_after_turn": _("left after turn"),
            "deadline": _("time up at"),
            "added_seconds": _("seconds added"),
            "number": _("evening"),
            "draw_rules": _("draw rules"),
            "slip_rules": _("slip rules"),
            "preset": _("started from"),
            **LABELS,
        },
        # "rules": its codes (standard, sbnl) are a paired competition's too, registered
        # with the same names by competition; registering them here would drop the others.
    )
