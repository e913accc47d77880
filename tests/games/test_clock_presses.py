"""The board's clock on the server: a press is taken only at a moment the server can
believe; a replayed press counts once; a device that missed a press cannot press over it;
the flag fall is entered for the player whose flag fell; every move gets its time."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

import rules
from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from games.clock import TOLERANCE_MS, ClockError, clock_flag, clock_press, clock_start
from games.models import GameClock, Move, Outcome
from games.moves import move_add
from games.timing import clock_state
from tests.factories import UserFactory
from tests.seats import Winner, winner

pytestmark = pytest.mark.django_db

MINUTE = 60_000
JSON = "application/json"


@pytest.fixture
def t0():
    return timezone.now().replace(microsecond=0)


def at(t0, ms: int):
    return t0 + timedelta(milliseconds=ms)


@pytest.fixture
def running(game, secretary, t0):
    """A Gouds 8 game whose clock the secretary started at t0 (Anna to move)."""
    clock_start(game=game, by=secretary, now=t0)
    return game


def press(game, by, kind, *, ms, now_ms=None, player=None, queued=False, t0):
    clock = GameClock.objects.get(game=game)
    return clock_press(
        game=game,
        kind=kind,
        player=player,
        sequence=len(clock.events),
        at=ms,
        queued=queued,
        by=by,
        now=at(t0, ms if now_ms is None else now_ms),
    )


def test_the_clock_starts_with_each_players_minutes_from_the_rules(running, secretary, t0):
    clock = GameClock.objects.get(game=running)
    assert clock.budget_ms == [25 * MINUTE, 25 * MINUTE]
    assert clock.flag_ends is True
    assert clock.events == [["start", 0, 0, secretary.pk]]
    state = clock_state(clock, at(t0, 90_000))
    assert state.left == (25 * MINUTE - 90_000, 25 * MINUTE) and state.running == 0
    (entry,) = HistoryEntry.objects.filter(action=HistoryAction.CLOCK_START)
    assert entry.after == {"left_ms": [25 * MINUTE, 25 * MINUTE]}
    with pytest.raises(ClockError):
        clock_start(game=running, by=secretary, now=at(t0, 1_000))


def test_a_press_sent_at_once_is_taken_at_its_moment(running, secretary, t0):
    press(running, secretary, "switch", player=0, ms=90_000, now_ms=90_400, t0=t0)
    clock = GameClock.objects.get(game=running)
    assert clock.events[-1][:3] == ["switch", 90_000, 0]
    assert clock_state(clock, at(t0, 100_000)).left == (25 * MINUTE - 90_000, 25 * MINUTE - 10_000)


def test_a_press_that_would_give_time_back_is_refused(running, secretary, t0):
    """Anna presses at 5:00 but her device says 3:00: two minutes back on her clock."""
    with pytest.raises(ClockError):
        press(running, secretary, "switch", player=0, ms=3 * MINUTE, now_ms=5 * MINUTE, t0=t0)
    with pytest.raises(ClockError):  # nor a press from the future
        press(running, secretary, "switch", player=0, ms=6 * MINUTE, now_ms=5 * MINUTE, t0=t0)
    assert GameClock.objects.get(game=running).events == [["start", 0, 0, secretary.pk]]
    # Within the tolerance (the network, a slow tap) it is the device's moment.
    press(
        running, secretary, "switch", player=0, ms=5 * MINUTE - TOLERANCE_MS + 1,
        now_ms=5 * MINUTE, t0=t0,
    )  # fmt: skip


def test_a_press_sent_later_cannot_move_time_to_the_opponent(running, secretary, t0):
    """Bram switched to Anna at 1:00. At 6:00 Anna's own phone sends a switch marked as
    queued, dated 1:00.001: it would take back her five minutes and charge them to Bram.
    It is kept, but counted when it arrived (less the tolerance): Anna's five minutes
    stay hers; at most the tolerance moves."""
    press(running, secretary, "switch", player=0, ms=30_000, t0=t0)  # Anna, 0:30
    press(running, secretary, "switch", player=1, ms=MINUTE, t0=t0)  # Bram, 0:30
    press(running, secretary, "switch", player=0, ms=MINUTE + 1, now_ms=6 * MINUTE,
          queued=True, t0=t0)  # fmt: skip
    clock = GameClock.objects.get(game=running)
    assert clock.events[-1][:3] == ["switch", 6 * MINUTE - TOLERANCE_MS, 0]
    anna, bram = clock_state(clock, at(t0, 6 * MINUTE)).left
    # Anna used 0:30 + (6:00 - 1:00) at most the tolerance less; Bram 0:30 and the tolerance.
    assert anna == 25 * MINUTE - 30_000 - 5 * MINUTE + TOLERANCE_MS
    assert bram == 25 * MINUTE - 30_000 - TOLERANCE_MS


def test_a_press_kept_through_a_lost_connection_is_kept(running, secretary, t0):
    """Offline, Anna pressed at 4:00; the device sends it at 9:00: the switch is taken
    (Bram's clock runs), counted from 9:00 less the tolerance, the time no device could
    show the server. Sent within the tolerance, it counts at its own moment."""
    press(running, secretary, "switch", player=0, ms=4 * MINUTE, now_ms=9 * MINUTE, queued=True,
          t0=t0)  # fmt: skip
    clock = GameClock.objects.get(game=running)
    assert clock.events[-1][:3] == ["switch", 9 * MINUTE - TOLERANCE_MS, 0]
    assert clock_state(clock, at(t0, 9 * MINUTE)).running == 1
    press(running, secretary, "switch", player=1, ms=10 * MINUTE - 1_000,
          now_ms=10 * MINUTE, queued=True, t0=t0)  # fmt: skip
    assert GameClock.objects.get(game=running).events[-1][:2] == ["switch", 10 * MINUTE - 1_000]
    # Never before the last press the server knows, nor after its now.
    press(running, secretary, "pause", ms=11 * MINUTE, now_ms=11 * MINUTE + 200, t0=t0)
    press(running, secretary, "resume", ms=10 * MINUTE, now_ms=11 * MINUTE + 400, queued=True,
          t0=t0)  # fmt: skip
    assert GameClock.objects.get(game=running).events[-1][:2] == ["resume", 11 * MINUTE]


def test_a_replayed_press_counts_once_and_a_stale_device_cannot_press_over_another(
    running, secretary, t0
):
    press(running, secretary, "switch", player=0, ms=60_000, t0=t0)
    again = {"game": running, "kind": "switch", "player": 0, "sequence": 1, "at": 60_000}
    clock_press(**again, by=secretary, now=at(t0, 61_000))  # the answer was lost: sent again
    assert len(GameClock.objects.get(game=running).events) == 2
    with pytest.raises(ClockError) as refused:  # a second device that did not see that press
        clock_press(**{**again, "kind": "pause", "player": None}, by=secretary,
                    now=at(t0, 62_000))  # fmt: skip
    assert refused.value.conflict


def test_the_flag_fall_is_entered_for_the_player_whose_flag_fell(running, secretary, t0):
    """Anna to move, nobody presses: at 25:00 her flag falls; a device says so at 25:02."""
    assert clock_flag(game=running, by=secretary, now=at(t0, 24 * MINUTE)) is False
    assert not Move.objects.filter(game=running).exists()
    assert clock_flag(game=running, by=secretary, now=at(t0, 25 * MINUTE + 2_000)) is True
    (flag,) = Move.objects.filter(game=running)
    assert (flag.notation, flag.seat) == ("(flagfall)", 0)
    running.refresh_from_db()
    assert (running.outcome, winner(running)) == (Outcome.FLAG_FALL, Winner.B)
    (entry,) = HistoryEntry.objects.filter(action=HistoryAction.CLOCK_FLAG)
    assert entry.after == {"left_ms": [0, 25 * MINUTE], "flag": 0, "flag_at_ms": 25 * MINUTE}
    # A press after the flag changes nothing; the flag is not entered twice.
    press(running, secretary, "switch", player=0, ms=25 * MINUTE + 5_000, t0=t0)
    assert Move.objects.filter(game=running).count() == 1


def test_a_flag_waits_for_the_move_still_to_be_entered(running, secretary, t0):
    """Anna ends her turn on the clock; before her move is entered, Bram's flag falls (a
    short clock): the flag is entered once the board is in step with the clock."""
    clock = GameClock.objects.get(game=running)
    clock.budget_ms = [25 * MINUTE, MINUTE]
    clock.save()
    press(running, secretary, "switch", player=0, ms=30_000, t0=t0)
    assert clock_flag(game=running, by=secretary, now=at(t0, 95_000)) is False  # Anna's move
    move_add(game=running, notation="8H WOORD", by=secretary, now=at(t0, 96_000))
    assert clock_flag(game=running, by=secretary, now=at(t0, 97_000)) is True
    assert list(Move.objects.filter(game=running).values_list("seat", "notation")) == [
        (0, "8H WOORD"),
        (1, "(flagfall)"),
    ]


def test_every_move_gets_its_thinking_time(running, secretary, t0):
    """Anna presses the clock after 1:30, then her move is entered; Bram's move is entered
    while his clock still runs (2:00 in); Anna's next move without pressing the clock
    takes the time between the saves."""
    press(running, secretary, "switch", player=0, ms=90_000, t0=t0)
    move_add(game=running, notation="8H WOORD", by=secretary, now=at(t0, 100_000))
    move_add(game=running, notation="-", by=secretary, now=at(t0, 210_000))
    press(running, secretary, "switch", player=1, ms=215_000, t0=t0)
    move_add(game=running, notation="-", by=secretary, now=at(t0, 290_000))
    times = list(Move.objects.filter(game=running).values_list("think_ms", flat=True))
    assert times == [90_000, 120_000, 75_000]


def test_moves_without_a_clock_have_no_time(game, secretary):
    move_add(game=game, notation="8H WOORD", by=secretary)
    assert Move.objects.get(game=game).think_ms is None


def test_a_game_without_minutes_in_its_rules_cannot_start_the_clock(make_game, secretary):
    game = make_game(rules.STANDARD)
    with pytest.raises(ClockError):
        clock_start(game=game, by=secretary)
    assert not GameClock.objects.exists()


# --- over HTTP ---------------------------------------------------------------------------


def url(game) -> str:
    return reverse("game_clock", args=[game.pk])


def send(client, game, data):
    """What the board's script sends: a form, asking for JSON."""
    return client.post(url(game), data, HTTP_ACCEPT=JSON)


