"""games.moves: recording, undoing and correcting moves, the version check, and the result
that follows from the moves under every preset rule set (with the standings at once)."""

import pytest
from django.utils import translation

import rules
from competition.selectors import standings_get
from games.models import Game, Move, Outcome
from games.moves import (
    MoveError,
    game_set_starter,
    move_add,
    move_correct,
    move_preview,
    move_undo,
    result_from_engine,
)
from games.rule_messages import message
from games.services import ResultError, ResultInput, game_record_result
from tests.factories import result_changes
from tests.seats import Winner, winner

pytestmark = pytest.mark.django_db

# A short Gouds 8 opening used throughout (scores worked out by hand and by the engine):
# 1. Anna 8H WOORD 26 (H8 double word, L8 double letter)   2. Bert H8 .AAS 9 (WAAS)
# 3. Anna L5 GOE. 7 (GOED)                                   4. Bert 11H .OK 6 (SOK)
OPENING = ["8H WOORD", "H8 .AAS", "L5 GOE.", "11H .OK"]


def english(code: str, **params) -> str:
    with translation.override("en"):
        return message(code, params)


def result_of(game: Game) -> tuple:
    game.refresh_from_db()
    return game.outcome, winner(game), game.scores[0], game.scores[1]


def standings_by_name(game: Game) -> dict[str, tuple[float, int]]:
    rows = standings_get(game.round.competition).groups[""]
    return {row.name: (row.match_points, row.board_points) for row in rows}


def engine_replay(ruleset: rules.RuleSet, notations: list[str]) -> rules.Game:
    """The same scoresheet straight through the rules engine, for comparison."""
    current = rules.Game(rules=ruleset, tiles=rules.DUTCH, players=("Anna", "Bert"))
    for notation in notations:
        current.push(rules.parse_move(notation))
    return current


# --- recording a move ------------------------------------------------------------------


def test_a_play_stores_the_engines_score_total_and_words(game):
    row = move_add(game=game, notation=" 8h   WOORD ", by=None)

    stored = Move.objects.get(game=game)
    assert stored.pk == row.pk
    assert (stored.number, stored.seat, stored.notation) == (1, 0, "8H WOORD")
    assert (stored.score, stored.total) == (26, 26)
    assert stored.words == [["WOORD", 26]]
    assert stored.warnings == [] and stored.problem == ""
    game.refresh_from_db()
    assert game.version == 1
    assert game.outcome == Outcome.PENDING


def test_every_move_matches_the_engine(game, play):
    play(game, *OPENING)
    expected = engine_replay(rules.GOUDS_8, OPENING).history
    rows = list(Move.objects.filter(game=game).order_by("number"))
    assert [(r.seat, r.score, r.total) for r in rows] == [
        (0, 26, 26),
        (1, 9, 9),
        (0, 7, 33),
        (1, 6, 15),
    ]
    assert [[tuple(w) for w in r.words] for r in rows] == [list(e.words) for e in expected]
    assert [r.total for r in rows] == [e.total for e in expected]


def test_a_word_not_in_the_word_list_is_a_warning_not_a_refusal(game):
    row = move_add(game=game, notation="8H XQZW", by=None)
    assert row.pk is not None
    assert row.warnings == [{"code": "not_in_lexicon", "params": {"word": "XQZW"}}]


def test_an_illegal_move_is_refused_with_the_engines_reason_and_nothing_changes(game):
    with pytest.raises(MoveError) as refused:
        move_add(game=game, notation="7H WOORD", by=None)
    assert str(refused.value.message) == message("first_not_centre", {})
    assert refused.value.conflict is False
    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.version == 0


def test_unreadable_notation_is_refused(game):
    with pytest.raises(MoveError):
        move_add(game=game, notation="8H WO-RD", by=None)
    assert not Move.objects.exists()


def test_the_recorded_starter_moves_first(make_game):
    game = make_game(starter=1)
    row = move_add(game=game, notation="8H WOORD", by=None)
    assert row.seat == 1
    assert move_add(game=game, notation="H8 .AAS", by=None).seat == 0


def test_starter_is_recorded_and_fixed_once_moves_exist(make_game, play):
    game = make_game(starter="")
    game = game_set_starter(game=game, starter=1, expected_version=0)
    assert (game.starter, game.version) == (1, 1)
    play(game, "8H WOORD")
    with pytest.raises(MoveError):
        game_set_starter(game=game, starter=0)
    game.refresh_from_db()
    assert game.starter == 1


