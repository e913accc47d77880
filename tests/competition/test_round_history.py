"""Rounds as a director runs them: every round and pairing change in the club history,
one service deciding a round's status, late arrivals, reopening and deleting a round."""

from pathlib import Path

import pytest
from django.utils import translation

import rules
from clubs.history import HistoryAction, HistoryReason
from clubs.models import HistoryEntry
from competition.models import Absence, Competition, Round
from competition.services import CompetitionError
from competition.services.rounds import (
    round_clear_pairings,
    round_correct_result,
    round_create,
    round_delete,
    round_record_results,
    round_reopen,
    round_set_attendance,
    round_set_pairings,
    round_set_status,
    round_swap_players,
    round_update_status,
    status_from_games,
)
from games.models import Game, Outcome
from games.moves import move_undo, moves_import_gcg
from games.services import ResultEntry, ResultInput
from pairing.services import BYE, round_add_late_player, round_pair
from tests.factories import EntrantFactory, PlayerFactory
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db

DEMO = Path(__file__).resolve().parents[2] / "games" / "demo"


def entries(round_obj: Round, action: str) -> list[HistoryEntry]:
    return list(
        HistoryEntry.objects.filter(
            competition_id=round_obj.competition_id, round_number=round_obj.number, action=action
        ).order_by("pk")
    )


@pytest.fixture
def five(competition):
    """Anna, Bert, Cor, Dirk and Eva entered from round 1."""
    players = [PlayerFactory(name=name) for name in ("Anna", "Bert", "Cor", "Dirk", "Eva")]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    return players


@pytest.fixture
def published(competition, five, secretary):
    """Round 1: Anna–Bert at table 1, Cor–Dirk at table 2, Eva has the bye; published."""
    anna, bert, cor, dirk, eva = five
    round_obj = round_create(competition=competition, by=secretary)
    round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(anna.pk, bert.pk, table=1),
            pair_spec(cor.pk, dirk.pk, table=2),
            pair_spec(eva.pk, None),
        ],
        by=secretary,
    )
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED, by=secretary)
    return round_obj


def results(round_obj, scores, *, by=None):
    games = round_obj.games.exclude(outcome=Outcome.BYE).order_by("table")
    return round_record_results(
        round=round_obj,
        entries=[
            ResultEntry(game.pk, ResultInput.of_pair("normal", *score))
            for game, score in zip(games, scores, strict=False)
        ],
        by=by,
    )


# History of every round and pairing change


def test_round_create_pairing_and_publish_are_in_the_history(published, secretary):
    (created,) = entries(published, HistoryAction.ROUND_CREATE)
    assert created.by == secretary and created.object_type == "round"
    assert created.after == {"number": 1, "date": None, "status": "draft"}
    (made,) = entries(published, HistoryAction.PAIRING_GENERATE)
    assert made.before == {"pairings": [], "status": "draft"}
    assert made.after == {
        "pairings": [
            [1, ["Anna", "Bert"], None],
            [2, ["Cor", "Dirk"], None],
            [None, ["Eva"], None],
        ],
        "status": "draft",
    }
    (publish,) = entries(published, HistoryAction.PAIRING_PUBLISH)
    assert publish.before == {"status": "draft"}
    assert publish.after["status"] == "published"
    assert publish.competition_id == published.competition_id and publish.round_number == 1


def test_generated_pairing_names_its_system(competition, five, secretary):
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss", by=secretary)
    (made,) = entries(round_obj, HistoryAction.PAIRING_GENERATE)
    assert made.after["system"] == "swiss"
    assert len(made.after["pairings"]) == 3  # two tables and a bye


def test_swap_keeps_the_two_games_before_and_after(published, five, secretary):
    bert, eva = five[1], five[4]
    round_swap_players(round=published, player_x=bert.pk, player_y=eva.pk, by=secretary)
    (swap,) = entries(published, HistoryAction.PAIRING_SWAP)
    assert swap.before == {"pairings": [[1, ["Anna", "Bert"], None], [None, ["Eva"], None]]}
    assert swap.after == {"pairings": [[1, ["Anna", "Eva"], None], [None, ["Bert"], None]]}


