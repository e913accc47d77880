"""The turn's clock kept by the server, late slips and their acceptance, time added: through
the services, with the moment of arrival passed in (`arrived_at=`), so no test waits.

The rules, from /work/wt/research/duplicate_sources.md: FISF-2023 §5.7 lists « Remise d'un
bulletin de jeu écrit après la fin du coup » among the faults whose sanction is the
« nullité » (0); NL-regl. §3.III.7: "Overschrijding van de gestelde tijd ... heeft een
nulscore tot gevolg". A late slip is kept, scores 0, is never a top nor a solo.
"""

from __future__ import annotations

import datetime
from dataclasses import replace

import pytest

from clubs.models import HistoryEntry
from duplicate.models import Slip, Turn
from duplicate.selectors import evening_results, season_results
from duplicate.services import DuplicateEveningError
from duplicate.services.competitions import duplicate_rules_set, evening_rules_apply
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_accept_late, slip_correct, slip_submit
from duplicate.services.turns import turn_add_time, turn_choose_top, turn_draw, turn_redo
from rules.referee import PRESETS, SlipRules

pytestmark = pytest.mark.django_db

#: When the tests' turn was drawn (8 p.m. in Gouda).
DRAWN = datetime.datetime(2026, 3, 5, 19, 0, 0, tzinfo=datetime.UTC)


def at(seconds: float) -> datetime.datetime:
    """The moment `seconds` after the draw."""
    return DRAWN + datetime.timedelta(seconds=seconds)


@pytest.fixture
def evening(competition, secretary):
    # The NTSV preset's rules: 180 s a turn, a grace of 2 s.
    return evening_create(competition=competition, number=1, by=secretary)


@pytest.fixture
def turn(evening, secretary):
    """Turn 1, rack AAEKNS?, drawn at DRAWN with 180 seconds: its top is 8D KAArSEN, 74."""
    drawn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    Turn.objects.filter(pk=drawn.pk).update(drawn_at=DRAWN)
    drawn.refresh_from_db()
    return drawn


