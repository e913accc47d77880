"""How an event's history values read: its settings' labels and codes, in the reader's
language. Registered with `clubs.history_display` by `EventsConfig.ready`.

Django: model fields' verbose names and choices.
"""

from __future__ import annotations

from clubs.history_display import moment_text, register
from events.models import Event


def register_history_texts() -> None:
    field = Event._meta.get_field
    register(
        labels={
            "event_kind": field("kind").verbose_name,
            "entry_by_players": field("entry_by_players").verbose_name,
            "entry_by_clubs": field("entry_by_clubs").verbose_name,
            "guests_allowed": field("guests_allowed").verbose_name,
            "entry_closes_at": field("entry_closes_at").verbose_name,
        },
        choices={"event_kind": Event.Kind.choices},
        texts={"entry_closes_at": moment_text},
    )
