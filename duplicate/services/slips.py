"""Writes of a player's slip: handed in (from the phone, or typed from paper), a late
one accepted by the spelleider, one corrected with a reason. Each is scored by the
engine on its turn's board and rack, held while it is scored (`shared.turn_held`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from clubs.locks import club_lock, row_lock
from clubs.timing import clock_now
from duplicate.models import Evening, Participant, Slip, Turn
from duplicate.replay import evening_slip_rules, master_game, slip_judged, slip_text, turn_drawn
from duplicate.services import DuplicateEveningError
from duplicate.services.shared import (
    announce_correction,
    announce_when_complete,
    duplicate_check_open,
    duplicate_touched,
    turn_held,
    turn_history,
)
from games.rule_messages import coded
from rules.duplicate import DuplicateGame
from rules.referee import SlipRules


def _scored(
    turn: Turn,
    text: str,
    claimed: int | None,
    position: DuplicateGame | None = None,
    rules: SlipRules | None = None,
) -> dict[str, Any]:
    """What the engine makes of a slip, read in the club's notation, on the board and rack
    of its turn (`position`: the master game with this turn's rack drawn, when the caller
    has it; `rules`: the evening's slip rules, when the caller has read them)."""
    if position is None or (position.turn_number, position.rack) != (turn.number, turn.rack):
        turns = list(turn.evening.turns.filter(number__lt=turn.number).order_by("number"))
        position = master_game(turn.evening, turns)
        turn_drawn(position, turn)
    notation = turn.evening.competition.club.notation
    return slip_judged(position, turn, text, claimed, notation, rules)


def _plays_this_evening(
    evening: Evening, player_id: int, participation: Participant | None = None
) -> bool:
    """Whether the player is entered in the evening's competition and not withdrawn before
    this evening (`Participant.plays_in`); `participation`: the player's entry as the
    caller has read it. Read before the write lock: a withdrawal is the spelleider's act
    between turns, and the ranking leaves a withdrawn player out whatever slips are in."""
    if participation is None or (participation.competition_id, participation.player_id) != (
        evening.competition_id,
        player_id,
    ):
        participation = (
            Participant.objects.filter(competition_id=evening.competition_id, player_id=player_id)
            .order_by()
            .first()
        )
    return participation is not None and participation.plays_in(evening.number)


def _check_not_redrawn(turn: Turn, position: DuplicateGame | None) -> None:
    """Refuse a slip written on a rack the spelleider has since drawn again (`turn_redo`):
    ``position``, the turn as the page read it, holds another rack than the turn now. Its
    player hands in again on the new rack (the redo voided what was in before it)."""
    if position is not None and position.turn_number == turn.number and position.rack != turn.rack:
        raise DuplicateEveningError(
            _("Turn %(turn)s was drawn again: write your slip for the new rack.")
            % {"turn": turn.number},
            code="turn_redrawn",
        )


def slip_submit(
    *,
    turn: Turn,
    player_id: int,
    text: str,
    by: Any,
    claimed: int | None = None,
    position: DuplicateGame | None = None,
    participation: Participant | None = None,
    on_paper: bool = False,
    arrived_at: datetime | None = None,
) -> Slip:
    """Hand in a player's slip: scored at once; a second slip for the turn is refused
    (a correction goes through `slip_correct`). A slip from the player's phone that
    arrives after the turn's time or after the top is marked late (`Turn.in_time`): kept
    with the engine's score, counting 0 until accepted. ``arrived_at``: when the slip
    reached us, on the shared clock (`clubs.timing.arrived_at`, which the page takes):
    time spent waiting for a worker, or for the turn held here, never makes a slip late;
    now on that clock when not given. A paper
    slip typed by the secretary (``on_paper``) is never late: it was handed in on paper
    when the time was called, and is typed afterwards by nature.
    `position`: the master game with the turn's rack drawn, as the caller read it; used
    when the rack is still that one. `participation`: the player's entry in the
    competition, as the caller read it (read here otherwise). Whether the competition is
    archived is refused by `duplicate_touched`, at the end of the same transaction."""
    # A paper slip meets no clock: the shared clock is not asked (a query on PostgreSQL).
    arrived = None if on_paper else arrived_at or clock_now()
    text = slip_text(text)
    if claimed is not None and not 0 <= claimed <= 9999:
        raise DuplicateEveningError(_("A score is a whole number 0–9999."), code="bad_claim")
    if not _plays_this_evening(turn.evening, player_id, participation):
        raise DuplicateEveningError(
            _("This player does not play in this competition this evening."),
            code="not_an_entrant",
        )
    try:
        with transaction.atomic():
            turn = turn_held(turn)
            _check_not_redrawn(turn, position)
            rules = evening_slip_rules(turn.evening)
            scored = _scored(turn, text, claimed, position, rules)
            slip = Slip.objects.create(
                turn=turn,
                player_id=player_id,
                text=text,
                claimed=claimed,
                late=arrived is not None and not turn.in_time(arrived, rules.grace_seconds),
                **scored,
            )
            turn_history(
                turn,
                by=by,
                action=HistoryAction.SLIP_SUBMIT,
                obj=slip,
                after={
                    "turn": turn.number,
                    "slip": text,
                    "claimed": claimed,
                    "score": scored["score"],
                    "why": coded(scored["reason_code"], scored["reason_params"])
                    if scored["reason_code"]
                    else None,
                    "late": slip.late,
                },
            )
            duplicate_touched(competition_id=turn.evening.competition_id)
            if not turn.is_open:  # an open turn: the game goes on, nothing is complete
                announce_when_complete(turn.evening)
    except IntegrityError:
        raise DuplicateEveningError(
            _("This player's slip for turn %(turn)s is already in.") % {"turn": turn.number},
            code="slip_twice",
        ) from None
    return slip


def _not_standing(slip: Slip) -> DuplicateEveningError:
    """Why a slip cannot be changed: its turn was drawn again (void), or it is gone."""
    if Slip.objects.filter(pk=slip.pk, void=True).exists():
        return DuplicateEveningError(
            _("This slip is void: its turn was drawn again."), code="slip_void"
        )
    return DuplicateEveningError(_("This slip no longer exists."), code="no_slip")


def slip_accept_late(*, slip: Slip, reason: str, by: Any) -> Slip:
    """The spelleider accepts a late slip (a phone that lost its connection): from now on
    it counts as one in time, with the score the engine gave it when it came in. The
    reason is required and kept in the history; a second acceptance changes nothing."""
    if not reason.strip():
        raise DuplicateEveningError(
            _("Give a reason for accepting the late slip."), code="no_reason"
        )
    turn = slip.turn
    with transaction.atomic():
        duplicate_check_open(turn.evening.competition_id)
        club_lock(turn.evening.competition.club_id)  # before the slip: announce_correction
        current = row_lock(Slip.objects.standing()).filter(pk=slip.pk).first()
        if current is None:
            raise _not_standing(slip)
        if not current.late:
            raise DuplicateEveningError(_("This slip was handed in on time."), code="not_late")
        if current.late_accepted:
            return current
        current.late_accepted = True
        current.save(update_fields=["late_accepted"])
        turn_history(
            turn,
            by=by,
            action=HistoryAction.SLIP_ACCEPT_LATE,
            obj=current,
            # The score as it counts: 0 while late, the engine's once accepted.
            before={"slip": current.text, "score": 0, "late_accepted": False},
            after={"slip": current.text, "score": current.score, "late_accepted": True},
            reason=reason,
        )
        duplicate_touched(competition_id=turn.evening.competition_id)
        announce_correction(turn.evening)
    return current


def slip_correct(
    *, slip: Slip, text: str, reason: str, by: Any, claimed: int | None = None
) -> Slip:
    """Correct a slip (a typing error of the secretary, a misread slip): scored again;
    the reason is required and kept in the history with the slip before and after."""
    if not reason.strip():
        raise DuplicateEveningError(_("Give a reason for the correction."), code="no_reason")
    text = slip_text(text)
    duplicate_check_open(slip.turn.evening.competition_id)
    with transaction.atomic():
        club_lock(slip.turn.evening.competition.club_id)  # before the turn: announce_correction
        turn = turn_held(slip.turn)
        scored = _scored(turn, text, claimed)
        before = {"slip": slip.text, "claimed": slip.claimed, "score": slip.score}
        standing = Slip.objects.standing().filter(pk=slip.pk)
        changed = standing.update(text=text, claimed=claimed, **scored)
        if not changed:
            raise _not_standing(slip)
        slip.refresh_from_db()
        after = {"slip": slip.text, "claimed": slip.claimed, "score": slip.score}
        if before == after:
            return slip
        turn_history(
            turn,
            by=by,
            action=HistoryAction.SLIP_CORRECT,
            obj=slip,
            before=before,
            after=after,
            reason=reason,
        )
        duplicate_touched(competition_id=turn.evening.competition_id)
        announce_correction(turn.evening)
    return slip