def refused(code, call, **kwargs):
    with pytest.raises(DuplicateEveningError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.message
    return info.value


def hand_in(turn, player, text, seconds, **kwargs):
    return slip_submit(
        turn=turn, player_id=player.pk, text=text, by=None, arrived_at=at(seconds), **kwargs
    )


# -------------------------------------------------------------------- the clock


def thinking_time(competition, evening, seconds, by):
    """The competition's time per turn set to `seconds`, and applied to `evening`."""
    rules = PRESETS["ntsv"]
    changed = replace(rules, slips=replace(rules.slips, turn_seconds=seconds))
    duplicate_rules_set(competition=competition, settings=changed, by=by)
    evening_rules_apply(evening=evening, reason="sneller spelen", by=by)
    evening.refresh_from_db()  # as the next request reads it


def test_a_turn_keeps_the_thinking_time_it_was_drawn_with(competition, evening, secretary):
    thinking_time(competition, evening, 150, secretary)
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    # 150 s from the draw: 2'30, FISF-2023 §1.3's "deux minutes et trente secondes".
    assert (turn.seconds, turn.added_seconds) == (150, 0)
    assert turn.deadline == turn.drawn_at + datetime.timedelta(seconds=150)
    # A later change of the rules moves no turn already drawn.
    thinking_time(competition, evening, 60, secretary)
    turn.refresh_from_db()
    assert turn.seconds == 150


def test_in_time_up_to_the_grace_late_after_it(turn, four_entrants):
    anna, bert, cor, _dirk = four_entrants
    assert SlipRules().grace_seconds == 2  # the NTSV preset's (an interpretation)
    # 180 s of thinking time and 2 s of grace: in time up to 182 s after the draw.
    assert not hand_in(turn, anna, "8D KAArSEN", 179).late
    assert not hand_in(turn, bert, "8H KAAS", 182).late  # the phone showed 0:00 2 s ago
    late = hand_in(turn, cor, "8D KAArSEN", 182.5)
    # Kept, with the engine's own evaluation (74, a top), but it counts 0.
    assert (late.late, late.late_accepted, late.score, late.is_top) == (True, False, 74, True)
    assert (late.counted_score, late.counted_top) == (0, False)
    entry = HistoryEntry.objects.get(action="slip.submit", object_id=late.pk)
    assert entry.after["late"] is True and entry.after["score"] == 74


def test_a_slip_after_the_top_is_late_however_early(turn, four_entrants, secretary):
    anna, bert, *_ = four_entrants
    hand_in(turn, anna, "8H KAAS", 10)
    turn_choose_top(turn=turn, by=secretary)
    # 20 s into a 180 s turn, but the top is on the board: the slip could be copied.
    assert hand_in(turn, bert, "8D KAArSEN", 20).late


def test_a_paper_slip_typed_after_the_time_is_not_late(turn, four_entrants, secretary):
    """Paper slips were handed in when the time was called; the secretary types them
    afterwards by nature (`on_paper`): only a phone's own hand-in meets the clock."""
    anna, bert, *_ = four_entrants
    assert not hand_in(turn, anna, "8D KAArSEN", 600, on_paper=True).late
    turn_choose_top(turn=turn, by=secretary)
    paper = hand_in(turn, bert, "8H KAAS", 900, on_paper=True)
    assert (paper.late, paper.counted_score) == (False, 14)


def test_a_correction_keeps_the_slip_late(turn, four_entrants, secretary):
    anna, *_ = four_entrants
    late = hand_in(turn, anna, "8H KAAZ", 200)
    fixed = slip_correct(slip=late, text="8H KAAS", claimed=14, reason="misgelezen", by=secretary)
    assert (fixed.score, fixed.late, fixed.counted_score) == (14, True, 0)


# -------------------------------------------------------------------- time added


def test_the_spelleider_adds_time_with_a_reason(turn, four_entrants, secretary):
    anna, *_ = four_entrants
    refused("no_reason", turn_add_time, turn=turn, seconds=30, reason="  ", by=secretary)
    for bad in (0, -5, 601):
        refused("bad_seconds", turn_add_time, turn=turn, seconds=bad, reason="lawaai", by=secretary)
    turn.refresh_from_db()
    assert turn.added_seconds == 0 and not HistoryEntry.objects.filter(action="duplicate.add_time")

    turn_add_time(turn=turn, seconds=30, reason="brandalarm", by=secretary)
    added = turn_add_time(turn=turn, seconds=600, reason="stroomstoring", by=secretary)
    # 180 + 30 + 600 = 810 s: time up at 19:13:30 UTC.
    assert (added.added_seconds, added.deadline) == (630, at(810))
    first, second = HistoryEntry.objects.filter(action="duplicate.add_time").order_by("pk")
    assert (first.before, first.after, first.reason) == (
        {"turn": 1, "deadline": "2026-03-05T19:03:00+00:00"},
        {"turn": 1, "deadline": "2026-03-05T19:03:30+00:00", "added_seconds": 30},
        "brandalarm",
    )
    assert second.before["deadline"] == first.after["deadline"]
    # In time up to 810 + 2 s after the draw.
    assert not hand_in(turn, anna, "8H KAAS", 812).late


def test_no_time_is_added_once_the_top_is_on_the_board(turn, secretary):
    turn_choose_top(turn=turn, by=secretary)
    refused("turn_closed", turn_add_time, turn=turn, seconds=30, reason="te laat", by=secretary)
    turn.refresh_from_db()
    assert turn.added_seconds == 0


def test_a_turn_drawn_again_starts_its_clock_again(turn, secretary, competition):
    turn_add_time(turn=turn, seconds=60, reason="onderbreking", by=secretary)
    thinking_time(competition, turn.evening, 120, secretary)
    again = turn_redo(turn=turn, by=secretary, reason="verkeerd getypt", tiles="TWOORDA")
    assert (again.seconds, again.added_seconds) == (120, 0)
    assert again.drawn_at > DRAWN


# -------------------------------------------------------------------- acceptance


def test_the_spelleider_accepts_a_late_slip_with_a_reason(turn, four_entrants, secretary):
    anna, bert, *_ = four_entrants
    in_time = hand_in(turn, anna, "8H KAAS", 30)
    late = hand_in(turn, bert, "8D KAArSEN", 200)
    refused("no_reason", slip_accept_late, slip=late, reason="", by=secretary)
    refused("not_late", slip_accept_late, slip=in_time, reason="telefoon", by=secretary)
    late.refresh_from_db()
    assert not late.late_accepted

    accepted = slip_accept_late(slip=late, reason="telefoon had geen verbinding", by=secretary)
    assert (accepted.late, accepted.late_accepted, accepted.counted_score) == (True, True, 74)
    entry = HistoryEntry.objects.get(action="slip.accept_late")
    assert (entry.before, entry.after, entry.reason, entry.object_id) == (
        {"slip": "8D KAArSEN", "score": 0, "late_accepted": False},
        {"slip": "8D KAArSEN", "score": 74, "late_accepted": True},
        "telefoon had geen verbinding",
        late.pk,
    )
    # A second click changes nothing.
    slip_accept_late(slip=late, reason="nog eens", by=secretary)
    assert HistoryEntry.objects.filter(action="slip.accept_late").count() == 1


# -------------------------------------------------------------------- the rankings


def test_a_late_slip_counts_0_is_no_top_and_takes_no_solo(
    turn, four_entrants, secretary, competition
):
    anna, bert, cor, _dirk = four_entrants
    hand_in(turn, anna, "8D KAArSEN", 60)  # the top, 74
    hand_in(turn, cor, "8H KAAS", 90)  # K3 A1 A1 S2 = 7, on H8 (DW): 14
    late = hand_in(turn, bert, "H4 KAAtSEN", 190)  # also 74, 8 s after the time's grace
    turn_choose_top(turn=turn, by=secretary)

    rows = [(r.player_id, r.total, r.tops, r.solos, r.rank) for r in evening_results(turn.evening)]
    # Bert's 74 counts 0: Anna alone found the top, a solo; sum of the tops 74.
    assert rows == [(anna.pk, 74, 1, 1, 1), (cor.pk, 14, 0, 0, 2), (bert.pk, 0, 0, 0, 3)]
    season = [(r.player_id, round(r.average, 2)) for r in season_results(competition.pk)]
    assert season == [(anna.pk, 100.0), (cor.pk, 18.92), (bert.pk, 0.0)]  # 14 / 74

    slip_accept_late(slip=late, reason="verbinding weg", by=secretary)
    rows = [(r.player_id, r.total, r.tops, r.solos, r.rank) for r in evening_results(turn.evening)]
    # Accepted, it counts as in time: two found the top, so no solo.
    assert rows == [(anna.pk, 74, 1, 0, 1), (bert.pk, 74, 1, 0, 1), (cor.pk, 14, 0, 0, 3)]
    assert Slip.objects.get(pk=late.pk).score == 74  # nothing was scored again


# -------------------------------------------------------------------- the migration


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_turn_its_competition_s_thinking_time():
    from tests.duplicate.test_model import _leaves, held_back, migrate

    before = held_back({"duplicate": "0006_paired_rows_of_duplicate_competitions_removed"})
    old = migrate(before)
    try:
        club = old.get_model("clubs", "Club").objects.create(name="Gouda", slug="gouda")
        Competition_ = old.get_model("duplicate", "DuplicateCompetition")
        Evening = old.get_model("duplicate", "Evening")
        Turn = old.get_model("duplicate", "Turn")
        for slug, seconds in (("snel", 60), ("gewoon", 180)):
            competition = Competition_.objects.create(
                club=club, name=slug, slug=slug, think_seconds=seconds
            )
            evening = Evening.objects.create(competition=competition, number=1)
            Turn.objects.create(evening=evening, number=1, drawn="KAASEIN", rack="KAASEIN")
    finally:
        new = migrate(_leaves())
    turns = new.get_model("duplicate", "Turn").objects.order_by("evening__competition__slug")
    assert [(t.evening.competition.slug, t.seconds, t.added_seconds) for t in turns] == [
        ("gewoon", 180, 0),
        ("snel", 60, 0),
    ]
    # The thinking time is the rules' now (duplicate/0008): 180 s is the NTSV preset's, so
    # "gewoon" keeps empty rules; "snel" and its evening keep their 60 s.
    competitions = new.get_model("duplicate", "DuplicateCompetition").objects.order_by("slug")
    assert [(c.slug, c.settings) for c in competitions] == [
        ("gewoon", {}),
        ("snel", {"preset": "ntsv", "slips": {"turn_seconds": 60}}),
    ]
    evenings = new.get_model("duplicate", "Evening").objects.order_by("competition__slug")
    assert [e.slip_rules for e in evenings] == [{}, {"turn_seconds": 60}]
