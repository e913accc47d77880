"""Results by the players, confirmed by the others at the table.

In a published round every player of a game may enter its result (a final score, or move
by move on the board). It is provisional until every other player at the table who came
has confirmed it from their own account (`seats_to_confirm`); when one of them enters
another result the game is disputed, and the club's secretary decides. A result the
secretary enters is confirmed at once. Who stands behind the entered result is each
seat's `confirmed`.

Every function here locks the game row first (the one lock order of games/services.py),
checks the version the page showed, and writes its history entry in the same transaction.
The result itself is always written by `games.services.game_record_result` or the moves
services, which keep their own history; this module adds who stands behind it.
Imports nothing from competition.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from games.history import game_context, record_game_change
from games.locks import game_lock, row_held
from games.models import Confirmation, Game, Outcome, Seat
from games.moves import MoveError
from games.policy import SECRETARY, GameAction, Role, role_in_game, write_refusal
from games.services import (
    ResultError,
    ResultInput,
    TableResult,
    game_record_result,
    result_fields,
    result_of,
)
from games.signals import game_changed, result_awaits

T = TypeVar("T")


class ConfirmationError(ResultError):
    """Entering or confirming refused; the message is for the person who tried
    (`forbidden`: that person may not touch this game at all, a 403, not a form error)."""


def _stale_result() -> ConfirmationError:
    return ConfirmationError(
        _("Someone else changed this result in the meantime. Check it and try again.")
    )


def game_action_check(
    game: Game, by: AbstractBaseUser | None, action: GameAction, *, has_moves: bool | None = None
) -> Role:
    """`by`'s role in `game` ("secretary" or a seat's position); raises `ConfirmationError` with the
    reason when `by` may not take `action` (`games.policy`, the one rule)."""
    refusal = write_refusal(game, by, action, has_moves=has_moves)
    if refusal is not None:
        raise ConfirmationError(refusal.message, forbidden=refusal.forbidden)
    role = role_in_game(game, by)
    assert role is not None  # a refusal otherwise
    return role


def _locked(game: Game, *, by: AbstractBaseUser | None, expected_version: int | None) -> Game:
    """The game row, locked for the write (`games.locks`)."""
    locked = game_lock(
        game,
        expected_version=expected_version,
        stale=_stale_result,
        related=("round__competition__club", "clock"),
    )
    return locked


def seats_to_confirm(game: Game) -> frozenset[int]:
    """The seats whose confirmation an entered result waits for: every player who came.
    Who did not come (a walk-over at a table the others played at) was not there to see
    it; but one player alone confirms nothing, so a result that leaves one who came waits
    for everyone at the table (or the secretary)."""
    came = frozenset(seat.position for seat in game.seat_list if not seat.forfeited)
    return came if len(came) >= 2 else frozenset(seat.position for seat in game.seat_list)


def _state_of(game: Game) -> dict[str, Any]:
    """What the history keeps of a game's result and who stands behind it."""
    return {
        **result_of(game).snapshot(),
        "confirmation": game.confirmation,
        "entered_by_player": game.claimed_by,
        "confirmed_by": [seat.position for seat in game.seat_list if seat.confirmed],
    }


def _record(game: Game, *, by, action: str, before, after, reason: str = "", now=None) -> None:
    record_game_change(
        game_context(game), by=by, action=action, before=before, after=after, reason=reason, at=now
    )


def _save_confirmation(
    game: Game,
    *,
    confirmation: str,
    claimed_by: int | None = None,
    counter=None,
    confirmed: set[int] | None = None,
):
    """Store who stands behind the result: `confirmed` the seats that do (None: all)."""
    game.confirmation = confirmation
    game.claimed_by = claimed_by
    game.counter_result = counter or {}
    seats = game.seat_list
    for seat in seats:
        seat.confirmed = confirmed is None or seat.position in confirmed
    Seat.objects.bulk_update(seats, ["confirmed"])
    game.version += 1
    game.save(update_fields=["confirmation", "claimed_by", "counter_result", "version"])
    game_changed.send(sender=Game, round_id=game.round_id, result_changed=True)
    if confirmation in (Confirmation.PROVISIONAL, Confirmation.DISPUTED):
        result_awaits.send(sender=Game, game_id=game.pk, confirmation=confirmation)


@transaction.atomic
def game_result_enter(
    *,
    game: Game,
    result: ResultInput,
    by: AbstractBaseUser | None,
    reason: str = "",
    expected_version: int | None = None,
    now: datetime | None = None,
) -> Game:
    """Enter a game's result as one of its players or as the club's secretary.

    What each may do is `game_actions_for`'s rule, checked here first. A player's result
    is provisional until every other player at the table confirms it. When another player
    already entered one, the same result confirms it and another disputes it (the stored
    result stays; the other is kept beside it for the secretary). The secretary's result
    is confirmed at once.
    """
    now = now or timezone.now()
    locked = _locked(game, by=by, expected_version=expected_version)
    role = game_action_check(locked, by, GameAction.ENTER)
    fields = result_fields(result, len(locked.seat_list))
    if role == SECRETARY:
        return game_record_result(
            game=locked, result=result, by=by, reason=reason, now=now, action=GameAction.ENTER
        )
    if locked.confirmation == Confirmation.PROVISIONAL and locked.claimed_by != role:
        if fields == result_of(locked):
            return _confirm(locked, role=role, by=by, reason=reason, now=now)
        return _dispute(locked, role=role, fields=fields, by=by, reason=reason, now=now)
    # Not entered yet, or the player's own entry that awaits the others: (re)enter it.
    locked = game_record_result(
        game=locked, result=result, by=by, reason=reason, now=now, action=GameAction.ENTER
    )
    _save_confirmation(
        locked, confirmation=Confirmation.PROVISIONAL, claimed_by=role, confirmed={role}
    )
    return locked


