"""The duplicate referee (rules.referee): slip faults judged on real boards, the evening
tally, the presets, and the draw rules of the FISF preset (rejection, end of game).
Every figure is worked out by hand in a comment, with the rule it comes from:
FISF-2023 = the FISF rulebook in force on 1 January 2023 (sources: docs/duplicate.md,
*Presets and their sources*)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import DUTCH, STANDARD, TileSet
from rules.dawg import build
from rules.duplicate import NTSV, DrawRules, DuplicateError, DuplicateGame, bag_order, play_bag
from rules.duplicate import score_slip as today
from rules.referee import (
    FAULTS,
    PRESETS,
    DuplicateSettings,
    SlipLine,
    SlipRules,
    Tally,
    judge_slip,
    tally,
)

from .test_duplicate import HAND, HAND_WORDS

#: The FISF's slip rules as from the second turn (§5.3: "Cette section ne s'applique qu'à
#: partir du deuxième coup"): the faults are shown on the first turn's board, the only
#: board worked out by hand here, with the first turn's own rule (§5.4.2.a) left out.
FISF = dataclasses.replace(PRESETS["fisf"].slips, first_turn_max=False)
FISF_PRESET = PRESETS["fisf"].slips
NTSV_SLIPS = PRESETS["ntsv"].slips


@pytest.fixture(scope="module")
def first_turn() -> DuplicateGame:
    """Turn 1 of the hand-worked game of test_duplicate.py: rack AEKNRT?, empty board.
    Letter values A1 E1 N1 T2 R2 K3, blank 0; D8 is a double letter, H8 a double word.
    The top: 8D KANTEn = (K 3x2 + A1 + N1 + T2 + E1 + n0) x 2 = 22."""
    game = DuplicateGame(STANDARD, HAND, NTSV, build(HAND_WORDS))
    game.draw("AEKNRT?")
    assert game.tops()[0].score == 22
    return game


def judge(game: DuplicateGame, text: str, claimed: int | None, rules: SlipRules):
    return judge_slip(game.game, game.rack or "", text, claimed=claimed, top=22, rules=rules)


def outcome(slip):
    return slip.score, slip.faults, slip.warning, slip.penalty, slip.reason


# ------------------------------------------------------------------ each fault


def test_a_wrong_or_missing_score_warns_under_fisf_and_is_corrected_under_ntsv(first_turn):
    # FISF §5.3.2: the position is right, so the slip is paid the exact score (22) with a
    # warning. NTSV: no rule found; Bordpunt corrected the score without a word so far.
    slip = judge(first_turn, "8D KANTEn", 24, FISF)
    assert outcome(slip) == (22, ("score_wrong",), "score_wrong", 0, None)
    assert slip.is_top and slip.notation == "8D KANTEn"
    assert outcome(judge(first_turn, "8D KANTEn", 24, NTSV_SLIPS)) == (
        22,
        ("score_wrong",),
        None,
        0,
        None,
    )
    # No score written: FISF §5.5 / §5.3.2, a warning and the exact score.
    slip = judge(first_turn, "8D KANTEn", None, FISF)
    assert outcome(slip) == (22, ("score_missing",), "score_missing", 0, None)
    slip = judge(first_turn, "8D KANTEn", None, NTSV_SLIPS)
    assert outcome(slip) == (22, ("score_missing",), None, 0, None)
    # The right score: no fault at all.
    assert outcome(judge(first_turn, "8D KANTEn", 22, FISF)) == (22, (), None, 0, None)


def test_a_blank_not_marked_or_the_wrong_letter_marked(first_turn):
    # KANTEN needs two N's; the rack has one N and a blank. FISF §5.5 ("Absence ... d'un
    # cercle autour de la lettre dont le joker tient lieu"; "Encerclement ... d'une autre
    # lettre"): a warning, paid the exact score of the reading: either N a blank,
    # (6 + 1 + 0 + 2 + 1 + 1) x 2 = 22 = (6 + 1 + 1 + 2 + 1 + 0) x 2.
    for text in ("8D KANTEN", "8D kANTEN"):
        slip = judge(first_turn, text, 22, FISF)
        assert outcome(slip) == (22, ("blank_unmarked",), "blank_unmarked", 0, None), text
        assert slip.is_top
        # NTSV: 0 as Bordpunt gave it so far, with the engine's reason (the play meant is
        # not looked for: under rules that zero the fault, finding it changes nothing).
        slip = judge(first_turn, text, 22, NTSV_SLIPS)
        assert outcome(slip) == (0, (), None, 0, "not_in_rack"), text


def test_the_reference_swapped(first_turn):
    # D8 is down from D8 (column D): it misses the centre. 8D, the same square across,
    # is the top: FISF §5.3 ("l'inversion ... de la référence est tolérée"), a warning.
    slip = judge(first_turn, "D8 KANTEn", 22, FISF)
    assert outcome(slip) == (22, ("reference_swapped",), "reference_swapped", 0, None)
    assert slip.notation == "8D KANTEn"
    slip = judge(first_turn, "D8 KANTEn", 22, NTSV_SLIPS)
    assert outcome(slip) == (0, (), None, 0, "first_not_centre")


def test_the_position_off_costs_five_points(first_turn):
    # 8J: J8-O8 misses the centre, and so does J8 down. KANTEn scores the claimed 22
    # across only at 8D (8C: (3+2+1+2+1+0) x 2 = 18; 8E: 16; 8F: 16; 8G: 16; 8H: 18).
    # FISF §5.3.3 / §5.6: paid the claimed score less 5 = 17; a top before the penalty.
    slip = judge(first_turn, "8J KANTEn", 22, FISF)
    assert outcome(slip) == (17, ("position_off",), None, 5, None)
    assert slip.notation == "8D KANTEn" and slip.is_top
    # No position written: both directions are searched, across first: 8D again.
    assert outcome(judge(first_turn, "KANTEn", 22, FISF)) == (17, ("position_off",), None, 5, None)
    # No score claimed: nothing to search for, so nothing to pay (FISF §5.7: no solution).
    assert judge(first_turn, "8J KANTEn", None, FISF).score == 0
    # NTSV: 0, as so far.
    slip = judge(first_turn, "8J KANTEn", 22, NTSV_SLIPS)
    assert outcome(slip) == (0, (), None, 0, "first_not_centre")


def test_a_penalty_on_four_points_or_less_is_a_zero(first_turn):
    # EN scores (1 + 1) x 2 = 4 on 8G. FISF §5.3.3: "Si cette pénalité de 5 points doit
    # être appliquée à une solution rapportant au plus 4 points, le bulletin est
    # sanctionné d'un zéro".
    slip = judge(first_turn, "8A EN", 4, FISF)
    assert outcome(slip) == (0, ("position_off",), None, 0, "first_not_centre")
    # Claimed 5: EN scores 5 nowhere (4, or 2 with a blank), so no place is found.
    assert outcome(judge(first_turn, "8A EN", 5, FISF)) == (0, (), None, 0, "first_not_centre")


def test_one_warning_per_slip_and_none_beside_a_penalty(first_turn):
    # FISF §5.8: "Lors d'un même coup, un joueur ne peut recevoir plus d'un avertissement"
    # and "Un avertissement ne se cumule pas avec une pénalité ou avec un zéro".
    # D8, KANTEN unmarked, claimed 20: three warnable faults, one warning (the first of
    # FAULTS), paid the exact 22 of 8D KAnTEN.
    slip = judge(first_turn, "D8 KANTEN", 20, FISF)
    assert slip.faults == ("score_wrong", "blank_unmarked", "reference_swapped")
    assert (slip.score, slip.warning, slip.penalty) == (22, "score_wrong", 0)
    # 8J, KANTEN unmarked: a warnable fault and a penalty: 22 - 5 = 17, no warning.
    slip = judge(first_turn, "8J KANTEN", 22, FISF)
    assert outcome(slip) == (17, ("blank_unmarked", "position_off"), None, 5, None)


def test_the_written_position_stands_when_the_word_fits_there(first_turn):
    # 8E KANTEn fits: E8 to J8, H8 (DW) under the T: (3 + 1 + 1 + 2 + 1 + 0) x 2 = 16.
    # KANTEn scores the claimed 22 at 8D, but the position written is a correct one, so
    # FISF §5.3.2 pays its exact score with a warning (interpretation: not position_off).
    slip = judge(first_turn, "8E KANTEn", 22, FISF)
    assert outcome(slip) == (16, ("score_wrong",), "score_wrong", 0, None)


def test_what_no_reading_saves_scores_zero_with_the_engines_reason(first_turn):
    # KANTER is not in the word list, in any direction: FISF §5.7, nullité.
    for rules in (FISF, NTSV_SLIPS):
        slip = judge(first_turn, "8D KANTER", 15, rules)
        assert outcome(slip) == (0, (), None, 0, "not_in_lexicon")
        assert slip.notation == "8D KANTER"
        assert judge(first_turn, "", 3, rules).reason == "bad_notation"
        assert judge(first_turn, "-KAT", 3, rules).reason == "duplicate_not_a_play"


def test_the_fisf_first_turn_pays_the_words_maximum_whatever_the_reference(first_turn):
    # FISF §5.4.2.a: "au premier coup, le score maximum pour le mot joué est attribué, cela
    # quelle que soit la référence alphanumérique éventuelle"; a warning only for a score
    # absent or not the maximum, or a blank marked otherwise than the maximum's (§5.5).
    # KANTEn's maximum is 8D: (K 3x2 + A1 + N1 + T2 + E1 + n0) x 2 = 22.
    for text in ("8D KANTEn", "8J KANTEn", "D8 KANTEn", "8H KANTEn", "H4 KANTEn", "KANTEn"):
        slip = judge(first_turn, text, 22, FISF_PRESET)
        assert outcome(slip) == (22, (), None, 0, None), text
        assert slip.notation == "8D KANTEn" and slip.is_top
    # 8H as written plays: K on H8 (DW), E on L8 (DL): (3+1+1+2+1x2+0) x 2 = 18; it is
    # paid 22, and the 18 claimed is a score not the maximum: a warning.
    slip = judge(first_turn, "8H KANTEn", 18, FISF_PRESET)
    assert outcome(slip) == (22, ("score_wrong",), "score_wrong", 0, None)
    assert outcome(judge(first_turn, "8J KANTEn", None, FISF_PRESET)) == (
        22,
        ("score_missing",),
        "score_missing",
        0,
        None,
    )
    # Unmarked, KANTEN plays only with one N marked: 8D KAnTEN, (6+1+0+2+1+1) x 2 = 22.
    slip = judge(first_turn, "8A KANTEN", 22, FISF_PRESET)
    assert outcome(slip) == (22, ("blank_unmarked",), "blank_unmarked", 0, None)
    # A word that plays nowhere still scores 0, with the reason of the slip as written.
    assert outcome(judge(first_turn, "8D KANTER", 15, FISF_PRESET)) == (
        0,
        (),
        None,
        0,
        "not_in_lexicon",
    )
    # Not on a later turn: the board is no longer empty (test below, F5 RAKEN).


def test_issue_50_kinase_on_the_first_turn_pays_its_maximum_under_fisf():
    # The real word list. KINASE claimed 24 at 8A (A8-F8: misses H8). Its maximum is 8D:
    # K3 on D8 (DL) 6, I1 N1 A1, S2 on H8 (DW), E1: (6+1+1+1+2+1) x 2 = 24. Under the FISF
    # preset: 24, no penalty (before: position_off, 24 - 5 = 19). NTSV: 0, as written.
    game = DuplicateGame()
    game.draw("KINASEE")
    slip = judge_slip(
        game.game, game.rack or "", "8A KINASE", claimed=24, top=None, rules=FISF_PRESET
    )
    assert outcome(slip) == (24, (), None, 0, None) and slip.notation == "8D KINASE"
    slip = judge_slip(
        game.game, game.rack or "", "8A KINASE", claimed=24, top=None, rules=NTSV_SLIPS
    )
    assert outcome(slip) == (0, (), None, 0, "first_not_centre")


def test_a_fault_made_a_zero_by_the_club(first_turn):
    # A club that gives 0 for a wrong score: the play fitted, so the reason is the fault.
    strict = dataclasses.replace(FISF, name="strict", score_wrong="zero")
    slip = judge(first_turn, "8D KANTEn", 24, strict)
    assert outcome(slip) == (0, ("score_wrong",), None, 0, "score_wrong")
    # A "penalty" on a wrong score: 22 - 5 = 17.
    fined = dataclasses.replace(FISF, name="fined", score_wrong="penalty")
    assert outcome(judge(first_turn, "8D KANTEn", 24, fined)) == (
        17,
        ("score_wrong",),
        None,
        5,
        None,
    )


def test_on_a_later_turn_the_word_through_the_board_is_found_elsewhere():
    # Turn 2 of the hand-worked game: rack AAEKRST; the top F4 down R2 A1 K on F6 (TL) 9
    # E1 + the N of KANTEn on the board 1 = 14. Written "F5 RAKEN" (down from F5: it runs
    # over the E of KANTEn on F8, where an N is needed): not a play; RAKEN scores the
    # claimed 14 down at F4 only. FISF §5.6: 14 - 5 = 9.
    game = DuplicateGame(STANDARD, HAND, NTSV, build(HAND_WORDS))
    game.draw("AEKNRT?")
    game.play()
    game.draw("AAEKRST")
    slip = judge_slip(game.game, game.rack or "", "F5 RAKEN", claimed=14, top=14, rules=FISF)
    assert outcome(slip) == (9, ("position_off",), None, 5, None)
    assert slip.notation == "F4 RAKE."


@settings(max_examples=40, deadline=None)
@given(
    position=st.tuples(st.sampled_from("ABCDEFGHIJKLMNO"), st.integers(1, 15)),
    across=st.booleans(),
    word=st.sampled_from(HAND_WORDS),
    marks=st.sets(st.integers(0, 7), max_size=2),
    claimed=st.one_of(st.none(), st.integers(0, 40)),
)
def test_under_the_ntsv_preset_a_slip_scores_what_bordpunt_gave_it_so_far(
    first_turn, position, across, word, marks, claimed
):
    """The NTSV preset is Bordpunt's behaviour so far: score, reason, notation and top
    as `score_slip` gives them, whatever the slip."""
    column, row = position
    where = f"{row}{column}" if across else f"{column}{row}"
    letters = "".join(ch.lower() if i in marks else ch for i, ch in enumerate(word))
    text = f"{where} {letters}"
    old = today(first_turn.game, first_turn.rack or "", text, claimed=claimed, top=22)
    new = judge(first_turn, text, claimed, NTSV_SLIPS)
    assert (new.score, new.reason, new.params, new.notation, new.words, new.is_top) == (
        old.score,
        old.reason,
        old.params,
        old.notation,
        old.words,
        old.is_top,
    )
    assert new.warning is None and new.penalty == 0
    assert set(new.faults) <= set(FAULTS)


# ------------------------------------------------------------------ the tally


def lines_of(player, *scores, **flags):
    return [SlipLine(player, turn, score, **flags) for turn, score in enumerate(scores, 1)]


def test_warnings_beyond_the_free_ones_cost_five_each():
    # FISF §5.9: "Au quatrième ... il se voit retirer cinq points de pénalité. Il en va
    # de même à chaque nouvel avertissement qui suit." 5 warnings, 3 free: 2 x 5 = 10.
    lines = [SlipLine("ans", turn, 20, warning=True) for turn in range(1, 6)]
    ans = tally({}, lines, FISF)["ans"]
    assert (ans.total, ans.warnings, ans.warning_penalty, ans.result) == (100, 5, 10, 90)
    # 3 warnings: all free.
    assert tally({}, lines[:3], FISF)["ans"].warning_penalty == 0


def test_slip_penalties_are_deducted_from_the_total_before_them():
    # The slip of test_the_position_off_costs_five_points: 22 before the penalty, 5 off.
    # total 22 + 30 = 52; result 52 - 5 = 47 (= 17 + 30, what the slips paid).
    lines = [SlipLine("ans", 1, 22, penalty=5), SlipLine("ans", 2, 30)]
    ans = tally({1: 22, 2: 30}, lines, FISF)["ans"]
    assert (ans.total, ans.penalty, ans.tops, ans.result) == (52, 5, 2, 47)


def room(size: int, turn: int = 1, score: int = 10) -> list[SlipLine[str]]:
    return [SlipLine(f"p{i}", turn, score) for i in range(size)]


def test_the_fisf_solo_is_the_highest_score_and_needs_sixteen_players():
    # FISF §3.5: a solo is a score "supérieur à celui de tous les autres joueurs, même si
    # sa solution est inférieure à celle ... retenue"; 10 points from 16 players on.
    # Turn 1, top 40: "ans" scores 30, the 15 others 10. 16 players: +10; result 40.
    lines = [SlipLine("ans", 1, 30), *room(15)]
    ans = tally({1: 40}, lines, FISF)["ans"]
    assert (ans.solos, ans.solo_turns, ans.solo_bonus, ans.tops, ans.result) == (
        1,
        (1,),
        10,
        0,
        40,
    )
    # 15 players: the solo is counted, without the bonus.
    ans = tally({1: 40}, [SlipLine("ans", 1, 30), *room(14)], FISF)["ans"]
    assert (ans.solos, ans.solo_bonus, ans.result) == (1, 0, 30)
    # "Les scores sont comparés avant application éventuelle d'une pénalité": a slip of
    # 30 paid 25 after a penalty ties with "ans": no solo for either.
    tied = [SlipLine("ans", 1, 30), SlipLine("bert", 1, 30, penalty=5), *room(14)]
    result = tally({1: 40}, tied, FISF)
    assert result["ans"].solos == result["bert"].solos == 0
    assert result["bert"].result == 25


def test_the_ntsv_solo_is_a_top_found_alone_and_earns_nothing():
    # Bordpunt so far (no NTSV rule found): a solo is the top found by one player alone;
    # the NTSV gives no bonus. "ans" alone finds 40; "bert" alone has the highest on turn
    # 2 (30) but not the top (40): no solo.
    lines = [SlipLine("ans", 1, 40), SlipLine("ans", 2, 10)]
    lines += [SlipLine("bert", 1, 20), SlipLine("bert", 2, 30)]
    lines += room(14, turn=1) + room(14, turn=2)
    result = tally({1: 40, 2: 40}, lines, NTSV_SLIPS)
    assert (result["ans"].solos, result["ans"].solo_bonus, result["ans"].tops) == (1, 0, 1)
    assert result["bert"].solos == 0


def test_a_late_slip_counts_nothing_and_takes_no_solo():
    # FISF §5.7: "Remise d'un bulletin de jeu écrit après la fin du coup" is a nullité.
    # Issue 40: a late slip scores 0, is never a top or a solo. "bert" finds the top 40
    # late; "ans" found it alone in time: the solo and its 10 points are hers.
    lines = [SlipLine("ans", 1, 40), SlipLine("bert", 1, 40, late=True), *room(14)]
    result = tally({1: 40}, lines, FISF)
    assert (result["ans"].solos, result["ans"].result) == (1, 50)
    assert result["bert"] == Tally()  # in the room (16 players), but 0 on every count
    # A late slip's warning and penalty do not count either (FISF §5.8: no warning on a zero).
    late = [SlipLine("ans", t, 30, warning=True, penalty=5, late=True) for t in range(1, 9)]
    assert tally({}, late, FISF)["ans"] == Tally()


def test_a_result_never_goes_below_zero():
    # Interpretation: 8 warnings (5 beyond 3: 25 points) on slips of 1 point: 8 - 25 < 0.
    lines = [SlipLine("ans", t, 1, warning=True) for t in range(1, 9)]
    assert tally({}, lines, FISF)["ans"].result == 0


def test_slip_lines_from_judged_slips(first_turn):
    slip = judge(first_turn, "8J KANTEn", 22, FISF)
    line = SlipLine.of("ans", 1, slip)
    assert (line.score, line.penalty, line.warning, line.late) == (22, 5, False, False)
    warned = SlipLine.of("ans", 1, judge(first_turn, "D8 KANTEn", 22, FISF), late=True)
    assert (warned.score, warned.warning, warned.late) == (22, True, True)


LINES = st.lists(
    st.builds(
        SlipLine,
        player=st.sampled_from("abcdef"),
        turn=st.integers(1, 6),
        score=st.integers(0, 120),
        warning=st.booleans(),
        penalty=st.sampled_from([0, 0, 5]),
        late=st.booleans(),
    ),
    max_size=40,
).map(lambda lines: list({(line.player, line.turn): line for line in lines}.values()))


@settings(max_examples=100, deadline=None)
@given(lines=LINES, rules=st.sampled_from([FISF, NTSV_SLIPS]), top=st.integers(0, 120))
def test_tally_properties(lines, rules, top):
    tops = dict.fromkeys(range(1, 7), top)
    result = tally(tops, lines, rules, players=20)
    for player, sums in result.items():
        own = [line for line in lines if line.player == player and not line.late]
        assert sums.total == sum(line.score for line in own)
        assert sums.result == max(
            0, sums.total + sums.solo_bonus - sums.penalty - sums.warning_penalty
        )
        assert sums.solo_bonus == sums.solos * rules.solo_bonus
    # A late slip changes nothing but that it is there: the others' tallies are those of
    # a room without it.
    on_time = tally(tops, [line for line in lines if not line.late], rules, players=20)
    for player, sums in result.items():
        assert sums == on_time.get(player, Tally())


# ------------------------------------------------------------------ settings


def test_presets_round_trip_and_a_club_changes_what_it_plays_differently():
    for name, preset in PRESETS.items():
        assert preset.preset == name
        assert DuplicateSettings.from_dict(preset.to_dict()) == preset
    assert DuplicateSettings.from_dict({}) == PRESETS["ntsv"]
    # Missing keys are the preset's: a FISF club without the solo bonus.
    mine = DuplicateSettings.from_dict({"preset": "fisf", "slips": {"solo_bonus": 0}})
    assert mine.draw == PRESETS["fisf"].draw
    assert mine.slips == dataclasses.replace(FISF_PRESET, solo_bonus=0)
    assert PRESETS["ntsv"].slips == SlipRules() and PRESETS["ntsv"].draw == NTSV


@pytest.mark.parametrize(
    "data, code, field",
    [
        ({"slips": {"position_off": "burn"}}, "invalid_slip_rules", "position_off"),
        ({"slips": {"turn_seconds": 0}}, "invalid_slip_rules", "turn_seconds"),
        ({"slips": {"solo_bonus": True}}, "invalid_slip_rules", "solo_bonus"),
        ({"slips": {"solo_rule": "first"}}, "invalid_slip_rules", "solo_rule"),
        ({"slips": {"colour": 1}}, "invalid_slip_rules", "colour"),
        ({"slips": []}, "invalid_slip_rules", "object"),
        ({"draw": {"rejection": "half"}}, "invalid_draw_rules", "rejection"),
        ({"draw": {"end_one_kind": 1}}, "invalid_draw_rules", "end_one_kind"),
        ({"preset": "naspa"}, "invalid_duplicate_settings", "preset"),
        ({"clock": 3}, "invalid_duplicate_settings", "clock"),
    ],
)
def test_wrong_settings_are_refused_naming_the_field(data, code, field):
    with pytest.raises(DuplicateError) as info:
        DuplicateSettings.from_dict(data)
    assert info.value.code == code
    assert field in info.value.params["reason"]


def test_the_turns_time_and_its_grace():
    # FISF §1.3 and NTSV: 3 minutes; the grace of 2 s is an interpretation.
    assert FISF.turn_seconds == NTSV_SLIPS.turn_seconds == 180
    assert FISF.grace_seconds == NTSV_SLIPS.grace_seconds == 2


# ------------------------------------------------------------------ the FISF draw


def test_a_rejected_draw_goes_back_whole_under_fisf_and_only_the_new_tiles_otherwise():
    # Leftovers kept, 2 vowels and 2 consonants. Turn 1 AEKNRT? plays 8D KANTEn and
    # keeps R. Turn 2 draws KSSRTT: R + KSSRTT has no vowel, a rejected draw.
    base = DrawRules(name="kept", leftovers="keep", min_vowels=2, min_consonants=2)
    for rejection, kept, thrown, needed in (("new", "R", "KRSSTT", 6), ("whole", "", "KRRSSTT", 7)):
        game = DuplicateGame(
            STANDARD, HAND, dataclasses.replace(base, rejection=rejection), build(HAND_WORDS)
        )
        game.draw("AEKNRT?")
        game.play()
        bag = sum(game.bag.values())
        assert game.reject("KSSRTT") == "KRRSSTT"
        # FISF §3.2: "le juge-arbitre remet toutes les lettres dans le sac (reliquat
        # compris)": the kept R goes back too, and the next draw takes seven.
        assert (game.kept, game.needed(), game.thrown_back) == (kept, needed, [thrown])
        assert sum(game.bag.values()) == bag + (1 if rejection == "whole" else 0)
        again = "AAEKST" if needed == 6 else "AAEKSTR"
        with pytest.raises(DuplicateError) as info:
            game.reject(again)  # AAEKRST meets the minimum: it is not thrown back
        assert info.value.code == "duplicate_draw_meets_minimum"
        assert game.draw(again) == "AAEKRST"
        assert game.play().thrown_back == (thrown,)


def test_play_bag_rejects_the_whole_rack_and_puts_it_at_the_end_of_the_bag():
    rules = DrawRules(
        name="whole", leftovers="keep", min_vowels=2, min_consonants=2, rejection="whole"
    )
    game = play_bag(bag_order("KANTE?RKSSRTTAAEEN", HAND), STANDARD, HAND, rules, build(HAND_WORDS))
    # Turn 1 plays 8D KANTEn and keeps R (its blank is replaced by an N of the bag).
    # Turn 2: R + KSSRTT has no vowel: all seven go back to the end of the order (FISF
    # §3.2). The order goes on AAEE, then the tiles not written in alphabetical order:
    # AAEEAAA has no consonant, AAEEEEE neither; EEKNNNN holds 2 + 5.
    second = game.turns[1]
    assert second.thrown_back == ("KRRSSTT", "AAAAAEE", "AAEEEEE")
    assert second.rack == second.drawn == "EEKNNNN"


SMALL = TileSet(
    "small",
    {"A": (1, 1), "E": (1, 1), "K": (1, 3), "N": (1, 1), "T": (3, 2), "S": (2, 2)},
    blanks=0,
)


def small_game(**changes) -> DuplicateGame:
    rules = DrawRules(name="small", leftovers="keep", end_below_tiles=1, end_no_vowel=False)
    game = DuplicateGame(STANDARD, SMALL, dataclasses.replace(rules, **changes), build(["KANTE"]))
    game.draw("AEKNTTT")
    game.play()  # KANTE: leaves TT on the rack and SS in the bag
    return game


def test_the_fisf_end_when_the_tiles_left_are_all_consonants():
    # FISF §3.7: the game ends "si le reliquat de lettres est constitué en totalité par
    # des voyelles ou des consonnes". TT kept + SS in the bag: four consonants.
    assert small_game(end_one_kind=True).ending == "one_kind"
    assert small_game(end_one_kind=False).ending is None


def test_no_fisf_end_while_a_blank_is_among_two_tiles_or_more():
    # FISF §3.7: "il ne peut être mis fin à la partie tant qu'il reste un joker ... dans
    # un reliquat de deux lettres ou plus". TT kept + S? in the bag.
    blanks = TileSet("blank", {**dict(SMALL.letters), "S": (1, 2)}, blanks=1)
    rules = DrawRules(
        name="b", leftovers="keep", end_below_tiles=1, end_no_vowel=False, end_one_kind=True
    )
    game = DuplicateGame(STANDARD, blanks, rules, build(["KANTE"]))
    game.draw("AEKNTTT")
    game.play()
    assert game.ending is None


def test_the_fisf_minimum_relaxes_when_the_tiles_left_cannot_give_it():
    # FISF §3.2: 2 + 2 "si le reliquat le permet", 1 + 1 "plus tôt du fait du reliquat".
    # After KANTE: TT kept, O S S in the bag: one vowel left, so 2 + 2 cannot be drawn.
    with_o = TileSet("o", {**dict(SMALL.letters), "O": (1, 1)}, blanks=0)
    rules = DrawRules(
        name="r",
        leftovers="keep",
        min_vowels=2,
        min_consonants=2,
        minimum_until_turn=15,
        late_min_vowels=1,
        late_min_consonants=1,
        end_below_tiles=1,
        end_no_vowel=False,
    )
    for relax, ending, minimum in ((True, None, (1, 1)), (False, "no_valid_draw", (2, 2))):
        game = DuplicateGame(
            STANDARD, with_o, dataclasses.replace(rules, relax_minimum=relax), build(["KANTE"])
        )
        game.draw("AEKNTTT")
        game.play()
        assert (game.ending, game.minimum()) == (ending, minimum)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_whole_master_game_under_the_fisf_preset(seed):
    """A random bag of the Dutch set under the FISF draw: every rack holds a vowel and a
    consonant at least (§3.2, the blanks counting as either), no tile is lost or made,
    the blanks stay blanks on the board (§3.4), and the game ends by the rules."""
    fisf = PRESETS["fisf"].draw
    game = play_bag(bag_order("", DUTCH, seed=seed), STANDARD, DUTCH, fisf)
    assert game.ending in ("one_kind", "too_few_tiles", "no_valid_draw", "no_play")
    assert all(fisf.holds(turn.rack, 1, 1) for turn in game.turns)
    assert all(turn.replaced == () and turn.returned == "" for turn in game.turns)
    left = Counter(game.game.board.tiles()) + game.bag + Counter(game.kept)
    assert left == DUTCH.bag()
