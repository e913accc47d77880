"""Writes of the jury room of a big duplicate evening: a paper slip typed (a second
typing that differs kept beside it as a conflict), and the spelleider resolving one."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from clubs.locks import club_lock, row_lock
from duplicate.models import Participant, Slip, SlipConflict, Turn
from duplicate.replay import slip_text
from duplicate.services import DuplicateEveningError
from duplicate.services.shared import duplicate_check_open, duplicate_touched, turn_history
from duplicate.services.slips import slip_correct, slip_submit
from rules.duplicate import DuplicateGame


def jury_slip_type(
    *,
    turn: Turn,
    player_id: int,
    text: str,
    by: Any,
    claimed: int | None = None,
    position: DuplicateGame | None = None,
    participation: Participant | None = None,
) -> Slip | SlipConflict:
    """A paper slip typed in the jury room (never late: it was handed in on paper when the
    time was called). The first typing is the slip; a second typing of the same slip (the
    same play and claimed score) is refused and changes nothing; one that differs is kept
    beside the slip as a `SlipConflict` for the spelleider to resolve, and the slip counts
    as it is until then. `position` and `participation`: as `slip_submit` takes them."""
    try:
        return slip_submit(
            turn=turn,
            player_id=player_id,
            text=text,
            claimed=claimed,
            by=by,
            position=position,
            participation=participation,
            on_paper=True,
        )
    except DuplicateEveningError as error:
        if error.code != "slip_twice":
            raise
    return _conflict_record(
        turn=turn, player_id=player_id, text=slip_text(text), claimed=claimed, by=by
    )


def _conflict_record(
    *, turn: Turn, player_id: int, text: str, claimed: int | None, by: Any
) -> SlipConflict:
    """The second typing of the player's slip for `turn`, kept when it differs from the
    slip and from every conflict still waiting; refused otherwise."""
    with transaction.atomic():
        duplicate_check_open(turn.evening.competition_id)
        slip = row_lock(Slip.objects.standing()).filter(turn=turn, player_id=player_id).first()
        if slip is None:
            raise DuplicateEveningError(_("This slip no longer exists."), code="no_slip")
        if (slip.text, slip.claimed) == (text, claimed):
            raise DuplicateEveningError(
                _("This slip is in already, typed the same way: nothing changed."),
                code="slip_typed_twice",
            )
        if slip.conflicts.filter(resolved_at__isnull=True, text=text, claimed=claimed).exists():
            raise DuplicateEveningError(
                _("This typing of the slip waits for the spelleider already: nothing changed."),
                code="conflict_twice",
            )
        conflict = SlipConflict.objects.create(slip=slip, text=text, claimed=claimed, typed_by=by)
        turn_history(
            turn,
            by=by,
            action=HistoryAction.SLIP_CONFLICT,
            obj=slip,
            before={"turn": turn.number, "slip": slip.text, "claimed": slip.claimed},
            after={"turn": turn.number, "typed_again": text, "claimed": claimed},
        )
        duplicate_touched(competition_id=turn.evening.competition_id)
    return conflict


def slip_conflict_resolve(
    *, conflict: SlipConflict, take: bool, reason: str, by: Any
) -> SlipConflict:
    """The spelleider resolves a conflict: takes the second typing (the slip corrected to
    it and scored again, `slip_correct`) or keeps the slip as it is. The reason is
    required and kept in the history; a conflict resolved already changes nothing."""
    if not reason.strip():
        raise DuplicateEveningError(_("Give a reason for the correction."), code="no_reason")
    with transaction.atomic():
        # The club first: taking the typing corrects the slip, which holds it (clubs/locks.py).
        club_lock(conflict.slip.turn.evening.competition.club_id)
        current = (
            row_lock(SlipConflict.objects.select_related("slip__turn__evening__competition"))
            .filter(pk=conflict.pk)
            .first()
        )
        if current is None:
            raise DuplicateEveningError(_("This conflict no longer exists."), code="no_conflict")
        if not current.is_open:
            return current
        slip = current.slip
        before = {"slip": slip.text, "claimed": slip.claimed}
        if take:
            slip = slip_correct(
                slip=slip, text=current.text, claimed=current.claimed, reason=reason, by=by
            )
        current.resolved_at, current.taken = timezone.now(), take
        current.save(update_fields=["resolved_at", "taken"])
        turn_history(
            slip.turn,
            by=by,
            action=HistoryAction.SLIP_CONFLICT_RESOLVE,
            obj=slip,
            before=before,
            after={"typed_again": current.text, "claimed": current.claimed, "taken": take},
            reason=reason,
        )
        duplicate_touched(competition_id=slip.turn.evening.competition_id)
    return current
