"""Every change to a game's scoresheet is in the club history: what was written before and
after, by whom; a GCG upload keeps every move it replaces."""

import pytest

from clubs.history import HistoryAction, HistoryReason
from clubs.models import HistoryEntry
from games.models import Move, Outcome
from games.moves import game_set_starter, move_correct, move_undo, moves_import_gcg
from tests.games.conftest import DEMO

pytestmark = pytest.mark.django_db


def entries(game, action: str) -> list[HistoryEntry]:
    return list(HistoryEntry.objects.filter(game_id=game.pk, action=action).order_by("pk"))


def test_each_move_entered_is_kept_with_its_author_and_the_games_context(game, play, secretary):
    play(game, "8H WOORD", "-", by=secretary)
    added = entries(game, HistoryAction.MOVE_ADD)
    assert [entry.after["notation"] for entry in added] == ["8H WOORD", "-"]
    first = added[0]
    assert (first.by, first.by_name, first.before) == (secretary, "secretaris", None)
    assert first.club_id == game.round.competition.club_id
    assert (first.competition_id, first.round_number) == (
        game.round.competition_id,
        game.round.number,
    )
    assert first.object_label == "Anna – Bert"


def test_a_correction_keeps_the_old_notation_and_an_undo_the_move_taken_back(game, play, secretary):
    play(game, "8H WOORD", "-")
    move_correct(game=game, number=1, notation="8H WOORDEN", by=secretary)
    corrected = entries(game, HistoryAction.MOVE_CORRECT)
    assert [(e.before["notation"], e.after["notation"]) for e in corrected] == [
        ("8H WOORD", "8H WOORDEN")
    ]
    move_undo(game=game, by=secretary)
    (undone,) = entries(game, HistoryAction.MOVE_UNDO)
    assert undone.before == {"number": 2, "seat": 1, "notation": "-", "rack": ""}
    assert undone.after is None and undone.by == secretary


def test_a_correction_to_the_same_text_writes_no_entry(game, play):
    play(game, "8H WOORD")
    move_correct(game=game, number=1, notation=" 8H   WOORD ", by=None)
    assert entries(game, HistoryAction.MOVE_CORRECT) == []


def test_a_gcg_upload_keeps_every_move_it_replaces(game, play, secretary):
    play(game, "8H WOORD", "-", "-")
    old = list(Move.objects.filter(game=game).order_by("number").values_list("notation", flat=True))
    count = moves_import_gcg(game=game, data=(DEMO / "demo-1.gcg").read_bytes(), by=secretary)
    (upload,) = entries(game, HistoryAction.MOVES_IMPORT)
    assert [move["notation"] for move in upload.before["moves"]] == old
    new = list(Move.objects.filter(game=game).order_by("number").values_list("notation", flat=True))
    assert [move["notation"] for move in upload.after["moves"]] == new and len(new) == count


def test_the_result_that_follows_from_the_moves_is_entered_then_corrected_with_a_code(game, play):
    play(game, "8H WOORD", "(annulled)")
    move_undo(game=game, by=None)
    results = list(
        HistoryEntry.objects.filter(game_id=game.pk, action__startswith="result.").order_by("pk")
    )
    assert [(r.action, r.reason_code) for r in results] == [
        (HistoryAction.RESULT_ENTER, HistoryReason.FROM_MOVES),
        (HistoryAction.RESULT_CORRECT, HistoryReason.FROM_MOVES),
    ]
    assert results[1].after["outcome"] == Outcome.PENDING  # open again


def test_choosing_the_starter_is_kept_and_choosing_the_same_again_is_not(game, secretary):
    game_set_starter(game=game, starter=1, by=secretary)
    game_set_starter(game=game, starter=1, by=secretary)
    (chosen,) = entries(game, HistoryAction.GAME_STARTER)
    assert (chosen.before, chosen.after, chosen.by) == (
        {"starter": 0},
        {"starter": 1},
        secretary,
    )


def test_a_refused_move_writes_no_history(game, play):
    play(game, "8H WOORD")
    before = HistoryEntry.objects.count()
    with pytest.raises(Exception):  # noqa: B017 (MoveError; the point is what it leaves)
        move_correct(game=game, number=1, notation="8H QQQQ", by=None)
    assert HistoryEntry.objects.count() == before
