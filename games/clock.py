"""The board's game clock: presses checked against the server's clock, the flag kept.

The clock runs in the browser (static/games/clock.js), through a lost connection and a
reload. The server keeps every press on its own time line (ms since the clock's origin,
on the one clock every app server shares: `clubs.timing.clock_now`) and computes the
clock from them with the same rules (rules.clock), so that every device shows the same
clock, and it believes a press only at a moment it can:

- never later than its own now (plus `SKEW_MS`, for a device whose clock runs ahead);
- not earlier than `TOLERANCE_MS` before it arrived, nor before the last press it
  knows: a press cannot give its player back time that was used, nor charge it to
  another player;
- sent later by a device that had lost its connection (`queued`): kept, not refused, but
  counted no earlier than that either. The server cannot tell a lost connection from a
  press dated back on purpose (a seated player's own phone, "queued", dated just after
  the last press, would take back his thinking time and charge it to the opponent), so
  the window it did not see is charged as every connected device showed it: to the
  player whose clock was running.

Each press carries how many presses the device knew of (`sequence`): a second device
that missed one cannot press over it, and the same press sent twice (its answer lost)
counts once. Two presses at the same moment from two devices are taken one after the
other (each locks the clock's row, `games.locks.clock_lock`), so the second is answered
as if it had come a moment later: never kept over the first, never lost. When a flag
falls where that ends the game (Gouds 8), the flag fall is entered on the board for that
player, as a flag fall entered by hand is; the result follows from the rules. The presses
are the clock's own log (who and when); the start, the pauses for a dispute and the flag
also go into the game's history, with the times.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from clubs.timing import clock_now
from games import engine
from games.confirmation import game_moves_write
from games.history import game_context, record_game_change
from games.locks import clock_lock, game_lock, row_held
from games.models import Game, GameClock
from games.moves import move_add, moves_of
from games.policy import GameAction, write_refusal
from games.rule_messages import message
from games.timing import clock_events, clock_ms, clock_of, clock_state
from rules import clock as rules_clock

#: How long before its arrival a press sent at once may say it happened: the network,
#: a slow tap, a phone's clock a little behind.
TOLERANCE_MS = 3_000
#: How far ahead of the server a device's clock may run.
SKEW_MS = 1_000

MINUTE_MS = 60_000


class ClockError(Exception):
    """A press the clock does not take. `conflict`: the device missed a press (409)."""

    def __init__(self, message: Any, *, conflict: bool = False, forbidden: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.conflict = conflict
        self.forbidden = forbidden


def clock_minutes(game: Game) -> int | None:
    """Each player's minutes: the competition's own choice, else the rule set's."""
    return game.round.competition.clock_minutes or engine.ruleset_of(game).clock_minutes


def clock_view(game: Game, now: datetime | None = None) -> dict[str, Any]:
    """The clock as the board page and its script read it (JSON): the presses, the
    server's now on the clock's time line, each player's time left, whose clock runs."""
    clock = clock_of(game)
    names = [player.name for player in game.players]
    if clock is None:
        return {"started": False, "minutes": clock_minutes(game), "names": names}
    now = now or clock_now()
    state = clock_state(clock, now)
    return {
        "started": True,
        "names": names,
        "budget": clock.budget_ms,
        "flag_ends": clock.flag_ends,
        "events": [event[:3] for event in clock.events],
        "sequence": len(clock.events),
        "now": clock_ms(clock, now),
        "left": list(state.left),
        "running": state.running,
        "to_move": state.to_move,
        "paused": state.paused,
        "flag": state.flag,
    }


def _locked(game: Game, by: AbstractBaseUser | None) -> Game:
    """The game's row and then its clock's, locked: a press changes the clock's row alone,
    so a second press at the same moment waits for the first and reads the clock with it."""
    locked = game_lock(
        game,
        expected_version=None,
        stale=lambda: ClockError(""),
        related=("round__competition__club",),
    )
    clock_lock(locked)
    refusal = write_refusal(locked, by, GameAction.MOVES)
    if refusal is not None:
        raise ClockError(refusal.message, forbidden=refusal.forbidden)
    return locked


def _by(by: AbstractBaseUser | None) -> int | None:
    return by.pk if by is not None and by.is_authenticated else None


@transaction.atomic
def clock_start(
    *, game: Game, by: AbstractBaseUser | None, now: datetime | None = None
) -> GameClock:
    """Switch the clock on for the player to move: each player gets the competition's
    (or the rule set's) minutes."""
    locked = _locked(game, by)
    now = now or clock_now()
    if clock_of(locked) is not None:
        raise ClockError(message("clock_already_started", {}), conflict=True)
    minutes = clock_minutes(locked)
    if not minutes:
        raise ClockError(_("These rules prescribe no time: choose the minutes per player first."))
    rows = moves_of(locked)
    replayed = engine.replay(locked, rows)
    current = replayed.engine
    if current.is_over:
        raise ClockError(message("game_over", {}))
    if locked.starter is None:
        raise ClockError(_("Record who starts first."))
    to_move = current.to_move if current.to_move is not None else 0
    players = len(current.players)
    taken = [
        sum(1 for r in replayed.results if r and r.is_turn and r.player == p)
        for p in range(players)
    ]
    clock = GameClock.objects.create(
        game=locked,
        budget_ms=[minutes * MINUTE_MS] * players,
        flag_ends=current.rules.flag_fall_loses,
        origin=now,
        events=[[rules_clock.START, 0, to_move, _by(by)]],
        turns_before=taken,
    )
    locked.clock = clock
    _history(locked, by, HistoryAction.CLOCK_START, clock, now)
    return clock


