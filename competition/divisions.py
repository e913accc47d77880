"""A paired competition as a division of an open event: what events/ needs of it
(`events.divisions`), done by this app's own services. Registered by `CompetitionConfig`.

Django: adapters over `competition.services.entrants`.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from competition.models import Competition, Entrant
from competition.services import CompetitionError
from competition.services.entrants import entrant_add, entrant_remove
from events.divisions import DivisionKind
from events.services import EventError


def _enter(*, division: Competition, player: Player, by: Any) -> None:
    try:
        entrant_add(competition=division, player=player, by=by)
    except CompetitionError as error:
        raise EventError(error.message, code="division") from None


def _withdraw(*, division: Competition, player: Player, by: Any) -> None:
    entrant = Entrant.objects.filter(competition=division, player=player).first()
    if entrant is None:
        return
    try:
        entrant_remove(entrant=entrant, by=by)
    except CompetitionError as error:
        raise EventError(error.message, code="division") from None


PAIRED = DivisionKind(
    code="paired",
    label=_("paired"),
    divisions="competitions",
    players="entrants",
    enter=_enter,
    withdraw=_withdraw,
    create_url="event_competition_create",
    page_url="standings",
)
