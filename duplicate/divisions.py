"""A duplicate competition as a division of an open event: what events/ needs of it
(`events.divisions`), done by this app's own services through the adapter every kind of
division shares (`competition.divisions.services_kind`). Registered by `DuplicateConfig`.

Django: adapters over `duplicate.services.participants`.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from competition.divisions import services_kind
from duplicate.services.participants import participant_add, participant_remove

DUPLICATE = services_kind(
    code="duplicate",
    label=_("duplicate"),
    divisions="duplicate_competitions",
    players="participants",
    add=participant_add,
    remove=lambda participant, by: participant_remove(participant=participant, by=by),
    create_url="event_duplicate_create",
    page_url="duplicate_evenings",
)