@transaction.atomic
def clock_press(
    *,
    game: Game,
    kind: str,
    player: int | None,
    sequence: int,
    at: int,
    queued: bool = False,
    by: AbstractBaseUser | None,
    now: datetime | None = None,
) -> GameClock:
    """One press of the clock (a switch, a pause, a resume) at ``at`` ms on the clock's
    time line, as the device saw it; see the module's docstring for what is believed."""
    locked = _locked(game, by)
    now = now or clock_now()
    clock = clock_of(locked)
    if clock is None:
        raise ClockError(message("clock_not_started", {}), conflict=True)
    if kind not in (rules_clock.SWITCH, rules_clock.PAUSE, rules_clock.RESUME):
        raise ClockError(message("clock_unknown_event", {}))
    known = clock.events
    if sequence < len(known):
        kept = known[sequence]
        if kept[0] == kind and kept[2] == player and sequence == len(known) - 1:
            return clock  # the same press again: its answer was lost
        raise ClockError(_stale(), conflict=True)
    if sequence > len(known):
        raise ClockError(_stale(), conflict=True)
    server_now = clock_ms(clock, now)
    last = known[-1][1]
    if at > server_now + SKEW_MS:
        raise ClockError(_("The clock of this device runs ahead: this press cannot be taken."))
    earliest = max(last, server_now - TOLERANCE_MS)
    if at < earliest and not queued:
        raise ClockError(_("This press says it was made earlier than it can have been."))
    event = rules_clock.ClockEvent(kind, min(max(at, earliest), server_now), player)
    problem = rules_clock.event_problem(
        clock.budget_ms, clock_events(clock), event, flag_ends=clock.flag_ends
    )
    if problem == "clock_flag_fallen":
        # Too late: the flag fell before this press. What the board then shows is that.
        clock_flag_record(locked, by=by, now=now)
        return clock
    if problem is not None:
        raise ClockError(message(problem, {}))
    clock.events = [*known, [event.kind, event.at, event.player, _by(by)]]
    clock.save(update_fields=["events"])
    if kind != rules_clock.SWITCH:
        paused = kind == rules_clock.PAUSE
        action = HistoryAction.CLOCK_PAUSE if paused else HistoryAction.CLOCK_RESUME
        _history(locked, by, action, clock, now)
    return clock


def clock_flag_record(
    game: Game, *, by: AbstractBaseUser | None, now: datetime | None = None
) -> bool:
    """Enter the flag fall on the board once the server's clock shows it, for the player
    whose flag fell, when the moves are in step with the clock (that player to move on
    the board too; else it waits for the move that is still to be entered). In the
    transaction of the caller, which holds the game's and the clock's rows. True when it
    entered it."""
    now = now or clock_now()
    clock = clock_of(game)
    if clock is None or not clock.flag_ends:
        return False
    state = clock_state(clock, now)
    if state.flag is None:
        return False
    current = engine.replay(game, moves_of(game)).engine
    if current.is_over or current.to_move != state.flag:
        return False
    with row_held(game):
        game_moves_write(
            game=game,
            by=by,
            write=lambda locked: move_add(game=locked, notation="(flagfall)", by=by, now=now),
        )
    _history(game, by, HistoryAction.CLOCK_FLAG, clock, now, state=state)
    return True


@transaction.atomic
def clock_flag(*, game: Game, by: AbstractBaseUser | None, now: datetime | None = None) -> bool:
    """A device saw a flag fall: entered when the server's own clock agrees."""
    locked = _locked(game, by)
    if clock_of(locked) is None:
        raise ClockError(message("clock_not_started", {}), conflict=True)
    return clock_flag_record(locked, by=by, now=now)


def _stale() -> Any:
    return _("The clock was pressed on another device in the meantime: it shows the clock now.")


def _history(
    game: Game,
    by: AbstractBaseUser | None,
    action: str,
    clock: GameClock,
    now: datetime,
    *,
    state: rules_clock.ClockState | None = None,
) -> None:
    """The clock's start, a pause, a resume or the flag, with each player's time left."""
    state = state or clock_state(clock, now)
    after: dict[str, Any] = {"left_ms": list(state.left)}
    if state.flag is not None:
        after.update(flag=state.flag, flag_at_ms=state.flag_at)
    record_game_change(game_context(game), by=by, action=action, before=None, after=after, at=now)