def test_the_clock_over_http(secretary_client, game):
    started = send(secretary_client, game, {"action": "start"})
    assert started.status_code == 200
    view = started.json()
    assert view["started"] and view["sequence"] == 1 and view["running"] == 0
    data = {"action": "switch", "player": 0, "sequence": 1, "at": view["now"] + 50}
    assert send(secretary_client, game, data).status_code == 200
    stale = send(secretary_client, game, {**data, "action": "pause", "player": ""})
    assert stale.status_code == 409
    assert stale.json()["clock"]["sequence"] == 2 and stale.json()["error"]
    forged = send(secretary_client, game, {**data, "sequence": 2, "player": 1, "at": 0})
    assert forged.status_code == 422
    kind, moment, player, _by = GameClock.objects.get(game=game).events[-1]
    assert (kind, player) == ("switch", 0) and moment <= data["at"]  # never after the server's now


@pytest.mark.parametrize("at_value", ["١٢٣", "1e9999", "9" * 40, "-5", "", "\x00", "12.5", " 7 "])
def test_odd_press_times_are_refused_without_an_error(secretary_client, game, at_value):
    send(secretary_client, game, {"action": "start"})
    reply = send(
        secretary_client, game, {"action": "switch", "player": 0, "sequence": 1, "at": at_value}
    )
    assert reply.status_code in (200, 422)  # " 7 " reads as 7: in the past, refused
    assert len(GameClock.objects.get(game=game).events) == 1 or at_value == " 7 "


