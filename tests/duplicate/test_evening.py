"""A duplicate evening through its services: draws, tops, slips, corrections, rankings."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import HistoryEntry
from duplicate.models import Slip
from duplicate.selectors import evening_results, season_results
from duplicate.services import DuplicateEveningError
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_correct, slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw, turn_redo
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(competition, secretary):
    return evening_create(competition=competition, number=1, by=secretary)


def refused(code, call, **kwargs):
    with pytest.raises(DuplicateEveningError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.message
    return info.value


def test_an_evening_of_two_turns_with_slips_scored_and_ranked(
    evening, competition, secretary, four_entrants
):
    anna, bert, cor, dirk = four_entrants
    assert evening_create(competition=competition, number=1, by=secretary) == evening
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    assert (turn.number, turn.rack, turn.top_score, turn.top) == (1, "AAEKNS?", 74, "")
    refused("turn_open", turn_draw, evening=evening, tiles="TRWOORD", by=secretary)

    # K on D8 (DL) 6, A1 A1, r0, S on H8 (DW) 2, E1 N1 = 12 x 2 = 24, + 50: claimed 76.
    slip = slip_submit(turn=turn, player_id=anna.pk, text="8D KAArSEN", claimed=76, by=anna)
    assert (slip.score, slip.corrected, slip.is_top, slip.late) == (74, True, True, False)
    # K3 A1 A1 S2 = 7, on H8 (DW): 14.
    assert (
        slip_submit(turn=turn, player_id=bert.pk, text="8H KAAS", claimed=14, by=bert).score == 14
    )
    bad = slip_submit(turn=turn, player_id=cor.pk, text="8H KAAZ", claimed=30, by=cor)
    assert (bad.score, bad.reason_code, bad.reason_params["missing"]) == (0, "not_in_rack", "Z")
    # Lowercase letters are blanks: the rack has one, the set two.
    assert slip_submit(turn=turn, player_id=dirk.pk, text="8h kaas", by=dirk).score == 0
    Slip.objects.filter(player=dirk).delete()  # (a test shortcut: services never delete)
    refused("slip_twice", slip_submit, turn=turn, player_id=bert.pk, text="8H KAS", by=bert)
    stranger = PlayerFactory(name="Els")
    refused("not_an_entrant", slip_submit, turn=turn, player_id=stranger.pk, text="8H KAS", by=bert)

    turn = turn_choose_top(turn=turn, by=secretary)
    assert (turn.top, turn.top_score, turn.total) == ("8D KAArSEN", 74, 74)
    assert turn_choose_top(turn=turn, by=secretary, play="8H SNAAKsE") == turn  # a second click
    # After the top a slip is late: kept with the engine's evaluation (74, a top play),
    # but it counts 0, so no top and no solo: FISF-2023 §5.7, « Remise d'un bulletin de jeu
    # écrit après la fin du coup » -> nullité (research/duplicate_sources.md, b).
    late = slip_submit(turn=turn, player_id=dirk.pk, text="H4 KAAtSEN", claimed=74, by=dirk)
    assert (late.score, late.is_top, late.late) == (74, True, True)
    assert (late.counts, late.counted_score, late.counted_top) == (False, 0, False)

    # The blank went back: the bag's R replaced it, so the next draw is T W O O R D A.
    second = turn_draw(evening=evening, tiles="TWOORDA", by=secretary)
    assert (second.rack, second.top_score) == ("ADOORTW", 79)
    # A1 N1 T2 W on J10 (TL) 15 O1 O1 R2 D on J14 (TL) 6 = 29, + 50.
    top = slip_submit(turn=second, player_id=anna.pk, text="J7 ANTWOORD", claimed=79, by=anna)
    assert (top.score, top.is_top, top.corrected) == (79, True, False)
    refused("duplicate_not_a_top", turn_choose_top, turn=second, by=secretary, play="8H WOORD")
    second = turn_choose_top(turn=second, by=secretary, play="J7 A.TWOORD")
    assert second.total == 153

    # The secretary misread Cor's slip: corrected, with the reason, before and after kept.
    refused(
        "no_reason", slip_correct, slip=bad, text="8H KAAS", claimed=14, reason=" ", by=secretary
    )
    fixed = slip_correct(
        slip=bad, text="8H KAAS", claimed=14, reason="Z gelezen, S geschreven", by=secretary
    )
    assert (fixed.score, fixed.reason_code, fixed.corrected) == (14, "", False)
    entry = HistoryEntry.objects.get(action="slip.correct")
    assert entry.before == {"slip": "8H KAAZ", "claimed": 30, "score": 0}
    assert entry.after == {"slip": "8H KAAS", "claimed": 14, "score": 14}
    assert entry.reason == "Z gelezen, S geschreven"
    actions = list(HistoryEntry.objects.order_by("id").values_list("action", flat=True))
    assert actions == [
        "duplicate.evening",
        "duplicate.draw",
        "slip.submit",
        "slip.submit",
        "slip.submit",
        "slip.submit",  # Dirk's, deleted by the test
        "duplicate.top",
        "slip.submit",
        "duplicate.draw",
        "slip.submit",
        "duplicate.top",
        "slip.correct",
    ]

    with CaptureQueriesContext(connection) as queries:
        rows = evening_results(evening)
    assert len(queries) == 2
    table = [(r.player_id, r.total, round(r.percentage, 2), r.tops, r.solos, r.rank) for r in rows]
    assert table == [
        # Both tops hers alone: turn 1's too, as Dirk's 74 came after the top (counts 0).
        (anna.pk, 153, 100.0, 2, 2, 1),
        (bert.pk, 14, 9.15, 0, 0, 2),  # 14 / 153
        (cor.pk, 14, 9.15, 0, 0, 2),
        (dirk.pk, 0, 0.0, 0, 0, 4),  # his late slip: 0
    ]
    assert [r.player_id for r in season_results(competition.pk)] == [
        anna.pk,
        bert.pk,
        cor.pk,
        dirk.pk,
    ]


def test_the_app_draws_a_rack_that_meets_the_minimum(competition, secretary):
    evening = evening_create(
        competition=competition,
        number=2,
        by=secretary,
        draw_rules={"name": "two-two", "min_vowels": 2, "min_consonants": 2},
    )
    turn = turn_draw(evening=evening, by=secretary, rng=random.Random(5))
    vowels = sum(1 for t in turn.rack if t in "AEIOU")
    consonants = sum(1 for t in turn.rack if t not in "AEIOU?")
    assert len(turn.rack) == 7 and vowels >= 2 and consonants >= 2
    refused(
        "invalid_draw_rules",
        evening_create,
        competition=competition,
        number=3,
        by=secretary,
        draw_rules={"name": "x", "leftovers": "burn"},
    )


def test_a_typed_draw_the_bag_cannot_give_is_refused_and_nothing_is_written(evening, secretary):
    before = HistoryEntry.objects.count()
    refused("duplicate_not_in_bag", turn_draw, evening=evening, tiles="QQAAEEN", by=secretary)
    refused("duplicate_draw_size", turn_draw, evening=evening, tiles="KAAS", by=secretary)
    refused("unknown_letter", turn_draw, evening=evening, tiles="KAAS1EN", by=secretary)
    assert HistoryEntry.objects.count() == before and not evening.turns.exists()
    assert not Slip.objects.exists()


def test_the_last_turn_played_again_voids_its_slips_and_opens_the_hand_in_again(
    evening, secretary, four_entrants
):
    anna, bert, *_ = four_entrants
    # The spelleider typed KAAS?EN; the real draw was KAAS?ET.
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    slip_submit(turn=turn, player_id=anna.pk, text="8H KAAS", claimed=14, by=anna)
    slip_submit(turn=turn, player_id=bert.pk, text="8D KAArSEN", by=bert)
    turn = turn_choose_top(turn=turn, by=secretary)
    refused("no_reason", turn_redo, turn=turn, tiles="KAAS?ET", reason="", by=secretary)
    # The same rack again is no other draw (FISF §3.6): thrown back, drawn again.
    refused(
        "duplicate_draw_as_cancelled",
        turn_redo,
        turn=turn,
        tiles="KAAS?NE",
        reason="x",
        by=secretary,
    )
    turn = turn_redo(turn=turn, tiles="KAAS?ET", reason="verkeerd ingetikt", by=secretary)
    assert (turn.rack, turn.cancelled, turn.top, turn.total, turn.is_open) == (
        "AAEKST?",
        "AAEKNS?",
        "",
        None,
        True,
    )
    # Both slips stay as they were handed in on the cancelled rack, void.
    assert [(s.player_id, s.text, s.score, s.void) for s in Slip.objects.order_by("pk")] == [
        (anna.pk, "8H KAAS", 14, True),
        (bert.pk, "8D KAArSEN", 74, True),
    ]
    redo = HistoryEntry.objects.get(action="duplicate.redo")
    assert redo.before == {"drawn": "AAEKNS?", "rack": "AAEKNS?", "top": "8D KAArSEN", "score": 74}
    assert redo.reason == "verkeerd ingetikt"
    voided = HistoryEntry.objects.filter(action="slip.void").order_by("pk")
    assert [(e.before, e.after, e.reason, e.reason_code) for e in voided] == [
        (
            {"turn": 1, "slip": "8H KAAS", "score": 14},
            {"turn": 1, "slip": "8H KAAS", "score": 0, "void": True},
            "verkeerd ingetikt",
            "turn_redo",
        ),
        (
            {"turn": 1, "slip": "8D KAArSEN", "score": 74},
            {"turn": 1, "slip": "8D KAArSEN", "score": 0, "void": True},
            "verkeerd ingetikt",
            "turn_redo",
        ),
    ]
    assert not HistoryEntry.objects.filter(action="slip.correct").exists()
    # The hand-in is open again, on the new rack; a second slip is refused as before.
    # K3 A1 A1 S2 = 7, on H8 (DW): 14, on either rack.
    again = slip_submit(turn=turn, player_id=anna.pk, text="8H KAAS", claimed=14, by=anna)
    assert (again.score, again.void, again.late) == (14, False, False)
    refused("slip_twice", slip_submit, turn=turn, player_id=anna.pk, text="8H KAS", by=anna)
    turn = turn_choose_top(turn=turn, by=secretary)
    # Bert's void 74 counts nothing: he has no slip that stands.
    assert {row.player_id: row.total for row in evening_results(evening)} == {anna.pk: 14}
    turn_draw(evening=evening, tiles="EIGLMPU", by=secretary)
    refused("not_last_turn", turn_redo, turn=turn, tiles="KAAS?EN", reason="x", by=secretary)


def test_odd_slips_score_zero_with_a_reason_and_never_fail(evening, secretary, four_entrants):
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    for player, text in zip(
        four_entrants, ["8H KA\x00AS", "\u202e8H KAAS", "x" * 500, "8H 😀"], strict=True
    ):
        slip = slip_submit(turn=turn, player_id=player.pk, text=text, by=player)
        assert len(slip.text) <= 60 and "\x00" not in slip.text
        assert slip.score == 0 or slip.text == "8H KAAS"
        assert slip.reason_code or slip.score


def test_the_pages_replay_an_evening_once_and_anew_after_any_change(evening, secretary):
    """The pages share one replay of the master game per process while the turns stay as
    they are (the whole room hands in within seconds); a new draw, a top put on the board
    or a turn played again gives a new replay, never the old board."""
    from duplicate.selectors import evening_state

    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    first = evening_state(evening)
    assert evening_state(evening).game is first.game
    assert first.game.rack == "AAEKNS?" and first.game.total == 0
    turn = turn_choose_top(turn=turn, by=secretary)
    on_board = evening_state(evening)
    assert on_board.game is not first.game
    assert (on_board.game.total, on_board.last_closed.top) == (74, "8D KAArSEN")
    turn_redo(turn=turn, tiles="KAAS?ET", reason="verkeerd ingetikt", by=secretary)
    again = evening_state(evening)
    assert again.game is not on_board.game
    assert again.open_turn.rack == again.game.rack == "AAEKST?" and again.game.total == 0
    # Another evening with the same draws has a replay of its own.
    other = evening_create(competition=evening.competition, number=2, by=secretary)
    turn_draw(evening=other, tiles="KAAS?ET", by=secretary)
    assert evening_state(other).game is not again.game