def test_preview_scores_without_saving(game, play):
    play(game, "8H WOORD")
    result = move_preview(game=game, notation="H8 .AAS").result
    assert (result.score, result.words) == (9, (("WAAS", 9),))
    assert Move.objects.filter(game=game).count() == 1
    with pytest.raises(MoveError) as refused:
        move_preview(game=game, notation="H9 AAS")
    assert str(refused.value.message) == message("word_extends", {"square": "H8"})


# --- undo ------------------------------------------------------------------------------


def test_undo_removes_the_last_move(game, play):
    play(game, *OPENING)
    move_undo(game=game, by=None, expected_version=game.version)
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == OPENING[:3]
    # The undone move may be entered again, by the same player.
    assert move_add(game=game, notation="11H .OK", by=None).seat == 1


def test_undo_with_nothing_to_undo(game):
    with pytest.raises(MoveError):
        move_undo(game=game, by=None)


def test_undo_reopens_a_game_whose_result_came_from_the_moves(game, play, secretary):
    play(game, "8H WOORD", "-", "(flagfall)", by=secretary)
    assert result_of(game) == (Outcome.FLAG_FALL, Winner.B, 26, 0)

    move_undo(game=game, by=secretary, expected_version=game.version)

    assert result_of(game) == (Outcome.PENDING, Winner.UNDECIDED, None, None)
    change = result_changes(game_id=game.pk).first()  # newest first
    assert change.before["outcome"] == Outcome.FLAG_FALL
    assert change.after["outcome"] == Outcome.PENDING
    assert change.by == secretary
    assert standings_by_name(game)["Bert"] == (0, 0)
    # The game runs on: Anna is to move again.
    assert move_add(game=game, notation="H8 .AAS", by=None).seat == 0


# --- correcting an earlier move -------------------------------------------------------


def test_correcting_a_move_rescores_every_later_move(game, play):
    play(game, *OPENING)
    correction = move_correct(
        game=game, number=1, notation="8H ZOORD", by=None, expected_version=game.version
    )
    assert correction.changed and correction.problems == {}
    rows = list(Move.objects.filter(game=game).order_by("number"))
    corrected = ["8H ZOORD", *OPENING[1:]]
    assert [r.notation for r in rows] == corrected
    assert [(r.score, r.total) for r in rows] == [(24, 24), (8, 8), (7, 31), (6, 14)]
    assert rows[1].words == [["ZAAS", 8]]
    assert [r.total for r in rows] == [
        e.total for e in engine_replay(rules.GOUDS_8, corrected).history
    ]


def test_correction_that_makes_a_later_move_illegal_marks_it(game, play):
    # The reasons come in the active language: Dutch, whatever a test before left active.
    translation.activate("nl")
    play(game, "8H WOORD", "H8 .AAS", "-")
    # WOORD now runs down and ends on H8: Bert's H8 .AAS would continue it at H7.
    problems = move_correct(
        game=game, number=1, notation="H4 WOORD", by=None, expected_version=game.version
    ).problems
    reason = message("word_extends", {"square": "H7"})
    assert problems[2] == reason
    # Whose turn the later moves were depends on move 2: they wait until it is fixed.
    assert problems[3] == "Niet geteld tot zet 2 is verbeterd."
    rows = {r.number: r for r in Move.objects.filter(game=game)}
    assert rows[2].problem == reason
    assert rows[2].score == 0 and rows[2].words == []
    assert rows[1].problem == ""
    assert (rows[1].score, rows[1].total) == (32, 32)

    # No new moves until the marked one is fixed.
    with pytest.raises(MoveError):
        move_add(game=game, notation="-", by=None)
    assert Move.objects.filter(game=game).count() == 3

    assert move_correct(game=game, number=2, notation="8G A.", by=None).problems == {}
    rows = {r.number: r for r in Move.objects.filter(game=game)}
    assert rows[2].problem == rows[3].problem == ""
    assert (rows[2].score, rows[2].words) == (3, [["AD", 3]])
    assert move_add(game=game, notation="-", by=None).number == 4


def test_a_correction_that_is_itself_illegal_changes_nothing(game, play):
    play(game, *OPENING)
    version = game.version
    with pytest.raises(MoveError) as refused:
        move_correct(game=game, number=2, notation="H9 AAS", by=None)
    assert str(refused.value.message) == message("word_extends", {"square": "H8"})
    assert Move.objects.get(game=game, number=2).notation == "H8 .AAS"
    game.refresh_from_db()
    assert game.version == version