def test_only_the_players_and_secretaries_may_press(client, game):
    client.force_login(UserFactory())
    assert send(client, game, {"action": "start"}).status_code == 403
    client.logout()
    assert send(client, game, {"action": "start"}).status_code == 302
    assert not GameClock.objects.exists()


def test_the_gcg_export_notes_each_timed_turn(running, secretary, t0, client):
    press(running, secretary, "switch", player=0, ms=90_000, t0=t0)
    move_add(game=running, notation="8H WOORD", by=secretary, now=at(t0, 100_000))
    move_add(game=running, notation="-", by=secretary, now=at(t0, 135_400))
    lines = client.get(reverse("gcg_download", args=[running.pk])).content.decode().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(">") and "WOORD" in line)
    assert lines[first + 1] == "#note time 1:30"
    assert lines[first + 3] == "#note time 0:45"  # Bram, his clock still running


def test_the_replay_and_the_analysis_show_each_turns_time(running, secretary, t0, client):
    press(running, secretary, "switch", player=0, ms=90_000, t0=t0)
    move_add(game=running, notation="8H WOORD", rack="WOORDEN", by=secretary,
             now=at(t0, 100_000))  # fmt: skip
    replay = client.get(reverse("replay", args=[running.pk])).content.decode()
    assert "⏱ 1:30" in replay
    analysis = client.get(reverse("game_analysis", args=[running.pk])).content.decode()
    row = analysis[analysis.index('data-move="1"') :]
    assert "1:30" in row[: row.index("</tr>")]


def test_the_competitions_own_minutes_come_before_the_rule_sets(game, secretary, t0):
    competition = game.round.competition
    competition.clock_minutes = 30
    competition.save()
    game.refresh_from_db()
    clock_start(game=game, by=secretary, now=t0)
    assert GameClock.objects.get(game=game).budget_ms == [30 * MINUTE, 30 * MINUTE]
