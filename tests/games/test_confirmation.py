"""Results by the players, confirmed by the opponent (games/confirmation.py): the states,
who may do what, the history of every step, and the standings' two settings."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import translation

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Membership
from competition import selectors
from games.confirmation import (
    ConfirmationError,
    game_moves_write,
    game_result_confirm,
    game_result_enter,
    game_result_override,
)
from games.models import Confirmation, Game, Outcome, ResultState
from games.moves import MoveError, move_add
from games.services import ResultEntry, ResultError, ResultInput, games_record_results
from tests.factories import (
    GameFactory,
    PlayerFactory,
    UserFactory,
    user_in_club,
)
from tests.seats import Winner, winner

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def dutch():
    """The services' messages are asserted in Dutch, whatever an earlier test activated."""
    with translation.override("nl"):
        yield


def actions(game) -> list[str]:
    return list(
        HistoryEntry.objects.filter(game_id=game.pk)
        .order_by("at", "pk")
        .values_list("action", flat=True)
    )


def normal(score_a, score_b):
    return ResultInput.of_pair("normal", score_a, score_b)


def test_a_players_result_is_provisional_until_the_opponent_confirms(table, anna, bert):
    game = game_result_enter(game=table, result=normal(380, 350), by=anna)
    assert (game.outcome, winner(game), game.scores[0], game.scores[1]) == ("normal", "a", 380, 350)
    assert game.confirmation == Confirmation.PROVISIONAL
    assert game.claimed_by == 0
    assert game.result_state == ResultState.AWAITING

    game = game_result_confirm(game=game, by=bert, expected_version=game.version)
    assert game.confirmation == Confirmation.CONFIRMED
    assert game.result_state == ResultState.CONFIRMED
    assert Game.objects.get(pk=table.pk).claimed_by is None
    entry = HistoryEntry.objects.get(game_id=table.pk, action=HistoryAction.RESULT_CONFIRM)
    assert entry.by == bert
    assert entry.before["confirmation"] == "provisional"
    assert entry.after["confirmation"] == "confirmed"
    assert entry.after["scores"] == [380, 350]
    assert entry.club_id == table.round.competition.club_id
    assert entry.round_number == 1


def test_the_opponent_entering_the_same_result_confirms_it(table, anna, bert):
    game_result_enter(game=table, result=normal(380, 350), by=anna)
    game = game_result_enter(game=table, result=normal(380, 350), by=bert)
    assert game.confirmation == Confirmation.CONFIRMED
    assert actions(table) == [HistoryAction.RESULT_ENTER, HistoryAction.RESULT_CONFIRM]


def test_other_scores_from_the_opponent_dispute_it_and_the_secretary_decides(
    table, anna, bert, secretary
):
    game_result_enter(game=table, result=normal(380, 350), by=anna)
    game = game_result_enter(game=table, result=normal(350, 380), by=bert)
    # The first entry stays stored; the other is kept beside it for the secretary.
    assert (game.scores[0], game.scores[1], winner(game)) == (380, 350, Winner.A)
    assert game.confirmation == Confirmation.DISPUTED
    assert game.result_state == ResultState.DISPUTED
    assert game.counter_result == {
        "outcome": "normal",
        "scores": [350, 380],
        "flag_fell": [],
        "forfeited": [],
        "by": 1,
    }
    dispute = HistoryEntry.objects.get(game_id=table.pk, action=HistoryAction.RESULT_DISPUTE)
    assert dispute.by == bert
    assert dispute.after["counter_scores"] == [350, 380]

    # Neither player can change or confirm it any more.
    for player in (anna, bert):
        with pytest.raises(ConfirmationError, match="secretaris"):
            game_result_enter(game=table, result=normal(1, 0), by=player)
    with pytest.raises(ConfirmationError):
        game_result_confirm(game=table, by=anna)

    # The secretary's decision needs a reason, and is confirmed at once.
    with pytest.raises(ConfirmationError, match="reden"):
        game_result_override(game=table, result=normal(350, 380), by=secretary, reason=" ")
    game = game_result_override(
        game=table, result=normal(350, 380), by=secretary, reason="Scoreblad nagerekend"
    )
    assert (game.scores[0], game.scores[1], winner(game)) == (350, 380, Winner.B)
    assert game.confirmation == Confirmation.CONFIRMED
    assert game.counter_result == {}
    override = HistoryEntry.objects.get(game_id=table.pk, action=HistoryAction.RESULT_OVERRIDE)
    assert override.reason == "Scoreblad nagerekend"
    assert override.before["confirmation"] == "disputed"
    assert override.before["counter_result"]["scores"] == [350, 380]
    assert (override.after["scores"][0], override.after["confirmation"]) == (350, "confirmed")
    assert actions(table) == [
        HistoryAction.RESULT_ENTER,  # Anna's, provisional
        HistoryAction.RESULT_DISPUTE,
        HistoryAction.RESULT_CORRECT,  # the scores the secretary decided
        HistoryAction.RESULT_OVERRIDE,
    ]


