"""A slip that comes in while the spelleider plays its turn again (`turn_redo`), and a
redo while a slip comes in, on SQLite and on PostgreSQL.

The redo cancels the turn's draw (FISF §3.6): every slip in by then is void and its player
hands in again on the new rack. A slip written on the old rack that arrives while the redo
is held open (its new rack written, not committed) waits for it and is then refused: its
rack is gone, and its player hands in again. A slip held open when the redo starts is in
before the redo reads the turn's slips, so the redo voids it. On PostgreSQL the test waits
until the database says the second writer waits for a lock (the turn, held by the first);
on SQLite it waits for the write lock at its BEGIN.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from clubs.models import HistoryEntry
from duplicate.models import Slip, Turn
from duplicate.selectors import evening_state
from duplicate.services import DuplicateEveningError
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_correct, slip_submit
from duplicate.services.turns import turn_draw, turn_redo
from tests.test_lock_order import Beside

pytestmark = pytest.mark.django_db(transaction=True)


class HeldOpen:
    """``write()`` in a second thread's transaction, kept open until the block ends: for
    a redo, the new rack written and the turn's slips voided; for a hand-in, the slip
    written; nothing committed yet."""

    def __init__(self, write) -> None:
        self.write = write
        self.value = None
        self.ready = threading.Event()
        self.release = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            with transaction.atomic():
                self.value = self.write()
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


def refusal_code(write):
    """``write``'s refusal code, or None when it went through: for a thread's work."""
    try:
        write()
    except DuplicateEveningError as error:
        return error.code
    return None


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


def test_a_slip_handed_in_while_its_turn_is_played_again_is_refused_and_handed_in_again(
    typed_wrong, secretary, four_entrants
):
    read_by_the_page, state = typed_wrong
    anna = four_entrants[0]
    turn = Turn.objects.get()
    redo = {"turn": turn, "tiles": "KAAS?ET", "reason": "verkeerd", "by": secretary}
    with HeldOpen(lambda: turn_redo(**redo)):
        hand_in = _meanwhile(
            lambda: refusal_code(
                lambda: slip_submit(
                    turn=read_by_the_page,
                    player_id=anna.pk,
                    text="8D KAArSEN",
                    by=anna,
                    position=state.game,
                )
            )
        )
    # Written on AAEKNS?, which the redo cancelled: refused, nothing kept.
    assert hand_in.result() == "turn_redrawn"
    assert not Slip.objects.exists()
    assert Turn.objects.get().rack == "AAEKST?"
    # Anna hands in again on the page read anew. K3 A1 A1 S2 = 7, on H8 (DW): 14.
    again = evening_state(read_by_the_page.evening)
    slip = slip_submit(
        turn=again.open_turn, player_id=anna.pk, text="8H KAAS", by=anna, position=again.game
    )
    assert (slip.score, slip.void, slip.late) == (14, False, False)


def test_the_turn_played_again_while_a_slip_is_handed_in_voids_it(
    typed_wrong, secretary, four_entrants
):
    read_by_the_page, state = typed_wrong
    anna = four_entrants[0]
    # K on D8 (DL) 6, A1 A1, r0, S on H8 (DW) 2, E1 N1 = 12 x 2 = 24, + 50 = 74.
    hand_in = HeldOpen(
        lambda: slip_submit(
            turn=read_by_the_page,
            player_id=anna.pk,
            text="8D KAArSEN",
            by=anna,
            position=state.game,
        )
    )
    with hand_in:
        redo = _meanwhile(
            lambda: turn_redo(
                turn=Turn.objects.get(), tiles="KAAS?ET", reason="verkeerd", by=secretary
            )
        )
    assert redo.result().rack == "AAEKST?"
    # The slip came in first, on the old rack: the redo found it and voided it.
    stored = Slip.objects.get()
    assert (stored.pk, stored.score, stored.void) == (hand_in.value.pk, 74, True)
    assert HistoryEntry.objects.filter(action="slip.void", object_id=stored.pk).exists()
    again = evening_state(read_by_the_page.evening)
    slip = slip_submit(
        turn=again.open_turn, player_id=anna.pk, text="8H KAAS", by=anna, position=again.game
    )
    assert (slip.score, slip.void) == (14, False)


def test_a_slip_corrected_while_its_turn_is_played_again_stays_void(
    typed_wrong, secretary, four_entrants
):
    read_by_the_page, _state = typed_wrong
    anna = four_entrants[0]
    # K3 A1 A1 S2 = 7, on H8 (DW): 14.
    handed_in = slip_submit(turn=read_by_the_page, player_id=anna.pk, text="8H KAAS", by=anna)
    assert handed_in.score == 14
    as_listed = Slip.objects.select_related("turn", "player").get()  # the paper-slips page
    redo = {"turn": Turn.objects.get(), "tiles": "KAAS?ET", "reason": "verkeerd", "by": secretary}
    with HeldOpen(lambda: turn_redo(**redo)):
        correction = _meanwhile(
            lambda: refusal_code(
                lambda: slip_correct(
                    slip=as_listed, text="8D KAArSEN", reason="misgelezen", by=secretary
                )
            )
        )
    assert correction.result() == "slip_void"
    stored = Slip.objects.get()
    assert (stored.text, stored.score, stored.void) == ("8H KAAS", 14, True)
