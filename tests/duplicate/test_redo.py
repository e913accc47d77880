"""A turn played again (`turn_redo`) as the rules cancel a turn (FISF §3.6; the NTSV says
nothing, so the FISF's rule holds under both presets: docs/duplicate.md, *A turn played
again*): the slips void and the hand-in open again, the whole rack back into the bag and a
different draw, the clock anew for the slips handed in again."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from duplicate.selectors import evening_state, late_slips, master_game
from duplicate.services import DuplicateEveningError
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_accept_late, slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw, turn_redo

pytestmark = pytest.mark.django_db


def refused(code, call, **kwargs):
    with pytest.raises(DuplicateEveningError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.message


@pytest.fixture
def fisf_evening(competition, secretary):
    competition.settings = {"preset": "fisf"}
    competition.save()
    return evening_create(competition=competition, number=1, by=secretary)


@pytest.fixture
def second_turn(fisf_evening, secretary):
    """FISF: turn 1 ADOORTW, top 8D WORDT (34) keeps A and O on the rack; turn 2 drawn
    EIKNS, the rack AEIKNOS."""
    first = turn_draw(evening=fisf_evening, tiles="TWOORDA", by=secretary)
    assert turn_choose_top(turn=first, by=secretary).top == "8D WORDT"
    turn = turn_draw(evening=fisf_evening, tiles="EIKNS", by=secretary)
    assert turn.rack == "AEIKNOS"
    return turn


def test_under_fisf_the_kept_tiles_go_back_and_the_draw_must_differ(
    fisf_evening, second_turn, secretary
):
    # FISF §3.6: "toutes les lettres qui s'y rapportent (y compris le reliquat du coup
    # précédent) sont remises dans le sac": the draw takes seven tiles, not five.
    refused(
        "duplicate_draw_size", turn_redo, turn=second_turn, tiles="EIKNT", reason="x", by=secretary
    )
    # "Si les lettres du tirage sont identiques à celles du coup annulé, le juge-arbitre
    # rejette de nouveau les lettres": the same seven tiles are refused.
    refused(
        "duplicate_draw_as_cancelled",
        turn_redo,
        turn=second_turn,
        tiles="SNIKEOA",
        reason="x",
        by=secretary,
    )
    turn = turn_redo(
        turn=second_turn, tiles="AOEIKNT", reason="S getypt, T getrokken", by=secretary
    )
    assert (turn.rack, turn.drawn, turn.cancelled) == ("AEIKNOT", "AEIKNOT", "AEIKNOS")
    # The master game replays the same (the kept A and O back in the bag before the draw).
    state = evening_state(fisf_evening)
    assert state.game.rack == state.open_turn.rack == "AEIKNOT"
    assert master_game(fisf_evening).rack == "AEIKNOT"


class SameRackFirst(random.Random):
    """A bag that gives the cancelled rack's tiles first, then draws at random."""

    def __init__(self, first: str) -> None:
        super().__init__(7)
        self.first: list[str] | None = list(first)

    def sample(self, population, k, **kwargs):
        if self.first is not None:
            first, self.first = self.first, None
            return first
        return super().sample(population, k, **kwargs)


def test_the_app_draws_again_until_the_rack_differs(fisf_evening, second_turn, secretary):
    turn = turn_redo(turn=second_turn, reason="fout", by=secretary, rng=SameRackFirst("AEIKNOS"))
    assert turn.cancelled == "AEIKNOS" and turn.rack != "AEIKNOS" and len(turn.rack) == 7
    # Not a throw-back for the minimum: nothing of it is kept for the replay.
    assert turn.rejected == ""
    assert evening_state(fisf_evening).game.rack == turn.rack
    # And again: the rack just drawn is the one to differ from now.
    first = turn.rack
    again = turn_redo(turn=turn, reason="nog eens", by=secretary, rng=SameRackFirst(first))
    assert again.cancelled == first and again.rack != first


def test_under_ntsv_a_turn_played_again_draws_another_rack_too(
    competition, secretary, four_entrants
):
    # The NTSV says nothing of a cancelled turn: the FISF's rule (every tile back, which
    # under the NTSV's leftovers rule is every draw anyway; another rack) holds.
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    refused(
        "duplicate_draw_as_cancelled",
        turn_redo,
        turn=turn,
        tiles="NE?SAAK",
        reason="x",
        by=secretary,
    )
    assert turn_redo(turn=turn, reason="x", by=secretary, rng=random.Random(1)).rack != "AAEKNS?"


def test_a_late_slip_is_judged_again_on_the_new_clock(competition, secretary, four_entrants):
    anna, bert, *_ = four_entrants
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    # 180 s and 2 s of grace: at 300 s the slip is late on this clock.
    late = slip_submit(
        turn=turn,
        player_id=anna.pk,
        text="8H KAAS",
        by=anna,
        arrived_at=turn.drawn_at + timedelta(seconds=300),
    )
    assert late.late and late_slips(turn) == [late]
    turn = turn_redo(turn=turn, tiles="KAAS?ET", reason="verkeerd", by=secretary)
    # The late slip is void, no longer the spelleider's to accept.
    assert late_slips(turn) == []
    refused("slip_void", slip_accept_late, slip=late, reason="telefoon", by=secretary)
    # Handed in again 10 s into the new clock: in time. K3 A1 A1 S2 = 7, x2 on H8 = 14.
    again = slip_submit(
        turn=turn,
        player_id=anna.pk,
        text="8H KAAS",
        by=anna,
        arrived_at=turn.drawn_at + timedelta(seconds=10),
    )
    assert (again.late, again.score, again.counted_score) == (False, 14, 14)
    # And one after the new clock's time is late by the new clock.
    late_again = slip_submit(
        turn=turn,
        player_id=bert.pk,
        text="8H KAAS",
        by=bert,
        arrived_at=turn.drawn_at + timedelta(seconds=183),
    )
    assert late_again.late
