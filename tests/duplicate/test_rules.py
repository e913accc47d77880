"""A duplicate competition's rules: a preset (NTSV, FISF) and what the club plays
differently, each evening counted by the rules it was made with; slips judged by the
referee (warnings, penalties), solos and their bonus, in the ranking, on the phone, on the
spelleider's pages and on the room screen. The figures are worked out by hand from the
rules they come from (docs/duplicate.md, "Presets and their sources")."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import HistoryEntry
from duplicate.models import DuplicateCompetition, Evening, Slip, Turn
from duplicate.replay import duplicate_settings
from duplicate.selectors import evening_results
from duplicate.services import DuplicateEveningError
from duplicate.services.competitions import duplicate_rules_set, evening_rules_apply
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from rules.referee import PRESETS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FISF = PRESETS["fisf"]


def fisf(**slips):
    """The FISF preset, with what the club plays differently."""
    return replace(FISF, slips=replace(FISF.slips, **slips))


def url(name, competition, *extra):
    return reverse(name, args=[competition.club.slug, competition.slug, *extra])


def first_turn(evening, secretary):
    """Turn 1, rack AAEKNS?: its top is 8D KAArSEN, 74 (K on D8, a double letter, 6;
    A1 A1 r0 S1 E1 N1; the star doubles: 12 x 2 = 24; + 50 for all seven tiles)."""
    return turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)


def hand_in(turn, player, text, claimed=None):
    return slip_submit(turn=turn, player_id=player.pk, text=text, claimed=claimed, by=None)


def rows_of(evening, four_entrants):
    names = {player.pk: player.name for player in four_entrants}
    return {
        names[row.player_id]: (row.total, row.points, row.warnings, row.penalty, row.solos)
        for row in evening_results(evening)
    }


def test_under_the_fisf_rules_faults_warn_and_cost_a_penalty(competition, secretary, four_entrants):
    anna, bert, cor, dirk = four_entrants
    # The club plays the FISF's rules but without free warnings: each one costs 5 points
    # (FISF-2023 §5.9 has 3 free; a club may change what it plays differently).
    duplicate_rules_set(competition=competition, settings=fisf(free_warnings=0), by=secretary)
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = first_turn(evening, secretary)
    hand_in(turn, anna, "8D KAArSEN", 74)  # the top, written right: no fault
    # The blank's R not marked, the play otherwise clear: a warning, paid the score at that
    # place (FISF §5.3.2, §5.5): 74.
    bert_slip = hand_in(turn, bert, "8D KAARSEN", 74)
    assert (bert_slip.score, bert_slip.warning, bert_slip.penalty) == (74, "blank_unmarked", 0)
    # Row 9 for row 8: on the first turn the word's maximum is paid whatever the position,
    # without a fault (FISF §5.4.2.a): 74 at 8D. (From the second turn the position off
    # costs 5: tests/rules/test_referee.py.)
    cor_slip = hand_in(turn, cor, "9D KAArSEN", 74)
    assert (cor_slip.score, cor_slip.penalty, cor_slip.faults) == (74, 0, [])
    # KAAS on the star, 14, written as 20: a warning, paid its real 14 (FISF §5.3.2).
    dirk_slip = hand_in(turn, dirk, "8H KAAS", 20)
    assert (dirk_slip.score, dirk_slip.warning) == (14, "score_wrong")
    turn_choose_top(turn=turn, by=secretary)

    # (total, points before penalties, warnings, penalties, solos): each warning costs 5
    # (none free). Nobody is alone with the
    # highest score: anna, bert and cor all wrote 74 (solos compare before penalties,
    # FISF §3.5).
    assert rows_of(evening, four_entrants) == {
        "Anna": (74, 74, 0, 0, 0),
        "Bert": (69, 74, 1, 5, 0),  # 74 - 5
        "Cor": (74, 74, 0, 0, 0),
        "Dirk": (9, 14, 1, 5, 0),  # 14 - 5
    }


def test_under_the_ntsv_preset_the_same_slips_score_as_before(
    competition, secretary, four_entrants
):
    """The NTSV preset is Bordpunt's behaviour so far: a wrong score corrected, any other
    fault 0, no warnings, no penalties, no solo bonus."""
    anna, bert, cor, dirk = four_entrants
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = first_turn(evening, secretary)
    hand_in(turn, anna, "8D KAArSEN", 74)
    assert hand_in(turn, bert, "8D KAARSEN", 74).score == 0  # R not in the rack
    assert hand_in(turn, cor, "9D KAArSEN", 74).score == 0  # does not touch the star
    assert hand_in(turn, dirk, "8H KAAS", 20).score == 14  # corrected
    turn_choose_top(turn=turn, by=secretary)
    assert rows_of(evening, four_entrants) == {
        "Anna": (74, 74, 0, 0, 1),  # alone with the top: a solo, no bonus
        "Bert": (0, 0, 0, 0, 0),
        "Cor": (0, 0, 0, 0, 0),
        "Dirk": (14, 14, 0, 0, 0),
    }


def test_a_solo_earns_its_bonus_shown_in_the_ranking_and_on_the_room_screen(
    client, competition, secretary, four_entrants
):
    anna, bert, cor, dirk = four_entrants
    # FISF §3.5: 10 points for a solo in a room of at least 16; this club gives it from 4.
    duplicate_rules_set(competition=competition, settings=fisf(solo_min_players=4), by=secretary)
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = first_turn(evening, secretary)
    hand_in(turn, anna, "8D KAArSEN", 74)
    for player in (bert, cor, dirk):
        hand_in(turn, player, "8H KAAS", 14)
    turn_choose_top(turn=turn, by=secretary)
    ranking = {row.player_id: row for row in evening_results(evening)}
    # Anna alone scored highest: a solo, 74 + 10 = 84 (84 / 74 of the tops = 113.51%).
    assert (ranking[anna.pk].total, ranking[anna.pk].solo_bonus) == (84, 10)
    assert round(ranking[anna.pk].percentage, 2) == 113.51
    assert (ranking[bert.pk].total, ranking[bert.pk].solos) == (14, 0)
    screen = client.get(reverse("duplicate_screen_panel", args=[*_keys(evening)])).content
    assert b'id="screen-solo"' in screen and b"Anna" in screen
    page = client.get(reverse("duplicate_evening", args=[*_keys(evening)])).content.decode()
    assert 'class="text-end col-optional solo-bonus">10<' in page

    # Three players: below the club's minimum of 4, the solo is counted without a bonus.
    duplicate_rules_set(competition=competition, settings=fisf(solo_min_players=5), by=secretary)
    evening_rules_apply(evening=evening, reason="bonus vanaf 5 spelers", by=secretary)
    evening.refresh_from_db()  # as the next request reads it
    ranking = {row.player_id: row for row in evening_results(evening)}
    assert (ranking[anna.pk].total, ranking[anna.pk].solos, ranking[anna.pk].solo_bonus) == (
        74,
        1,
        0,
    )


def _keys(evening):
    competition = evening.competition
    return competition.club.slug, competition.slug, evening.number


def test_an_evening_keeps_its_rules_until_the_spelleider_applies_new_ones(
    competition, secretary, four_entrants
):
    anna, bert, *_ = four_entrants
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = first_turn(evening, secretary)
    hand_in(turn, anna, "8D KAArSEN", 74)
    hand_in(turn, bert, "8D KAARSEN", 74)  # NTSV: not in the rack, 0
    turn_choose_top(turn=turn, by=secretary)
    before = rows_of(evening, four_entrants)
    assert before["Bert"] == (0, 0, 0, 0, 0)

    duplicate_rules_set(competition=competition, settings=FISF, by=secretary)
    evening.refresh_from_db()
    assert rows_of(evening, four_entrants) == before  # nothing changes by itself
    assert evening_create(competition=competition, number=2, by=secretary).slip_rules == (
        FISF.slips.to_dict()
    )  # a new evening plays the new rules

    with pytest.raises(DuplicateEveningError) as refused:
        evening_rules_apply(evening=evening, reason=" ", by=secretary)
    assert refused.value.code == "no_reason"
    evening_rules_apply(evening=evening, reason="de club speelt FISF", by=secretary)
    evening.refresh_from_db()
    # Bert's blank unmarked is a warning now (FISF §5.5), paid 74; 3 warnings are free.
    assert rows_of(evening, four_entrants)["Bert"] == (74, 74, 1, 0, 0)
    # The history keeps the rules before and after, and Bert's slip before and after.
    changed = HistoryEntry.objects.filter(object_type="duplicate_evening", object_id=evening.pk)
    rules_entry = changed.get(action="duplicate.settings")
    assert rules_entry.reason == "de club speelt FISF"
    assert rules_entry.before["slips.blank_unmarked"] == "zero"
    assert rules_entry.after["slips.blank_unmarked"] == "warning"
    slip_entry = HistoryEntry.objects.get(
        action="slip.correct", object_id=Slip.objects.get(player=bert).pk
    )
    assert (slip_entry.before["score"], slip_entry.after["score"]) == (0, 74)
    # Twice is once: nothing left to change writes nothing.
    count = HistoryEntry.objects.count()
    evening_rules_apply(evening=evening, reason="nog eens", by=secretary)
    assert HistoryEntry.objects.count() == count


def test_the_rules_page_loads_a_preset_saves_the_clubs_own_and_applies_them(
    secretary_client, competition, secretary, four_entrants
):
    evening = evening_create(competition=competition, number=1, by=secretary)
    page_url = url("duplicate_rules", competition)
    visitor = Client()
    assert visitor.get(page_url).status_code == 302  # to the login page
    visitor.force_login(UserFactory())
    assert visitor.get(page_url).status_code == 403  # not a secretary of this club

    html = secretary_client.get(page_url).content.decode()
    assert 'id="rules-form"' in html and 'id="apply-form"' not in html
    # Loading a preset fills the form; nothing is saved until the secretary saves.
    loaded = secretary_client.post(page_url, {"action": "preset", "preset": "fisf"})
    form = loaded.context["form"]
    assert form["slips__solo_bonus"].value() == 10 and form["draw__leftovers"].value() == "keep"
    assert DuplicateCompetition.objects.get().settings == {}

    data = {
        name: ("on" if value is True else value)
        for name, value in form.initial.items()
        if value is not False and value is not None
    }
    data |= {"action": "save", "slips__solo_min_players": "8"}
    assert secretary_client.post(page_url, data).status_code == 302
    saved = duplicate_settings(DuplicateCompetition.objects.get())
    assert saved == fisf(solo_min_players=8)
    entry = HistoryEntry.objects.filter(action="duplicate.settings").latest("pk")
    assert entry.after["slips.solo_min_players"] == 8 and entry.after["preset"] == "fisf"
    history = secretary_client.get(url("duplicate_history", competition)).content.decode()
    assert "8" in history and "FISF" in history

    # The evening made before still plays the NTSV's: the page offers to apply the new rules.
    html = secretary_client.get(page_url).content.decode()
    assert 'id="apply-form"' in html
    applied = secretary_client.post(
        page_url, {"action": "apply", "evening": str(evening.pk), "reason": "FISF"}
    )
    assert applied.status_code == 302
    assert Evening.objects.get(pk=evening.pk).slip_rules == saved.slips.to_dict()
    assert 'id="apply-form"' not in secretary_client.get(page_url).content.decode()


@pytest.mark.parametrize(
    "field, value",
    [
        ("slips__turn_seconds", "5"),  # below 10 s
        ("slips__turn_seconds", "٣٠٠"),  # digits of another script
        ("slips__penalty_points", "9" * 40),
        ("slips__position_off", "banaan"),
        ("draw__min_vowels", "8"),
        ("draw__vowels", "aé\x00"),
        ("preset", "scrabble"),
    ],
)
def test_odd_rules_are_refused_with_a_message_and_change_nothing(
    secretary_client, competition, field, value
):
    page_url = url("duplicate_rules", competition)
    form = secretary_client.get(page_url).context["form"]
    data = {
        name: ("on" if value is True else value)
        for name, value in form.initial.items()
        if value is not False and value is not None
    }
    response = secretary_client.post(page_url, {**data, "action": "save", field: value})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert DuplicateCompetition.objects.get().settings == {}
    assert not HistoryEntry.objects.filter(action="duplicate.settings").exists()


def test_under_the_fisf_rules_a_rejected_draw_goes_back_whole(
    competition, secretary, four_entrants
):
    """FISF-2023 §3.2: a draw without 2 vowels and 2 consonants (turns 1-15) is rejected:
    « le juge-arbitre remet toutes les lettres dans le sac (reliquat compris) »."""
    from duplicate.replay import master_game
    from duplicate.selectors import evening_state
    from duplicate.services.evenings import evening_rescore

    duplicate_rules_set(competition=competition, settings=FISF, by=secretary)
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn_choose_top(turn=turn_draw(evening=evening, tiles="KAASEIN", by=secretary), by=secretary)
    game = master_game(evening)
    kept, needed = game.kept, game.needed()
    assert kept and needed < 7  # the top left tiles on the rack: FISF keeps them (§3.1)
    vowels = "".join(sorted(t for t in game.bag.elements() if t in "AEIOU"))[:needed]
    with pytest.raises(DuplicateEveningError) as refused:
        turn_draw(evening=evening, tiles=vowels, by=secretary)
    assert refused.value.code == "duplicate_draw_minimum"
    # Thrown back with the kept tiles: the next draw is a whole new rack of seven.
    fresh = "".join(sorted(game.bag.elements()))  # what the bag held before the rejection
    seven = next(
        candidate
        for candidate in ("TRDNOEL", "TRDNOEM", "GRDNOEL", "TLDNOEA")
        if not (Counter(candidate) - Counter(fresh) - Counter(kept))
    )
    turn = turn_draw(evening=evening, tiles=seven, rejected=vowels, by=secretary)
    assert (turn.rejected, sorted(turn.drawn), len(turn.rack)) == (vowels, sorted(seven), 7)
    assert sorted(turn.rack) == sorted(seven)
    # The game replays the rejection: the page's state and the engine's rescoring agree.
    assert evening_state(evening).game.rack == turn.rack
    evening_rescore(evening)
    assert Turn.objects.get(pk=turn.pk).rack == turn.rack


def test_under_the_ntsv_preset_a_rejected_draw_is_not_kept(competition, secretary):
    """The NTSV's leftovers go back every turn, so a draw is always a whole rack and a
    throw-back never leaves a trace (`rejection="new"`)."""
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = turn_draw(evening=evening, tiles="KAASEIN", by=secretary, rng=None)
    assert turn.rejected == ""


def test_the_spelleiders_page_keeps_a_refused_draw_as_thrown_back(
    secretary_client, competition, secretary
):
    duplicate_rules_set(competition=competition, settings=FISF, by=secretary)
    evening = evening_create(competition=competition, number=1, by=secretary)
    leader = reverse("duplicate_leader", args=[*_keys(evening)])
    page = secretary_client.get(leader).content.decode()
    assert 'id="draw-rejected"' in page  # the FISF's rejected rack goes back whole
    # Four vowels and three consonants would do; seven vowels break the 2 + 2 (§3.2).
    refused = secretary_client.post(leader, {"action": "draw", "tiles": "AAEEIIO"})
    assert refused.status_code == 200
    html = refused.content.decode()
    assert 'id="draw-refusal"' in html and 'value="AAEEIIO"' in html  # now thrown back
    assert not Turn.objects.exists()
    drawn = secretary_client.post(
        leader, {"action": "draw", "tiles": "KAAS?EN", "rejected": "AAEEIIO"}
    )
    assert drawn.status_code == 302
    turn = Turn.objects.get()
    assert (turn.rejected, turn.rack) == ("AAEEIIO", "AAEKNS?")
    # Odd thrown-back draws are refused with a message, never a server error.
    turn_choose_top(turn=turn, by=secretary)
    for odd in ("ZZZZZZZ", "٣٣", "\x00", "A" * 90, "KAAS?EN"):
        answer = secretary_client.post(
            leader, {"action": "draw", "tiles": "TWOORDA", "rejected": odd}
        )
        assert answer.status_code == 200, odd
        assert Turn.objects.count() == 1


def test_the_phone_shows_its_own_warning_and_the_secretary_sees_everyones(
    client, secretary_client, competition, secretary, four_entrants
):
    anna, bert, *_ = four_entrants
    bert.user = UserFactory(username="bert")
    bert.save()
    # The first turn's own rule off, so that turn 1's board shows a position off.
    rules = fisf(first_turn_max=False)
    duplicate_rules_set(competition=competition, settings=rules, by=secretary)
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = first_turn(evening, secretary)
    hand_in(turn, anna, "8H KAAS", 20)  # a wrong score: a warning (FISF §5.3.2)
    hand_in(turn, bert, "9D KAArSEN", 74)  # one row off: a penalty of 5 (FISF §5.6)
    phone = Client()
    phone.force_login(bert.user)
    mine = phone.get(reverse("duplicate_slip", args=[*_keys(evening)])).content.decode()
    assert "straf −5" in mine and "verkeerde score" not in mine  # his own only
    paper = secretary_client.get(reverse("duplicate_paper", args=[*_keys(evening)]))
    html = paper.content.decode()
    assert "straf −5" in html and "waarschuwing: verkeerde score opgeschreven" in html