def test_the_player_who_entered_cannot_confirm_but_can_correct_with_a_reason(table, anna):
    game_result_enter(game=table, result=normal(380, 350), by=anna)
    with pytest.raises(ConfirmationError, match="tegenstander"):
        game_result_confirm(game=table, by=anna)
    with pytest.raises(ResultError, match="reden"):
        game_result_enter(game=table, result=normal(381, 350), by=anna)
    game = game_result_enter(game=table, result=normal(381, 350), by=anna, reason="tikfout")
    assert (game.scores[0], game.confirmation, game.claimed_by) == (381, "provisional", 0)


def test_a_confirmed_result_is_the_secretarys_alone(table, anna, bert, secretary):
    game_result_enter(game=table, result=normal(380, 350), by=anna)
    game_result_confirm(game=table, by=bert)
    for player in (anna, bert):
        with pytest.raises(ConfirmationError, match="bevestigd"):
            game_result_enter(game=table, result=normal(1, 0), by=player, reason="x")
    game = game_result_override(game=table, result=normal(300, 350), by=secretary, reason="fout")
    assert (game.scores[0], game.confirmation) == (300, "confirmed")


def test_the_secretarys_entry_and_confirmation_are_final(table, anna, bert, secretary):
    game = game_result_enter(game=table, result=normal(400, 300), by=secretary)
    assert (game.confirmation, game.result_state) == ("confirmed", ResultState.CONFIRMED)
    with pytest.raises(ConfirmationError):
        game_result_enter(game=table, result=normal(1, 0), by=anna, reason="x")

    other = GameFactory(
        round=table.round, table=2, player_a=PlayerFactory(), player_b=PlayerFactory()
    )
    first = other.players[0]
    first.user = UserFactory()
    first.save()
    game_result_enter(game=other, result=normal(200, 210), by=other.players[0].user)
    game = game_result_confirm(game=other, by=secretary, reason="Gezien op het scoreblad")
    assert game.confirmation == "confirmed"
    confirmed = HistoryEntry.objects.get(game_id=other.pk, action=HistoryAction.RESULT_CONFIRM)
    assert confirmed.reason == "Gezien op het scoreblad"


def test_the_results_page_of_the_secretary_confirms_what_it_saves(table, anna, secretary):
    game_result_enter(game=table, result=normal(380, 350), by=anna)
    games_record_results(
        entries=[ResultEntry(table.pk, normal(380, 351), reason="scoreblad")], by=secretary
    )
    table.refresh_from_db()
    assert (table.scores[1], table.confirmation, table.claimed_by) == (351, "confirmed", None)


def test_only_the_two_players_and_the_clubs_secretaries(table, anna, other_secretary, club):
    stranger = user_in_club(club, username="cor")
    for user in (stranger, other_secretary, AnonymousUser(), UserFactory()):
        with pytest.raises(ConfirmationError) as refused:
            game_result_enter(game=table, result=normal(380, 350), by=user)
        assert refused.value.forbidden
    game_result_enter(game=table, result=normal(380, 350), by=anna)
    for user in (stranger, other_secretary):
        with pytest.raises(ConfirmationError) as refused:
            game_result_confirm(game=table, by=user)
        assert refused.value.forbidden
    with pytest.raises(ConfirmationError) as refused:
        game_result_override(game=table, result=normal(1, 0), by=anna, reason="ik won")
    assert refused.value.forbidden
    table.refresh_from_db()
    assert (table.scores[0], table.confirmation) == (380, "provisional")
    assert actions(table) == [HistoryAction.RESULT_ENTER]  # Anna's entry, nothing refused


def test_players_enter_only_in_a_published_round(table, anna, secretary):
    table.round.status = "finished"
    table.round.save()
    with pytest.raises(ConfirmationError, match="gesloten"):
        game_result_enter(game=table, result=normal(380, 350), by=anna)
    game = game_result_enter(game=table, result=normal(380, 350), by=secretary)
    assert game.confirmation == "confirmed"


def test_a_stale_page_is_refused_and_changes_nothing(table, anna, bert):
    game = game_result_enter(game=table, result=normal(380, 350), by=anna)
    with pytest.raises(ConfirmationError, match="intussen"):
        game_result_confirm(game=table, by=bert, expected_version=game.version - 1)
    assert Game.objects.get(pk=table.pk).confirmation == "provisional"


def test_wrong_input_changes_nothing(table, anna):
    with pytest.raises(ResultError):
        game_result_enter(game=table, result=ResultInput.of_pair("normal", 99999, 1), by=anna)
    with pytest.raises(ResultError):
        game_result_enter(game=table, result=ResultInput.of_pair("gewonnen", 1, 0), by=anna)
    table.refresh_from_db()
    assert (table.outcome, table.confirmation, table.version) == (Outcome.PENDING, "confirmed", 0)


