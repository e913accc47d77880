"""How an event's history values read: its settings' labels and codes, in the reader's
language. Registered with `clubs.history_display` by `EventsConfig.ready`.

Django: model fields' verbose names and choices.
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import Field

from clubs.history_display import moment_text, register
from events.models import Event


def _label(name: str) -> Any:
    return cast("Field[Any, Any]", Event._meta.get_field(name)).verbose_name


def register_history_texts() -> None:
    register(
        labels={
            "event_kind": _label("kind"),
            "entry_by_players": _label("entry_by_players"),
            "entry_by_clubs": _label("entry_by_clubs"),
            "guests_allowed": _label("guests_allowed"),
            "entry_closes_at": _label("entry_closes_at"),
        },
        choices={"event_kind": Event.Kind.choices},
        texts={"entry_closes_at": moment_text},
    )