def test_withdrawing_and_clearing_a_pairing(published, secretary):
    round_set_status(round=published, status=Round.Status.DRAFT, by=secretary)
    (undo,) = entries(published, HistoryAction.PAIRING_UNDO)
    assert (undo.before, undo.after["status"]) == ({"status": "published"}, "draft")
    round_clear_pairings(round=published, by=secretary)
    (clear,) = entries(published, HistoryAction.PAIRING_CLEAR)
    assert len(clear.before["pairings"]) == 3 and clear.after["pairings"] == []
    assert not published.games.exists()


def test_attendance_change_lists_who_is_absent(competition, five, secretary):
    anna, bert, cor = five[:3]
    round_obj = round_create(competition=competition)
    round_set_attendance(
        round=round_obj, present_player_ids=[anna.pk, bert.pk, cor.pk], by=secretary
    )
    round_set_attendance(
        round=round_obj, present_player_ids=[anna.pk, bert.pk, cor.pk], by=secretary
    )  # unchanged: no second entry
    (entry,) = entries(round_obj, HistoryAction.ROUND_ATTENDANCE)
    assert entry.before == {"absent": []}
    assert entry.after == {"absent": ["Dirk", "Eva"]}


def test_a_refused_change_writes_no_history(published, five, secretary):
    anna, *_rest = five
    before = HistoryEntry.objects.count()
    with pytest.raises(CompetitionError):
        round_swap_players(round=published, player_x=anna.pk, player_y=anna.pk, by=secretary)
    with pytest.raises(CompetitionError):
        round_set_attendance(round=published, present_player_ids=[], by=secretary)
    assert HistoryEntry.objects.count() == before


# One service decides a round's status


@pytest.mark.parametrize(
    ("current", "played", "pending", "expected"),
    [
        ("draft", 0, 3, "draft"),
        ("published", 0, 3, "published"),
        ("draft", 1, 2, "published"),
        ("published", 3, 0, "finished"),
        ("finished", 2, 1, "published"),
        ("finished", 0, 3, "published"),
    ],
)
def test_status_from_games(current, played, pending, expected):
    assert status_from_games(current=current, played=played, pending=pending) == expected


def test_the_last_result_finishes_the_round_with_a_history_entry(published, secretary):
    results(published, [(300, 200)], by=secretary)
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED
    results(published, [(300, 200), (250, 260)], by=secretary)
    assert Round.objects.get(pk=published.pk).status == Round.Status.FINISHED
    (finished,) = entries(published, HistoryAction.ROUND_STATUS)
    assert (finished.before, finished.after) == ({"status": "published"}, {"status": "finished"})
    assert finished.reason_code == HistoryReason.FROM_RESULTS
    assert finished.by == secretary


def test_a_correction_through_the_round_keeps_the_status(published, secretary):
    results(published, [(300, 200), (250, 260)])
    game = published.games.get(table=1)
    round_correct_result(
        game=game, result=ResultInput.of_pair("annulled"), by=secretary, reason="geschil"
    )
    assert Game.objects.get(pk=game.pk).outcome == Outcome.ANNULLED
    assert Round.objects.get(pk=published.pk).status == Round.Status.FINISHED


def _played_on_the_board(round_obj, capture_on_commit):
    """Table 2 of the round played to its end on the board (a Gouds 8 demo game)."""
    board_game = round_obj.games.get(table=2)
    board_game.rules = rules.GOUDS_8.to_dict()
    board_game.save(update_fields=["rules"])
    with capture_on_commit(execute=True):
        moves_import_gcg(game=board_game, data=(DEMO / "demo-1.gcg").read_bytes(), by=None)
    return board_game


def test_the_last_game_finished_on_the_board_finishes_the_round(
    published, five, django_capture_on_commit_callbacks
):
    results(published, [(300, 200)])
    board_game = _played_on_the_board(published, django_capture_on_commit_callbacks)
    assert Game.objects.get(pk=board_game.pk).has_result
    assert Round.objects.get(pk=published.pk).status == Round.Status.FINISHED
    (finished,) = entries(published, HistoryAction.ROUND_STATUS)
    assert finished.reason_code == HistoryReason.FROM_RESULTS


