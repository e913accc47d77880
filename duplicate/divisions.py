"""A duplicate competition as a division of an open event: what events/ needs of it
(`events.divisions`), done by this app's own services. Registered by `DuplicateConfig`.

Django: adapters over `duplicate.services`.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from competition.services import CompetitionError
from duplicate.models import DuplicateCompetition, Participant
from duplicate.services import participant_add, participant_remove
from events.divisions import DivisionKind
from events.services import EventError


def _enter(*, division: DuplicateCompetition, player: Player, by: Any) -> None:
    try:
        participant_add(competition=division, player=player, by=by)
    except CompetitionError as error:
        raise EventError(error.message, code="division") from None


def _withdraw(*, division: DuplicateCompetition, player: Player, by: Any) -> None:
    participant = Participant.objects.filter(competition=division, player=player).first()
    if participant is None:
        return
    try:
        participant_remove(participant=participant, by=by)
    except CompetitionError as error:
        raise EventError(error.message, code="division") from None


DUPLICATE = DivisionKind(
    code="duplicate",
    label=_("duplicate"),
    divisions="duplicate_competitions",
    players="participants",
    enter=_enter,
    withdraw=_withdraw,
    create_url="event_duplicate_create",
    page_url="duplicate_evenings",
)
