"""What the board's clock says: its state now, and the thinking time of a move.

Reads only; the presses are written by games.clock. The clock's events are on the
server's time line, in ms since the clock's origin (`GameClock`); rules.clock computes
everything else from them. The server's now is `clubs.timing.clock_now`'s: one clock for
every app server, since a flag or a pause can decide a result.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from clubs.timing import clock_now
from games.models import Game, GameClock, Move
from rules import clock as rules_clock


def clock_of(game: Game) -> GameClock | None:
    """The game's clock, None when it plays without one (loaded with the game by the
    board's services, so this asks nothing more of the database there)."""
    try:
        return game.clock
    except GameClock.DoesNotExist:
        return None


def clock_ms(clock: GameClock, now: datetime | None = None) -> int:
    """``now`` on the clock's time line."""
    return int(((now or clock_now()) - clock.origin).total_seconds() * 1000)


def clock_events(clock: GameClock) -> list[rules_clock.ClockEvent]:
    return [rules_clock.ClockEvent(kind, at, player) for kind, at, player, *_by in clock.events]


def clock_state(clock: GameClock, now: datetime | None = None) -> rules_clock.ClockState:
    return rules_clock.clock_state(
        clock.budget_ms, clock_events(clock), clock_ms(clock, now), flag_ends=clock.flag_ends
    )


def think_ms(
    game: Game,
    *,
    player: int,
    turns_taken: int,
    previous: Move | None,
    now: datetime,
) -> int | None:
    """The thinking time of the turn that `player` just entered on the board, their
    `turns_taken`-th (counting from 0) of the game.

    With the clock: that turn's time on the clock, whether the player ended it on the
    clock before the move was entered or enters it while their clock still runs. A turn
    the clock did not see (entered without pressing it) takes the time between saves.
    Without a clock: unknown.
    """
    clock = clock_of(game)
    if clock is None:
        return None
    state = clock_state(clock, now)
    before = clock.turns_before[player] if player < len(clock.turns_before) else 0
    index = turns_taken - before
    theirs = [turn for turn in state.turns if turn.player == player]
    if 0 <= index < len(theirs):
        return theirs[index].used
    if index == len(theirs) and state.to_move == player:
        return state.turn_used
    if previous is not None:
        return max(0, int((now - previous.entered_at).total_seconds() * 1000))
    return None


def clock_time(ms: Any) -> str:
    """Milliseconds as minutes and whole seconds: "24:15", "-0:30" in overtime.

    >>> clock_time(1_455_500), clock_time(-30_000), clock_time(None)
    ('24:15', '-0:30', '—')
    """
    if not isinstance(ms, int) or isinstance(ms, bool):
        return "—"
    sign, ms = ("-", -ms) if ms < 0 else ("", ms)
    seconds = ms // 1000
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"