def test_taking_back_the_last_move_on_the_board_opens_the_round_again(
    published, django_capture_on_commit_callbacks
):
    results(published, [(300, 200)])
    board_game = _played_on_the_board(published, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        move_undo(game=board_game, by=None)
    assert callbacks  # the receiver scheduled the status check
    assert not Game.objects.get(pk=board_game.pk).has_result
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED
    statuses = [entry.after["status"] for entry in entries(published, HistoryAction.ROUND_STATUS)]
    assert statuses == ["finished", "published"]


def test_a_move_mid_game_does_not_read_the_round_status(
    published, django_capture_on_commit_callbacks
):
    """The board's most frequent write: a move that leaves the game unfinished cannot change
    the round's status, so nothing is scheduled after its commit."""
    board_game = _played_on_the_board(published, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True) as reopened:
        move_undo(game=board_game, by=None)  # the result goes: the status is read
    with django_capture_on_commit_callbacks(execute=True) as mid_game:
        move_undo(game=board_game, by=None)  # still no result: nothing to read
    assert len(reopened) == 1
    assert mid_game == []
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED


def test_status_cannot_be_set_finished_by_hand(published):
    with pytest.raises(CompetitionError):
        round_set_status(round=published, status=Round.Status.FINISHED)
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED


def test_round_update_status_changes_nothing_when_it_is_right(published):
    before = HistoryEntry.objects.count()
    round_update_status(round=published)
    assert HistoryEntry.objects.count() == before


# Reopening and deleting


def test_reopen_needs_a_reason_and_a_finished_round(published, secretary):
    with pytest.raises(CompetitionError):
        round_reopen(round=published, reason="Eva kwam laat", by=secretary)  # not finished
    results(published, [(300, 200), (250, 260)])
    with pytest.raises(CompetitionError) as caught, translation.override("nl"):
        round_reopen(round=published, reason="   ", by=secretary)
    with translation.override("nl"):
        assert str(caught.value.message) == "Geef een reden om de ronde te heropenen."
    assert Round.objects.get(pk=published.pk).status == Round.Status.FINISHED
    round_reopen(round=published, reason="Eva kwam laat", by=secretary)
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED
    (reopen,) = entries(published, HistoryAction.ROUND_REOPEN)
    assert (reopen.before, reopen.after) == ({"status": "finished"}, {"status": "published"})
    assert reopen.reason == "Eva kwam laat"


def test_delete_a_round_without_results(published, competition, secretary):
    round_id = published.pk
    Absence.objects.create(round=published, player=PlayerFactory(name="Zoë"))
    round_delete(round=published, by=secretary)
    assert not Round.objects.filter(pk=round_id).exists()
    assert not Game.objects.filter(round_id=round_id).exists()
    (deleted,) = HistoryEntry.objects.filter(action=HistoryAction.ROUND_DELETE)
    assert deleted.before["number"] == 1 and len(deleted.before["pairings"]) == 3
    assert deleted.before["absent"] == ["Zoë"]
    assert deleted.after is None
    # The round's earlier entries stay.
    assert HistoryEntry.objects.filter(object_id=round_id, action="round.create").exists()
    assert round_create(competition=competition).number == 1


def test_a_round_with_results_is_never_deleted(published, secretary):
    results(published, [(300, 200)])
    before = HistoryEntry.objects.count()
    with pytest.raises(CompetitionError) as caught, translation.override("nl"):
        round_delete(round=published, by=secretary)
    with translation.override("nl"):
        assert "heeft uitslagen" in str(caught.value.message)
    assert Round.objects.filter(pk=published.pk).exists()
    assert published.games.count() == 3
    assert HistoryEntry.objects.count() == before


def test_only_the_last_round_is_deleted(published, competition, secretary):
    round_create(competition=competition)
    with pytest.raises(CompetitionError):
        round_delete(round=published, by=secretary)
    assert competition.rounds.count() == 2


# Late arrivals


@pytest.fixture
def frank(competition):
    """A sixth entrant, marked absent in round 1 (arrives late)."""
    player = PlayerFactory(name="Frank")
    EntrantFactory(competition=competition, player=player)
    return player


def test_late_arrival_plays_the_bye(published, five, frank, secretary):
    eva = five[4]
    Absence.objects.create(round=published, player=frank)
    untouched = set(published.games.exclude(outcome=Outcome.BYE).values_list("pk", flat=True))
    game = round_add_late_player(
        round=published, player_id=frank.pk, opponent_id=eva.pk, by=secretary
    )
    assert (game.players[0], game.players[1], game.table) == (eva, frank, 3)
    assert game.outcome == Outcome.PENDING
    assert not published.games.filter(outcome=Outcome.BYE).exists()
    assert untouched < set(published.games.values_list("pk", flat=True))
    assert not Absence.objects.filter(round=published, player=frank).exists()
    (late,) = entries(published, HistoryAction.PAIRING_LATE)
    assert late.before == {"pairings": [[None, ["Eva"], None]]}
    assert late.after == {"pairings": [[3, ["Eva", "Frank"], None]], "present": ["Frank"]}
    assert late.game_id == game.pk and late.by == secretary
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED


def test_two_late_arrivals_at_a_new_table_and_a_bye(published, competition, frank):
    gert = PlayerFactory(name="Gert")
    EntrantFactory(competition=competition, player=gert)
    hanna = PlayerFactory(name="Hanna")
    EntrantFactory(competition=competition, player=hanna)
    game = round_add_late_player(round=published, player_id=gert.pk, opponent_id=frank.pk)
    assert (game.players[0], game.players[1], game.table) == (frank, gert, 3)
    bye = round_add_late_player(round=published, player_id=hanna.pk, opponent_id=BYE)
    assert bye.is_bye and bye.players[0] == hanna
    assert published.games.filter(outcome=Outcome.BYE).count() == 2


def test_late_arrival_with_assigned_starters_gets_a_starter(published, competition, five, frank):
    Competition.objects.filter(pk=competition.pk).update(starters=Competition.Starters.ASSIGNED)
    game = round_add_late_player(
        round=Round.objects.get(pk=published.pk), player_id=frank.pk, opponent_id=five[4].pk
    )
    assert game.starter in (0, 1)


@pytest.mark.parametrize(
    "case",
    ["seated", "not_entered", "plays_already", "finished", "stale", "other_group", "unpaired"],
)
def test_refused_late_arrivals_change_nothing(case, published, competition, five, frank):
    anna, bert, eva = five[0], five[1], five[4]
    player, opponent, expected = frank.pk, eva.pk, None
    round_obj = published
    if case == "seated":
        player = anna.pk
    elif case == "not_entered":
        player = PlayerFactory(name="Onbekend").pk
    elif case == "plays_already":
        opponent = bert.pk
    elif case == "finished":
        results(published, [(300, 200), (250, 260)])
        round_obj = Round.objects.get(pk=published.pk)
    elif case == "stale":
        expected = "3-1"
    elif case == "other_group":
        group = competition.groups.create(name="B")
        competition.entrants.filter(player=frank).update(group=group)
    elif case == "unpaired":
        round_obj = round_create(competition=competition)

    def tables():
        return sorted(
            (game.pk, tuple(p.pk for p in game.players), game.outcome)
            for game in round_obj.games.with_seats()
        )

    games = tables()
    history = HistoryEntry.objects.count()
    with pytest.raises(CompetitionError):
        round_add_late_player(
            round=round_obj, player_id=player, opponent_id=opponent, expected_pairing=expected
        )
    assert tables() == games
    assert HistoryEntry.objects.count() == history


def test_late_arrival_in_a_reopened_round(published, five, frank, secretary):
    results(published, [(300, 200), (250, 260)])
    round_reopen(round=published, reason="Frank kwam om half negen", by=secretary)
    game = round_add_late_player(round=published, player_id=frank.pk, opponent_id=five[4].pk)
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED
    round_correct_result(game=game, result=ResultInput.of_pair("normal", 310, 290), by=secretary)
    assert Round.objects.get(pk=published.pk).status == Round.Status.FINISHED
