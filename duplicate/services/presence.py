"""Writes of who was at an evening: a participant recorded present, absent, or left after a
turn, by the spelleider or the jury. What it means for the results is one rule,
`duplicate.ranking.turns_due`."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.inputs import validate_plain_text
from clubs.locks import row_lock
from duplicate.models import Evening, Participant, Presence
from duplicate.services import DuplicateEveningError
from duplicate.services.shared import (
    announce_when_complete,
    duplicate_check_open,
    duplicate_touched,
)

#: The longest reason kept (the form's field says the same).
REASON_MAX = 200


def _state(presence: Presence | None) -> dict[str, Any] | None:
    """A presence as its history entry keeps it (codes, never sentences)."""
    if presence is None:
        return None
    return {"presence": presence.status, "left_after_turn": presence.left_after_turn}


def _checked(status: str, left_after_turn: int | None, reason: str) -> None:
    """Refuse a value no form should send: the service is the last word on its input."""
    if status not in Presence.Status.values:
        raise DuplicateEveningError(
            _("Choose present, absent or left after a turn."), code="bad_presence"
        )
    if status == Presence.Status.LEFT:
        if (
            not isinstance(left_after_turn, int)
            or isinstance(left_after_turn, bool)
            or left_after_turn < 1
        ):
            raise DuplicateEveningError(
                _("Give the last turn the player was there for (a number from 1)."),
                code="bad_turn",
            )
    elif left_after_turn is not None:
        raise DuplicateEveningError(
            _("Only a player who left has a last turn."), code="turn_without_leaving"
        )
    if len(reason) > REASON_MAX:
        raise DuplicateEveningError(
            _("A reason is at most %(max)s characters.") % {"max": REASON_MAX},
            code="reason_too_long",
        )
    try:
        validate_plain_text(reason)
    except ValidationError as error:
        raise DuplicateEveningError(error.messages[0], code="bad_reason") from None


def presence_set(
    *,
    evening: Evening,
    participant: Participant,
    status: str,
    left_after_turn: int | None = None,
    reason: str = "",
    by: Any,
) -> Presence:
    """Record whether `participant` was at `evening`: present (a slip due for every turn),
    absent (out of the evening's ranking, no slip due) or left after turn
    `left_after_turn` (slips due up to it; a slip of a later turn does not count). The
    last turn must have been drawn. Held under the participant's row, so two devices at
    once are one after the other; the same presence again changes nothing. Kept in the
    history with the reason, and the evening's results announced when this completes
    them."""
    reason = reason.strip()
    _checked(status, left_after_turn, reason)
    if participant.competition_id != evening.competition_id:
        raise DuplicateEveningError(
            _("This player is not in this competition."), code="not_a_participant"
        )
    with transaction.atomic():
        duplicate_check_open(evening.competition_id)
        current = row_lock(Participant.objects.select_related("player")).get(pk=participant.pk)
        if not current.plays_in(evening.number):
            raise DuplicateEveningError(
                _("%(player)s has withdrawn from this evening: their presence is not kept.")
                % {"player": current.player.name},
                code="withdrawn",
            )
        if left_after_turn is not None:
            drawn = evening.turns.count()
            if left_after_turn > drawn:
                raise DuplicateEveningError(
                    _("Turn %(turn)s has not been drawn: choose a turn from 1 to %(drawn)s.")
                    % {"turn": left_after_turn, "drawn": drawn},
                    code="bad_turn",
                )
        presence = Presence.objects.filter(evening=evening, participant=current).first()
        before = _state(presence)
        if presence is None:
            presence = Presence(evening=evening, participant=current)
        presence.status, presence.left_after_turn = status, left_after_turn
        after = _state(presence)
        if before == after:
            return presence
        presence.save()
        history_record(
            club_id=evening.competition.club_id,
            by=by,
            action=HistoryAction.PRESENCE_SET,
            object_type="participant",
            object_id=current.pk,
            label=f"{current.player.name} ({evening})",
            duplicate_id=evening.competition_id,
            before=before,
            after=after,
            reason=reason,
        )
        duplicate_touched(competition_id=evening.competition_id)
    announce_when_complete(evening)
    return presence