def test_moves_entered_by_a_player_give_a_provisional_result(table, anna, bert):
    def add(notation, by):
        return game_moves_write(
            game=table, by=by, write=lambda locked: move_add(game=locked, notation=notation, by=by)
        )

    table.starter = 0
    table.save()
    add("8H WOORD", anna)
    table.refresh_from_db()
    assert (table.outcome, table.confirmation) == (Outcome.PENDING, "confirmed")
    # Flag fall ends a Gouds 8 game: Bert's flag falls, so Anna wins.
    add("(flagfall)", bert)
    table.refresh_from_db()
    assert table.outcome == Outcome.FLAG_FALL
    assert (table.confirmation, table.claimed_by) == ("provisional", 1)
    game_result_confirm(game=table, by=anna)
    table.refresh_from_db()
    assert table.confirmation == "confirmed"
    with pytest.raises(MoveError, match="bevestigd"):
        add("8H WOORD", bert)


def test_a_player_cannot_overwrite_an_entered_final_score_on_the_board(table, anna, bert):
    game_result_enter(game=table, result=normal(380, 350), by=anna)
    with pytest.raises(MoveError, match="eindstand"):
        game_moves_write(
            game=table, by=bert, write=lambda locked: move_add(game=locked, notation="-", by=bert)
        )
    table.refresh_from_db()
    assert (table.scores[0], table.confirmation) == (380, "provisional")


def test_standings_count_provisional_results_or_only_confirmed_ones(table, anna, bert):
    competition = table.round.competition
    for player in (anna.player, bert.player):
        competition.entrants.create(player=player)
    game_result_enter(game=table, result=normal(380, 350), by=anna)

    view = selectors.standings_get(competition)
    rows = {row.player_id: row for row in view.groups[""]}
    assert view.provisional_results == 1
    assert rows[anna.player.pk].match_points == 2

    competition.only_confirmed_results = True
    competition.save()
    view = selectors.standings_get(competition)
    rows = {row.player_id: row for row in view.groups[""]}
    assert view.provisional_results == 1
    assert rows[anna.player.pk].match_points == 0
    assert selectors.game_records(competition) == []

    game_result_confirm(game=table, by=bert)
    view = selectors.standings_get(competition)
    rows = {row.player_id: row for row in view.groups[""]}
    assert view.provisional_results == 0
    assert rows[anna.player.pk].match_points == 2


def test_the_pages_and_exports_mark_a_provisional_result_until_it_is_confirmed(
    client, table, anna, bert
):
    competition = table.round.competition
    for player in (anna.player, bert.player):
        competition.entrants.create(player=player)
    pages = [
        reverse("player", kwargs={**competition.url_kwargs, "player_id": anna.player.pk}),
        reverse("player_history", args=[competition.club.slug, anna.player.pk]),
        reverse("round", kwargs={**competition.url_kwargs, "number": table.round.number}),
    ]
    game_result_enter(game=table, result=normal(380, 350), by=anna)
    for page in pages:
        html = client.get(page).content.decode()
        assert "380 – 350" in html, page
        assert 'class="badge text-bg-warning provisional">voorlopig<' in html, page

    round_json = reverse(
        "round_json", kwargs={**competition.url_kwargs, "number": table.round.number}
    )
    standings_json = reverse("standings_json", kwargs=competition.url_kwargs)
    assert client.get(round_json).json()["games"][0]["confirmation"] == "provisional"
    assert client.get(standings_json).json()["provisional_results"] == 1

    game_result_confirm(game=table, by=bert)
    for page in pages:
        html = client.get(page).content.decode()
        assert "380 – 350" in html, page
        assert "provisional" not in html, page
    assert client.get(round_json).json()["games"][0]["confirmation"] == "confirmed"
    assert client.get(standings_json).json()["provisional_results"] == 0


def test_a_secretary_who_plays_enters_as_secretary(table, bert):
    """As on the round's results page: what a playing secretary enters is confirmed."""
    Membership.objects.filter(player=bert.player).update(role=Membership.Role.SECRETARY)
    game = game_result_enter(game=table, result=normal(300, 350), by=bert)
    assert (game.confirmation, game.claimed_by) == ("confirmed", None)


def test_the_round_is_finished_only_when_its_last_result_is_confirmed(
    table, anna, bert, django_capture_on_commit_callbacks
):
    round_ = table.round
    with django_capture_on_commit_callbacks(execute=True):
        game_result_enter(game=table, result=normal(380, 350), by=anna)
    round_.refresh_from_db()
    assert round_.status == "published"  # Bert may still confirm or dispute it
    with django_capture_on_commit_callbacks(execute=True):
        game_result_confirm(game=table, by=bert)
    round_.refresh_from_db()
    assert round_.status == "finished"