def test_correcting_a_move_that_does_not_exist(game, play):
    play(game, "8H WOORD")
    with pytest.raises(MoveError):
        move_correct(game=game, number=5, notation="-", by=None)


# --- the version check ------------------------------------------------------------------


def test_a_stale_version_is_refused_as_a_conflict_and_nothing_changes(game, play):
    shown = game.version
    play(game, "8H WOORD")  # someone else, meanwhile
    with pytest.raises(MoveError) as refused:
        move_add(game=game, notation="H8 .AAS", by=None, expected_version=shown)
    assert refused.value.conflict is True
    assert list(Move.objects.values_list("notation", flat=True)) == ["8H WOORD"]
    game.refresh_from_db()
    assert game.version == shown + 1


def test_two_saves_from_the_same_version_the_second_is_refused(game):
    shown = game.version
    move_add(game=game, notation="8H WOORD", by=None, expected_version=shown)
    with pytest.raises(MoveError) as refused:
        move_add(game=game, notation="H8 .AAS", by=None, expected_version=shown)
    assert refused.value.conflict is True
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("action", ["undo", "correct", "starter"])
def test_every_write_checks_the_version(game, play, action):
    play(game, "8H WOORD", "H8 .AAS")
    stale = game.version - 1
    calls = {
        "undo": lambda: move_undo(game=game, by=None, expected_version=stale),
        "correct": lambda: move_correct(
            game=game, number=1, notation="8H ZOORD", by=None, expected_version=stale
        ),
        "starter": lambda: game_set_starter(game=game, starter=1, expected_version=stale),
    }
    with pytest.raises(MoveError) as refused:
        calls[action]()
    assert refused.value.conflict is True
    assert list(Move.objects.values_list("notation", flat=True)) == ["8H WOORD", "H8 .AAS"]


def test_a_bye_has_no_moves(make_game):
    bye = make_game(player_b=None, outcome=Outcome.BYE, winner=Winner.A, table=None)
    with pytest.raises(MoveError):
        move_add(game=bye, notation="8H WOORD", by=None)


# --- the result that follows from the moves ---------------------------------------------

# Gouds 8


def test_gouds8_ends_after_eight_turns_each_and_the_higher_score_wins(game, play, secretary):
    play(game, "8H KAAS", "H8 .AAS", *["-"] * 13, by=secretary)
    assert result_of(game) == (Outcome.PENDING, Winner.UNDECIDED, None, None)
    assert standings_by_name(game) == {"Anna": (0, 0), "Bert": (0, 0)}

    play(game, "-", by=secretary)  # Bert's eighth turn

    assert result_of(game) == (Outcome.NORMAL, Winner.A, 14, 7)
    assert game.entered_by == secretary and game.entered_at is not None
    assert standings_by_name(game) == {"Anna": (2, 14), "Bert": (0, 7)}
    change = result_changes(game_id=game.pk).get()
    assert change.after == {
        "outcome": "normal",
        "scores": [14, 7],
        "flag_fell": [],
        "forfeited": [],
    }
    with pytest.raises(MoveError) as refused:
        move_add(game=game, notation="-", by=None)
    assert str(refused.value.message) == message("game_over", {})


def test_gouds8_equal_scores_after_eight_turns_is_a_draw(game, play):
    # KAAS 14 against SOK 6 + BOEK 8.
    play(game, "8H KAAS", "K8 .OK", "-", "H5 BOE.", *["-"] * 12)
    assert result_of(game) == (Outcome.NORMAL, Winner.DRAW, 14, 14)
    assert standings_by_name(game) == {"Anna": (1, 14), "Bert": (1, 14)}


def test_gouds8_flag_fall_loses_even_when_ahead(game, play):
    play(game, "8H WOORD", "H8 .AAS", "(flagfall)")  # Anna to move, her flag falls
    assert result_of(game) == (Outcome.FLAG_FALL, Winner.B, 26, 9)
    assert standings_by_name(game)["Bert"][0] == 2
    assert standings_by_name(game)["Anna"][0] == 0


def test_gouds8_flag_fall_of_the_second_player(game, play):
    play(game, "8H WOORD", "(flagfall)")
    assert result_of(game) == (Outcome.FLAG_FALL, Winner.A, 26, 0)


def test_gouds8_upheld_challenge_costs_the_challenger_the_next_turn(game, play):
    play(game, "8H WOORD", "(challenge)")
    row = Move.objects.get(game=game, number=2)
    assert (row.seat, row.score, row.total) == (1, 0, 0)
    # Bert's turn is gone: Anna moves again.
    assert move_add(game=game, notation="H8 .AAS", by=None).seat == 0


