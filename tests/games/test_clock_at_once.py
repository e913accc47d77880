"""Two tablets pressing one game's clock at the same moment, on PostgreSQL, in threads
with connections of their own: every press is kept or refused with the answer it would
get one after the other, never answered "kept" and lost; the clock started from two
tablets at once is one clock, and the other tablet hears that it runs already.
(On SQLite every write runs alone: config/settings.py.)"""

from __future__ import annotations

from functools import partial

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from games.clock import ClockError, clock_press, clock_start
from games.models import Game, GameClock
from games.timing import clock_ms, clock_state
from tests.test_lock_order import AT_ONCE_ON_POSTGRESQL, at_once

pytestmark = AT_ONCE_ON_POSTGRESQL

#: Presses in a row at the same moment: each one is a fresh chance for the race.
RACES = 20
KEPT = "kept"
JSON = "application/json"


def _press(game_id: int, by, kind: str, player: int | None, sequence: int):
    """A tablet's press on the clock's time line now, as it knew the clock (`sequence`):
    KEPT, or the ClockError it was refused with."""
    game = Game.objects.get(pk=game_id)
    clock = GameClock.objects.get(game_id=game_id)
    try:
        clock_press(
            game=game,
            kind=kind,
            player=player,
            sequence=sequence,
            at=clock_ms(clock, timezone.now()),
            by=by,
        )
    except ClockError as error:
        return error
    return KEPT


def _start(game_id: int, by):
    try:
        clock_start(game=Game.objects.get(pk=game_id), by=by)
    except ClockError as error:
        return error
    return KEPT


def _running(game: Game) -> GameClock:
    """The clock, running: resumed (one tablet alone) when the last race left it paused."""
    clock = GameClock.objects.get(game=game)
    if clock_state(clock).paused:
        _press(game.pk, None, "resume", None, len(clock.events))
        clock = GameClock.objects.get(game=game)
    return clock


def test_a_switch_and_a_pause_at_once_keep_one_and_refuse_the_other(game, secretary):
    clock_start(game=game, by=secretary)
    # What a tablet that missed a press hears, one after the other: the answer to the loser.
    stale = _press(game.pk, secretary, "pause", None, 0)
    assert isinstance(stale, ClockError) and stale.conflict
    for _ in range(RACES):
        clock = _running(game)
        sequence = len(clock.events)
        switch, pause = at_once(
            partial(_press, game.pk, secretary, "switch", clock_state(clock).to_move, sequence),
            partial(_press, game.pk, secretary, "pause", None, sequence),
        )
        events = GameClock.objects.get(game=game).events
        assert len(events) == sequence + 1, (switch, pause)
        assert [switch, pause].count(KEPT) == 1, (switch, pause)
        (refused,) = [result for result in (switch, pause) if result != KEPT]
        assert isinstance(refused, ClockError) and refused.conflict, refused
        assert str(refused.message) == str(stale.message)
        assert events[-1][0] == ("switch" if switch == KEPT else "pause")
    events = GameClock.objects.get(game=game).events
    pauses = sum(1 for event in events if event[0] == "pause")
    assert HistoryEntry.objects.filter(action=HistoryAction.CLOCK_PAUSE).count() == pauses


def test_the_clock_started_from_two_tablets_at_once_is_one_clock(make_game, secretary):
    # One after the other, the second start hears that the clock runs already.
    game = make_game()
    clock_start(game=game, by=secretary)
    again = _start(game.pk, secretary)
    assert isinstance(again, ClockError) and again.conflict
    for _ in range(RACES // 2):
        game = make_game()
        results = at_once(partial(_start, game.pk, secretary), partial(_start, game.pk, secretary))
        assert results.count(KEPT) == 1, results
        (refused,) = [result for result in results if result != KEPT]
        assert isinstance(refused, ClockError) and refused.conflict, refused
        assert str(refused.message) == str(again.message)
        assert GameClock.objects.filter(game=game).count() == 1
        starts = HistoryEntry.objects.filter(action=HistoryAction.CLOCK_START, object_id=game.pk)
        assert starts.count() == 1


def _tablet(user) -> Client:
    tablet = Client()
    tablet.force_login(user)
    return tablet


def _send(tablet: Client, game: Game, data: dict):
    return tablet.post(reverse("game_clock", args=[game.pk]), data, HTTP_ACCEPT=JSON)


def test_two_tablets_at_once_over_http_get_200_and_409_never_500(game, secretary):
    first, second = _tablet(secretary), _tablet(secretary)
    started = at_once(
        lambda: _send(first, game, {"action": "start"}),
        lambda: _send(second, game, {"action": "start"}),
    )
    assert sorted(reply.status_code for reply in started) == [200, 409], started
    assert GameClock.objects.filter(game=game).count() == 1
    stale = _send(first, game, {"action": "pause", "sequence": 0, "at": 0})
    assert stale.status_code == 409
    for _ in range(RACES // 2):
        clock = _running(game)
        sequence = len(clock.events)
        at = clock_ms(clock, timezone.now())
        switch = {"action": "switch", "player": clock_state(clock).to_move}
        replies = at_once(
            partial(_send, first, game, {**switch, "sequence": sequence, "at": at}),
            partial(_send, second, game, {"action": "pause", "sequence": sequence, "at": at}),
        )
        assert sorted(reply.status_code for reply in replies) == [200, 409], replies
        (refused,) = [reply.json() for reply in replies if reply.status_code == 409]
        assert refused["error"] == stale.json()["error"]
        # The loser's tablet is put right at once: the clock with the winner's press.
        assert refused["clock"]["sequence"] == sequence + 1
        assert len(GameClock.objects.get(game=game).events) == sequence + 1
