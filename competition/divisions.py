"""A competition as a division of an open event: what events/ needs of it
(`events.divisions`), done by the app's own services. `services_kind` is the adapter
every kind of division shares (the paired competition's kind here, registered by
`CompetitionConfig`; the duplicate one in `duplicate.divisions`): it lies in the lowest
app that knows both `events` and the error every competition's services raise.

Django: adapters over the apps' services.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from competition.services import CompetitionError
from competition.services.entrants import entrant_add, entrant_remove
from events.divisions import DivisionKind
from events.services import EventError


def services_kind(
    *,
    code: str,
    label: Promise,
    divisions: str,
    players: str,
    add: Callable[..., Any],
    remove: Callable[[Any, Any], Any],
    create_url: str,
    page_url: str,
) -> DivisionKind:
    """A kind of division whose players are entered by ``add(competition=, player=, by=)``
    and taken out again by ``remove(row, by)`` (the player's row of ``players``, none: the
    player is out already); a refusal of either (`CompetitionError`) is the event's
    (`EventError`, code "division"). The other fields: as `DivisionKind` has them."""

    def enter(*, division: Any, player: Player, by: Any) -> None:
        try:
            add(competition=division, player=player, by=by)
        except CompetitionError as error:
            raise EventError(error.message, code="division") from None

    def withdraw(*, division: Any, player: Player, by: Any) -> None:
        row = getattr(division, players).filter(player=player).first()
        if row is None:
            return
        try:
            remove(row, by)
        except CompetitionError as error:
            raise EventError(error.message, code="division") from None

    return DivisionKind(
        code=code,
        label=label,
        divisions=divisions,
        players=players,
        enter=enter,
        withdraw=withdraw,
        create_url=create_url,
        page_url=page_url,
    )


PAIRED = services_kind(
    code="paired",
    label=_("paired"),
    divisions="competitions",
    players="entrants",
    add=entrant_add,
    remove=lambda entrant, by: entrant_remove(entrant=entrant, by=by),
    create_url="event_competition_create",
    page_url="standings",
)