def test_gouds8_removed_word_scores_nothing(game, play):
    play(game, "8H WOORD", "--")
    row = Move.objects.get(game=game, number=2)
    assert (row.seat, row.score, row.total) == (0, -26, 0)
    # The word is off the board: Bert must cover H8 again.
    assert move_add(game=game, notation="8H WOORD", by=None).seat == 1


def test_gouds8_blank_swap(game, play):
    play(game, "8H wOORD")
    row = move_add(game=game, notation="swap H8", by=None)
    assert (row.seat, row.notation, row.score, row.total) == (1, "swap H8", 5, 5)


# Every preset


@pytest.mark.parametrize("ruleset", [rules.GOUDS_8, rules.STANDARD, rules.SBNL_WEDSTRIJD])
def test_annulled_game_in_every_rule_set(make_game, play, ruleset):
    game = make_game(ruleset)
    play(game, "8H WOORD", "(annulled)")
    outcome, winner, score_a, score_b = result_of(game)
    assert (outcome, winner) == (Outcome.ANNULLED, Winner.NONE)
    assert (score_a, score_b) == (26, 0)
    # An annulled game gains nobody anything.
    assert standings_by_name(game) == {"Anna": (0, 0), "Bert": (0, 0)}
    with pytest.raises(MoveError):
        move_add(game=game, notation="H8 .AAS", by=None)


@pytest.mark.parametrize("ruleset", [rules.STANDARD, rules.SBNL_WEDSTRIJD])
def test_flag_fall_does_not_end_a_standard_or_sbnl_game(make_game, play, ruleset):
    game = make_game(ruleset)
    play(game, "8H WOORD")
    with pytest.raises(MoveError) as refused:
        move_add(game=game, notation="(flagfall)", by=None)
    assert str(refused.value.message) == message("flag_fall_not_in_rules", {})
    assert result_of(game)[0] == Outcome.PENDING


@pytest.mark.parametrize("ruleset", [rules.STANDARD, rules.SBNL_WEDSTRIJD])
def test_blank_swap_only_in_gouds8(make_game, play, ruleset):
    game = make_game(ruleset)
    play(game, "8H wOORD")
    with pytest.raises(MoveError) as refused:
        move_add(game=game, notation="swap H8", by=None)
    assert str(refused.value.message) == message("blank_swap_not_allowed", {})


# Standard


def test_standard_game_ends_after_two_passes_each_then_the_end_racks(make_game, play):
    game = make_game(rules.STANDARD)
    play(game, "8H WOORD", "H8 .AAS", "-", "-", "-", "-")
    # The game is over, but the racks are unknown: no result yet.
    assert result_of(game)[0] == Outcome.PENDING
    assert standings_by_name(game) == {"Anna": (0, 0), "Bert": (0, 0)}

    first = move_add(game=game, notation="(EEEIINN)", by=None)
    assert (first.seat, first.notation) == (0, "(EEEIINN)")
    assert result_of(game)[0] == Outcome.PENDING

    second = move_add(game=game, notation="(BAEEIOU)", by=None)
    assert second.seat == 1
    # Each subtracts their own rack: 26 - 7 and 9 - 12.
    assert result_of(game) == (Outcome.NORMAL, Winner.A, 19, -3)
    assert standings_by_name(game) == {"Anna": (2, 19), "Bert": (0, -3)}
    with pytest.raises(MoveError):
        move_add(game=game, notation="-", by=None)


def test_standard_end_rack_must_be_possible(make_game, play):
    game = make_game(rules.STANDARD)
    play(game, "8H WOORD", "H8 .AAS", "-", "-", "-", "-")
    with pytest.raises(MoveError):
        move_add(game=game, notation="(QQEEIIN)", by=None)  # only one Q in the set
    assert Move.objects.filter(game=game).count() == 6


def test_standard_removed_word_gives_the_turn_to_the_challenger(make_game, play):
    game = make_game(rules.STANDARD)
    play(game, "8H WOORD", "--")
    row = Move.objects.get(game=game, number=2)
    assert (row.seat, row.score, row.total) == (0, -26, 0)
    play(game, "8H WOORD", "(challenge)")  # Bert's word upheld: no penalty in standard
    row = Move.objects.get(game=game, number=4)
    assert (row.score, row.total) == (0, 26)
    assert move_add(game=game, notation="H8 .AAS", by=None).seat == 0


# SBNL


