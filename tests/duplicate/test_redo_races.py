"""A slip that comes in while the spelleider plays its turn again (`turn_redo`), on SQLite
and on PostgreSQL.

The redo draws a new rack and scores the turn's slips again; a slip written meanwhile must
be scored on the rack its own transaction sees, not on the one its phone's page read: the
redo's rescoring never sees a slip that was not in yet. Here the redo is held open (its
new rack written, not committed) while a hand-in, and a secretary's correction, come in
from another thread. On PostgreSQL the test waits until the database says the hand-in
waits for a lock (the turn, held by the redo); on SQLite the hand-in waits for the write
lock at its BEGIN.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from duplicate.models import Slip, Turn
from duplicate.selectors import evening_state
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_correct, slip_submit
from duplicate.services.turns import turn_draw, turn_redo
from tests.test_lock_order import Beside

pytestmark = pytest.mark.django_db(transaction=True)


class RedoHeldOpen:
    """`turn_redo` in a second thread's transaction, kept open until the block ends: the
    new rack is written, the turn's slips scored again, nothing committed yet."""

    def __init__(self, **redo) -> None:
        self.redo = redo
        self.ready = threading.Event()
        self.release = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            with transaction.atomic():
                turn_redo(**self.redo)
                self.ready.set()
                self.release.wait(30)
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error
            self.ready.set()
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        assert self.ready.wait(30) and self.error is None, self.error
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.thread.join(30)
        assert self.error is None, self.error


def _meanwhile(write) -> Beside:
    """`write()` in a third thread while the redo is held open; returns once it has
    started, and on PostgreSQL once it waits for a lock."""
    started = threading.Event()

    def work():
        started.set()
        return write()

    beside = Beside(work)
    beside.start()
    assert started.wait(30)
    if connection.vendor == "postgresql":
        beside.wait_for_a_lock()
    return beside


@pytest.fixture
def typed_wrong(competition, secretary):
    """Turn 1 typed as KAAS?EN (KAArSEN, 74, is the top); the real draw was KAAS?ET.
    The turn as a phone's page read it, and the master game the page replayed."""
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    state = evening_state(evening)
    assert state.open_turn.rack == "AAEKNS?"
    return turn, state


def test_a_slip_handed_in_while_its_turn_is_played_again_is_scored_on_the_new_rack(
    typed_wrong, secretary, four_entrants
):
    read_by_the_page, state = typed_wrong
    anna = four_entrants[0]
    redo = {"turn": Turn.objects.get(), "tiles": "KAAS?ET", "reason": "verkeerd", "by": secretary}
    with RedoHeldOpen(**redo):
        hand_in = _meanwhile(
            lambda: slip_submit(
                turn=read_by_the_page,
                player_id=anna.pk,
                text="8D KAArSEN",
                by=anna,
                position=state.game,
            )
        )
    slip = hand_in.result()
    # The new rack AAEKST? has no N: KAArSEN is not on it (on the old one it scored 74).
    assert (slip.score, slip.reason_code, slip.late) == (0, "not_in_rack", False)
    stored = Slip.objects.get()
    assert (stored.score, stored.reason_code) == (0, "not_in_rack")
    assert stored.reason_params == {"rack": "AAEKST?", "missing": "N"}
    assert Turn.objects.get().rack == "AAEKST?"


def test_a_slip_corrected_while_its_turn_is_played_again_is_scored_on_the_new_rack(
    typed_wrong, secretary, four_entrants
):
    read_by_the_page, _state = typed_wrong
    anna = four_entrants[0]
    # K3 A1 A1 S2 = 7, on H8 (DW): 14, on either rack.
    handed_in = slip_submit(turn=read_by_the_page, player_id=anna.pk, text="8H KAAS", by=anna)
    assert handed_in.score == 14
    as_listed = Slip.objects.select_related("turn", "player").get()  # the paper-slips page
    redo = {"turn": Turn.objects.get(), "tiles": "KAAS?ET", "reason": "verkeerd", "by": secretary}
    with RedoHeldOpen(**redo):
        correction = _meanwhile(
            lambda: slip_correct(
                slip=as_listed, text="8D KAArSEN", reason="misgelezen", by=secretary
            )
        )
    corrected = correction.result()
    assert (corrected.score, corrected.reason_code) == (0, "not_in_rack")
    assert Slip.objects.get().score == 0