@transaction.atomic
def game_result_confirm(
    *,
    game: Game,
    by: AbstractBaseUser | None,
    reason: str = "",
    expected_version: int | None = None,
    now: datetime | None = None,
) -> Game:
    """Another player at the table (or the secretary) confirms the result as it was entered."""
    locked = _locked(game, by=by, expected_version=expected_version)
    role = game_action_check(locked, by, GameAction.CONFIRM)
    return _confirm(locked, role=role, by=by, reason=reason, now=now or timezone.now())


@transaction.atomic
def game_result_override(
    *,
    game: Game,
    result: ResultInput,
    by: AbstractBaseUser | None,
    reason: str,
    expected_version: int | None = None,
    now: datetime | None = None,
) -> Game:
    """The secretary decides the result (of a disputed game, usually), with a reason."""
    now = now or timezone.now()
    locked = _locked(game, by=by, expected_version=expected_version)
    game_action_check(locked, by, GameAction.OVERRIDE)
    fields = result_fields(result, len(locked.seat_list))
    if not reason.strip():
        raise ConfirmationError(_("Give a reason for the decision."))
    before = {**_state_of(locked), "counter_result": locked.counter_result}
    if fields != result_of(locked):
        locked = game_record_result(
            game=locked,
            result=result,
            by=by,
            reason=reason,
            now=now,
            action=GameAction.OVERRIDE,
        )
    _save_confirmation(locked, confirmation=Confirmation.CONFIRMED)
    _record(
        locked,
        by=by,
        action=HistoryAction.RESULT_OVERRIDE,
        before=before,
        after=_state_of(locked),
        reason=reason,
        now=now,
    )
    return locked


def _confirm(locked: Game, *, role: Role, by, reason: str, now: datetime) -> Game:
    """`role`'s seat stands behind the result; confirmed once every seat of
    `seats_to_confirm` does (the secretary's confirmation confirms it for the table)."""
    before = _state_of(locked)
    confirmed = {seat.position for seat in locked.seat_list if seat.confirmed}
    if role != SECRETARY:
        confirmed.add(role)
    if role == SECRETARY or seats_to_confirm(locked) <= confirmed:
        _save_confirmation(locked, confirmation=Confirmation.CONFIRMED)
    else:
        _save_confirmation(
            locked,
            confirmation=Confirmation.PROVISIONAL,
            claimed_by=locked.claimed_by,
            confirmed=confirmed,
        )
    _record(
        locked,
        by=by,
        action=HistoryAction.RESULT_CONFIRM,
        before=before,
        after=_state_of(locked),
        reason=reason,
        now=now,
    )
    return locked


def _dispute(
    locked: Game, *, role: int, fields: TableResult, by, reason: str, now: datetime
) -> Game:
    before = _state_of(locked)
    counter = {**fields.snapshot(), "by": role}
    _save_confirmation(
        locked,
        confirmation=Confirmation.DISPUTED,
        claimed_by=locked.claimed_by,
        counter=counter,
        confirmed={seat.position for seat in locked.seat_list if seat.confirmed},
    )
    _record(
        locked,
        by=by,
        action=HistoryAction.RESULT_DISPUTE,
        before=before,
        after={**_state_of(locked), **{f"counter_{key}": value for key, value in counter.items()}},
        reason=reason,
        now=now,
    )
    return locked


@transaction.atomic
def game_moves_write(*, game: Game, by: AbstractBaseUser | None, write: Callable[[Game], T]) -> T:
    """Run one of games.moves' writes (`write(locked_game)`) for a player or a secretary.

    A player may change the moves of their own game while its round is published and the
    result is neither confirmed nor disputed; a result that follows from a player's moves
    is provisional, for the opponent to confirm. The secretary's moves give a confirmed
    result. Raises `MoveError`, as the moves services do.
    """
    try:
        locked = _locked(game, by=by, expected_version=None)
        role = game_action_check(locked, by, GameAction.MOVES)
    except ConfirmationError as error:
        raise MoveError(error.message) from None
    before = result_of(locked)
    with row_held(locked):
        written = write(locked)  # on `locked` itself: what it wrote is on the instance
    if result_of(locked) != before:
        if locked.outcome == Outcome.PENDING or role == SECRETARY:
            confirmation, claimed_by, confirmed = Confirmation.CONFIRMED, None, None
        else:
            confirmation, claimed_by, confirmed = Confirmation.PROVISIONAL, role, {role}
        if (locked.confirmation, locked.claimed_by) != (confirmation, claimed_by):
            _save_confirmation(
                locked, confirmation=confirmation, claimed_by=claimed_by, confirmed=confirmed
            )
    return written
