"""The game clock at the table, as a pure function of what happened to it.

A clock is a list of events on one time line, in milliseconds: ``start`` (the first
player's clock runs: "de beurt vangt aan bij het inschakelen van de klok", Gouds 8 rule 1),
``switch`` (the player to move ends the turn, the next player's clock starts, in seat
order: 2, 3 or 4 players), ``pause`` (a dispute: "bezwaar ... door de klok stil te zetten",
rule 7) and ``resume``. Everything a clock shows follows from those events and the present
moment: each player's time left, whose clock runs, whose flag fell and when, and how long
every turn took. A reload or a second device recomputes the same; nothing is counted
down anywhere that could be lost.

A flag falls when the running player's time left reaches zero. Under rules where a flag
fall ends the game (Gouds 8), the clock stops there and takes no further event; under
others the time runs on below zero (overtime, penalised per started minute at the end).

>>> events = [ClockEvent(START, 0, 0), ClockEvent(SWITCH, 60_000, 0)]
>>> state = clock_state((1_500_000, 1_500_000), events, now=90_000)
>>> state.left, state.running
((1440000, 1470000), 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

START = "start"
SWITCH = "switch"
PAUSE = "pause"
RESUME = "resume"
KINDS = (START, SWITCH, PAUSE, RESUME)


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """What happened to the clock at ``at`` (ms on the clock's time line). ``player``:
    for ``start`` who moves first, for ``switch`` who ended the turn (their button)."""

    kind: str
    at: int
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn: whose, when it began and ended, and the thinking time it used
    (a pause within it not counted)."""

    player: int
    started: int
    ended: int
    used: int


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock at one moment. ``left`` is per player in ms (below zero in overtime);
    ``running`` whose time runs now (None before the start, while paused, after a flag
    that ends the game); ``to_move`` whose turn it is, also while paused."""

    left: tuple[int, ...]
    running: int | None
    to_move: int | None
    paused: bool
    flag: int | None
    flag_at: int | None
    turns: tuple[Turn, ...]
    #: Thinking time used so far in the turn that has not ended.
    turn_used: int

    @property
    def started(self) -> bool:
        return self.to_move is not None or self.flag is not None

    @property
    def stopped(self) -> bool:
        """A flag fell under rules where that ends the game: the clock takes nothing more."""
        return self.flag is not None and self.running is None and not self.paused


class _Clock:
    """The running computation of `clock_state`: one event at a time."""

    def __init__(self, budget: Sequence[int], flag_ends: bool) -> None:
        self.left = list(budget)
        self.flag_ends = flag_ends
        self.to_move: int | None = None
        self.paused = False
        self.since = 0  # when the running clock last started (or resumed)
        self.turn_start = 0
        self.turn_used = 0
        self.flag: int | None = None
        self.flag_at: int | None = None
        self.stopped = False
        self.turns: list[Turn] = []

    @property
    def running(self) -> int | None:
        if self.to_move is None or self.paused or self.stopped:
            return None
        return self.to_move

    def run_until(self, moment: int) -> None:
        """Let the running clock run to ``moment``; a flag that falls on the way is noted
        (and, where it ends the game, stops the clock at that instant)."""
        player = self.running
        if player is None or moment <= self.since:
            return
        elapsed = moment - self.since
        if self.flag is None and self.left[player] - elapsed <= 0:
            self.flag, self.flag_at = player, self.since + max(self.left[player], 0)
            if self.flag_ends:
                self.turn_used += max(self.left[player], 0)
                self.left[player] = 0
                self.since = self.flag_at
                self.stopped = True
                return
        self.left[player] -= elapsed
        self.turn_used += elapsed
        self.since = moment

    def apply(self, event: ClockEvent) -> None:
        self.run_until(event.at)
        if self.stopped:
            return
        players = len(self.left)
        if event.kind == START:
            self.to_move = event.player or 0
            self.since = self.turn_start = event.at
        elif event.kind == SWITCH and self.to_move is not None:
            self.turns.append(Turn(self.to_move, self.turn_start, event.at, self.turn_used))
            self.to_move = (self.to_move + 1) % players
            self.since = self.turn_start = event.at
            self.turn_used = 0
        elif event.kind == PAUSE:
            self.paused = True
        elif event.kind == RESUME:
            self.paused = False
            self.since = event.at

    def state(self) -> ClockState:
        return ClockState(
            left=tuple(self.left),
            running=self.running,
            to_move=self.to_move,
            paused=self.paused,
            flag=self.flag,
            flag_at=self.flag_at,
            turns=tuple(self.turns),
            turn_used=self.turn_used,
        )


def clock_state(
    budget: Sequence[int], events: Sequence[ClockEvent], now: int, *, flag_ends: bool = True
) -> ClockState:
    """The clock at ``now`` after ``events`` (checked ones: see `event_problem`), for
    players with ``budget`` ms each.

    >>> budget = (60_000, 60_000)
    >>> events = [ClockEvent(START, 0, 0), ClockEvent(PAUSE, 10_000), ClockEvent(RESUME, 40_000)]
    >>> clock_state(budget, events, now=45_000).left  # the 30 s pause does not count
    (45000, 60000)
    >>> flagged = clock_state(budget, events[:1], now=75_000)
    >>> flagged.flag, flagged.flag_at, flagged.left, flagged.stopped
    (0, 60000, (0, 60000), True)
    >>> clock_state(budget, events[:1], now=75_000, flag_ends=False).left  # overtime
    (-15000, 60000)
    """
    clock = _Clock(budget, flag_ends)
    for event in events:
        clock.apply(event)
    clock.run_until(now)
    return clock.state()


def event_problem(
    budget: Sequence[int], events: Sequence[ClockEvent], event: ClockEvent, *, flag_ends: bool
) -> str | None:
    """Why ``event`` cannot follow ``events`` (an error code of `rules.errors`), or None.

    >>> budget = (60_000, 60_000)
    >>> event_problem(budget, [], ClockEvent(SWITCH, 5, 0), flag_ends=True)
    'clock_not_started'
    >>> started = [ClockEvent(START, 0, 0)]
    >>> event_problem(budget, started, ClockEvent(SWITCH, 5_000, 1), flag_ends=True)
    'clock_not_your_turn'
    >>> event_problem(budget, started, ClockEvent(SWITCH, 61_000, 0), flag_ends=True)
    'clock_flag_fallen'
    """
    if event.kind not in KINDS:
        return "clock_unknown_event"
    if event.player is not None and not 0 <= event.player < len(budget):
        return "clock_unknown_player"
    if events and event.at < events[-1].at:
        return "clock_time_backwards"
    if event.kind == START:
        return "clock_already_started" if events else None
    if not events:
        return "clock_not_started"
    state = clock_state(budget, events, event.at, flag_ends=flag_ends)
    if state.stopped:
        return "clock_flag_fallen"
    if event.kind == RESUME:
        return None if state.paused else "clock_not_paused"
    if state.paused:
        return "clock_paused"
    if event.kind == SWITCH and event.player != state.to_move:
        return "clock_not_your_turn"
    return None