def test_sbnl_refuses_a_pass_while_an_exchange_is_possible(make_game, play):
    game = make_game(rules.SBNL_WEDSTRIJD)
    play(game, "8H WOORD", "-ABC")
    with pytest.raises(MoveError) as refused:
        move_add(game=game, notation="-", by=None)
    assert str(refused.value.message) == message("pass_not_allowed", {})
    assert Move.objects.filter(game=game).count() == 2


def test_sbnl_wrong_challenge_costs_the_challenger_20_points(make_game, play):
    game = make_game(rules.SBNL_WEDSTRIJD)
    play(game, "8H WOORD", "(challenge)")
    row = Move.objects.get(game=game, number=2)
    assert (row.seat, row.score, row.total) == (1, -20, -20)
    # The challenge is no turn: Bert still moves.
    assert move_add(game=game, notation="H8 .AAS", by=None).total == -11


def test_sbnl_invalid_word_is_taken_back_with_20_points_penalty(make_game, play):
    game = make_game(rules.SBNL_WEDSTRIJD)
    play(game, "8H WOORD", "--")
    row = Move.objects.get(game=game, number=2)
    assert (row.seat, row.score, row.total) == (0, -46, -20)


def test_sbnl_game_ends_when_both_pass_then_each_subtracts_the_own_rack(make_game, play):
    game = make_game(rules.SBNL_WEDSTRIJD)
    # Exchanges after a turn that placed nothing are impossible, so the passes are allowed.
    play(game, "8H WOORD", "-ABC", "-EEN", "-", "-")
    assert result_of(game)[0] == Outcome.PENDING
    play(game, "(EEEIINN)", "(AEEIOUB)")
    assert result_of(game) == (Outcome.NORMAL, Winner.A, 19, -12)
    assert standings_by_name(game) == {"Anna": (2, 19), "Bert": (0, -12)}


def test_sbnl_time_penalty_is_kept_and_the_game_goes_on(make_game, play):
    game = make_game(rules.SBNL_WEDSTRIJD)
    play(game, "8H WOORD", "(time 2)")  # Bert, to move, ran 2 started minutes over
    row = Move.objects.get(game=game, number=2)
    assert (row.seat, row.score, row.total) == (1, -20, -20)
    # The stored notation must read back as the same move...
    assert rules.parse_move(row.notation, player=1) == rules.TimePenalty(1, 2)
    # ...so the next move is accepted.
    assert move_add(game=game, notation="H8 .AAS", by=None).total == -11


def test_result_from_engine_while_running_and_pending_end_racks():
    current = engine_replay(rules.STANDARD, ["8H WOORD"])
    assert result_from_engine(current) is None
    for notation in ["-", "-", "-", "-"]:
        current.push(rules.parse_move(notation))
    assert current.is_over and current.pending_end_racks() == (0, 1)
    assert result_from_engine(current) is None


# --- a final score cannot contradict the moves --------------------------------------------


def test_a_finished_move_by_move_game_takes_no_other_final_score(game, play, secretary):
    play(game, "8H KAAS", "H8 .AAS", *["-"] * 14)
    before = result_of(game)
    for typed in (ResultInput.of_pair("normal", 300, 200), ResultInput.of_pair("flag_a", 14, 7)):
        with pytest.raises(ResultError):
            game_record_result(game=game, result=typed, by=secretary, reason="typo")
    assert result_of(game) == before
    assert standings_by_name(game) == {"Anna": (2, 14), "Bert": (0, 7)}


def test_a_running_move_by_move_game_takes_no_final_score(game, play, secretary):
    play(game, "8H WOORD")
    with pytest.raises(ResultError):
        game_record_result(game=game, result=ResultInput.of_pair("normal", 300, 200), by=secretary)
    assert result_of(game)[0] == Outcome.PENDING


def test_a_move_scored_before_another_was_saved_is_scored_again(game):
    """`move_prepare` scores outside the lock; if the game changed meanwhile, `move_add`
    does not take that score but scores the move against the game as it is."""
    from games.moves import move_prepare

    early = move_prepare(game=game, notation="8H WOORD")
    assert early.result.score == 26
    move_add(game=game, notation="-", by=None)  # Anna passes first, on another device
    game.refresh_from_db()
    row = move_add(game=game, notation="8H WOORD", by=None, prepared=early)
    assert (row.number, row.seat) == (2, 1)  # Bert's move, not the prepared one of Anna
    assert [m.seat for m in Move.objects.filter(game=game).order_by("number")] == [0, 1]
