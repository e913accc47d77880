"""The game clock as a pure function of its events: start, switch, pause, resume, a reload
(the same events read again later), the flag; times worked out by hand."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.clock import (
    PAUSE,
    RESUME,
    START,
    SWITCH,
    ClockEvent,
    Turn,
    clock_state,
    event_problem,
)

MINUTE = 60_000
GOUDS_8 = (25 * MINUTE, 25 * MINUTE)


def test_a_gouds8_game_turn_by_turn():
    """Anke starts; she thinks 1:30, Bram 2:15, Anke 0:45 with a 3-minute dispute in the
    middle of her turn (the clock stood still), then Bram thinks; now is 10:00."""
    events = [
        ClockEvent(START, 0, 0),
        ClockEvent(SWITCH, 90_000, 0),  # Anke: 1:30
        ClockEvent(SWITCH, 225_000, 1),  # Bram: 2:15
        ClockEvent(PAUSE, 245_000),  # Anke, 0:20 into her turn: "bezwaar"
        ClockEvent(RESUME, 425_000),  # three minutes later
        ClockEvent(SWITCH, 450_000, 0),  # Anke: 0:20 + 0:25 = 0:45
    ]
    state = clock_state(GOUDS_8, events, now=600_000)
    anke_used = 90_000 + 45_000
    bram_used = 135_000 + 150_000  # 2:15, and 2:30 of the running turn
    assert state.left == (25 * MINUTE - anke_used, 25 * MINUTE - bram_used)
    assert state.running == state.to_move == 1
    assert not state.paused and state.flag is None
    assert state.turns == (
        Turn(0, 0, 90_000, 90_000),
        Turn(1, 90_000, 225_000, 135_000),
        Turn(0, 225_000, 450_000, 45_000),
    )
    assert state.turn_used == 150_000


def test_a_reload_reads_the_same_clock_later():
    """Nothing is counted down in a page: the same events at a later moment give the time
    that has passed since, however often the page is reloaded in between."""
    events = [ClockEvent(START, 1_000, 1)]
    first = clock_state(GOUDS_8, events, now=61_000)
    again = clock_state(GOUDS_8, events, now=61_000)
    later = clock_state(GOUDS_8, events, now=121_000)
    assert first == again
    assert first.left == (25 * MINUTE, 24 * MINUTE)
    assert later.left == (25 * MINUTE, 23 * MINUTE)


def test_paused_time_counts_for_nobody():
    events = [ClockEvent(START, 0, 0), ClockEvent(PAUSE, 30_000)]
    state = clock_state(GOUDS_8, events, now=10 * MINUTE)
    assert state.paused and state.running is None and state.to_move == 0
    assert state.left == (25 * MINUTE - 30_000, 25 * MINUTE)


def test_the_flag_falls_at_the_exact_moment_and_stops_a_gouds8_clock():
    """Bram has 4:00 on his clock when his turn starts at 20:00: at 23:00 one minute is
    left; at 24:30 his flag has fallen, at 24:00, and the clock stands still there."""
    budget = (25 * MINUTE, 4 * MINUTE)
    events = [ClockEvent(START, 0, 0), ClockEvent(SWITCH, 20 * MINUTE, 0)]
    state = clock_state(budget, events, now=23 * MINUTE)
    assert state.flag is None and state.left == (5 * MINUTE, MINUTE)
    state = clock_state(budget, events, now=24 * MINUTE + 30_000)
    assert (state.flag, state.flag_at) == (1, 24 * MINUTE)
    later = clock_state(budget, events, now=40 * MINUTE)
    assert later == state
    assert state.left == (5 * MINUTE, 0)
    assert state.running is None and state.stopped
    assert state.turn_used == 4 * MINUTE
    assert event_problem(budget, events, ClockEvent(SWITCH, 25 * MINUTE, 1), flag_ends=True) == (
        "clock_flag_fallen"
    )
    # A switch a moment before the flag is in time.
    in_time = ClockEvent(SWITCH, 24 * MINUTE - 1, 1)
    assert event_problem(budget, events, in_time, flag_ends=True) is None


def test_without_a_flag_fall_rule_the_time_runs_on_below_zero():
    budget = (MINUTE, MINUTE)
    state = clock_state(budget, [ClockEvent(START, 0, 0)], now=150_000, flag_ends=False)
    assert state.left == (-90_000, MINUTE)
    assert (state.flag, state.flag_at) == (0, MINUTE)
    assert state.running == 0 and not state.stopped


def test_three_and_four_players_take_turns_in_seat_order():
    budget = (MINUTE,) * 4
    events = [ClockEvent(START, 0, 2)]
    for at, player in ((10_000, 2), (20_000, 3), (35_000, 0), (40_000, 1)):
        events.append(ClockEvent(SWITCH, at, player))
    state = clock_state(budget, events, now=41_000)
    assert [turn.player for turn in state.turns] == [2, 3, 0, 1]
    assert state.to_move == 2
    assert state.left == (MINUTE - 15_000, MINUTE - 5_000, MINUTE - 10_000 - 1_000, 50_000)


@pytest.mark.parametrize(
    ("events", "event", "problem"),
    [
        ([], ClockEvent(PAUSE, 0), "clock_not_started"),
        ([ClockEvent(START, 0, 0)], ClockEvent(START, 5, 1), "clock_already_started"),
        ([ClockEvent(START, 100, 0)], ClockEvent(SWITCH, 50, 0), "clock_time_backwards"),
        ([ClockEvent(START, 0, 0)], ClockEvent(SWITCH, 5, 1), "clock_not_your_turn"),
        ([ClockEvent(START, 0, 0)], ClockEvent(RESUME, 5), "clock_not_paused"),
        ([ClockEvent(START, 0, 0), ClockEvent(PAUSE, 5)], ClockEvent(SWITCH, 9, 0), "clock_paused"),
        ([ClockEvent(START, 0, 0)], ClockEvent("reset", 5), "clock_unknown_event"),
        ([], ClockEvent(START, 0, 2), "clock_unknown_player"),
    ],
)
def test_impossible_events_are_named(events, event, problem):
    assert event_problem(GOUDS_8, events, event, flag_ends=True) == problem


moments = st.lists(st.integers(min_value=0, max_value=5 * MINUTE), min_size=1, max_size=12)


@given(gaps=moments, kinds=st.lists(st.sampled_from([SWITCH, PAUSE, RESUME]), max_size=12))
def test_every_millisecond_is_on_one_clock_or_paused(gaps, kinds):
    """Whatever was pressed, the time used by all players together and the time the clock
    stood still add up to the time since the start: no time is lost or made."""
    budget = (60 * MINUTE, 60 * MINUTE, 60 * MINUTE)
    events = [ClockEvent(START, 0, 0)]
    at = 0
    for gap, kind in zip(gaps, kinds, strict=False):
        at += gap
        to_move = clock_state(budget, events, at).to_move
        event = ClockEvent(kind, at, to_move if kind == SWITCH else None)
        if event_problem(budget, events, event, flag_ends=True) is None:
            events.append(event)
    now = at + 1_000
    state = clock_state(budget, events, now)
    used = sum(b - left for b, left in zip(budget, state.left, strict=True))
    paused = 0
    stood_still_since = None
    for event in events:
        if event.kind == PAUSE:
            stood_still_since = event.at
        elif event.kind == RESUME and stood_still_since is not None:
            paused += event.at - stood_still_since
            stood_still_since = None
    if stood_still_since is not None:
        paused += now - stood_still_since
    assert used + paused == now
