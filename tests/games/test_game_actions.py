"""What a person may do with a game is one rule (`games.policy.game_actions_for`):
its result page offers exactly the actions its services accept.

For each person (anonymous, the two players, another player of the club, the club's
secretary, another club's secretary, staff) and each state of a game, the page is opened
and every action is posted: an action the page offers (and the rule lists) succeeds and
changes the game; one it does not offer is refused and changes nothing. Each post runs in
a savepoint rolled back afterwards, so every action starts from the same state.
"""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.forms.models import model_to_dict
from django.urls import reverse
from django.utils import translation

import rules
from clubs.models import HistoryEntry
from competition.services.competitions import competition_archive
from games.confirmation import (
    game_moves_write,
    game_result_confirm,
    game_result_enter,
)
from games.models import Game, Move
from games.moves import move_add
from games.policy import GameAction, game_actions_for
from games.services import ResultInput
from tests.factories import GameFactory, RoundFactory, UserFactory, secretary_of, user_in_club

pytestmark = pytest.mark.django_db

PERSONS = ["anonymous", "anna", "bert", "cor", "secretary", "other_secretary", "staff"]


def _moves(game, by, *notations):
    for notation in notations:
        game_moves_write(
            game=game,
            by=by,
            write=lambda locked, n=notation: move_add(game=locked, notation=n, by=by),
        )


def _normal(a, b):
    return ResultInput.of_pair("normal", a, b)


def _provisional_a(game, anna, bert, competition):
    game_result_enter(game=game, result=_normal(380, 350), by=anna)


def _provisional_b(game, anna, bert, competition):
    game_result_enter(game=game, result=_normal(380, 350), by=bert)


def _disputed(game, anna, bert, competition):
    game_result_enter(game=game, result=_normal(380, 350), by=anna)
    game_result_enter(game=game, result=_normal(350, 380), by=bert)


def _confirmed(game, anna, bert, competition):
    game_result_enter(game=game, result=_normal(380, 350), by=anna)
    game_result_confirm(game=game, by=bert)


def _moves_pending(game, anna, bert, competition):
    _moves(game, anna, "8H WOORD")


def _moves_ended(game, anna, bert, competition):
    # Bert's flag falls (Gouds 8): Anna wins, a result from the moves that Bert entered.
    _moves(game, anna, "8H WOORD")
    _moves(game, bert, "(flagfall)")


def _archived(game, anna, bert, competition):
    game_result_enter(game=game, result=_normal(380, 350), by=anna)
    competition_archive(competition=competition, reason="seizoen voorbij")


STATES = {
    "no_result": None,
    "provisional_a": _provisional_a,
    "provisional_b": _provisional_b,
    "disputed": _disputed,
    "confirmed": _confirmed,
    "moves_pending": _moves_pending,
    "moves_ended": _moves_ended,
    "archived": _archived,
    "draft_round": None,
    "finished_round": None,
}


@pytest.fixture(autouse=True)
def dutch():
    with translation.override("nl"):
        yield


@pytest.fixture
def people(club, other_club, competition):
    return {
        "anonymous": AnonymousUser(),
        "anna": user_in_club(club, username="anna"),
        "bert": user_in_club(club, username="bert"),
        "cor": user_in_club(club, username="cor"),
        "secretary": secretary_of(club, username="secretaris"),
        "other_secretary": secretary_of(other_club, username="secretaris-delft"),
        "staff": UserFactory(username="beheerder", staff=True),
    }


def _game_in(state: str, competition, people) -> Game:
    status = {"draft_round": "draft", "finished_round": "finished"}.get(state, "published")
    anna, bert = people["anna"], people["bert"]
    game = GameFactory(
        round=RoundFactory(competition=competition, status=status),
        table=1,
        player_a=anna.player,
        player_b=bert.player,
        rules=rules.GOUDS_8.to_dict(),
        starter="a",
    )
    build = STATES[state]
    if build is not None:
        build(game, anna, bert, competition)
    return Game.objects.select_related("round__competition__club").with_seats().get(pk=game.pk)


def _snapshot(game: Game) -> tuple:
    row = Game.objects.get(pk=game.pk)
    return (
        model_to_dict(row),
        Move.objects.filter(game=game).count(),
        HistoryEntry.objects.count(),
    )


def _offered(client, game: Game) -> set[GameAction]:
    """The actions the result page shows a button for."""
    response = client.get(reverse("game_result", args=[game.pk]))
    assert response.status_code in (200, 302, 403, 404)
    if response.status_code != 200:
        return set()
    page = response.content.decode()
    offered = set()
    if 'id="confirm-form"' in page:
        offered.add(GameAction.CONFIRM)
    if 'name="action" value="enter"' in page:
        offered.add(GameAction.ENTER)
    if 'name="action" value="override"' in page:
        offered.add(GameAction.OVERRIDE)
    return offered


def _post(client, game: Game, action: GameAction):
    version = Game.objects.get(pk=game.pk).version
    if action == GameAction.MOVES:
        if Move.objects.filter(game=game).exists():
            return client.post(reverse("move_undo", args=[game.pk]), {"version": version})
        return client.post(
            reverse("board", args=[game.pk]), {"kind": "pass", "notation": "", "version": version}
        )
    if action == GameAction.RECORD:
        # The secretary's correction page (competition/views/secretary.py), whose service
        # asks the same rule: enter, or correct with a reason.
        competition = game.round.competition
        address = reverse("game_correct", args=[competition.club.slug, competition.slug, game.pk])
        return client.post(
            address,
            {"version": version, "kind": "normal", "score_a": 300, "score_b": 290, "reason": "x"},
        )
    data = {"action": str(action), "version": version}
    if action != GameAction.CONFIRM:
        data |= {"kind": "normal", "score_a": 300, "score_b": 290, "reason": "scoreblad"}
    return client.post(reverse("game_result", args=[game.pk]), data)


@pytest.mark.parametrize("state", list(STATES))
@pytest.mark.parametrize("person", PERSONS)
def test_the_page_offers_exactly_what_the_services_accept(
    client, competition, people, person, state
):
    game = _game_in(state, competition, people)
    user = people[person]
    if user.is_authenticated:
        client.force_login(user)
    allowed = game_actions_for(user, game)
    assert _offered(client, game) == allowed - {GameAction.MOVES, GameAction.RECORD}
    for action in GameAction:
        before = _snapshot(game)
        savepoint = transaction.savepoint()
        response = _post(client, game, action)
        assert response.status_code < 500
        changed = _snapshot(game) != before
        transaction.savepoint_rollback(savepoint)
        assert changed == (action in allowed), (person, state, action, response.status_code)


def test_who_may_do_what(competition, people):
    """The rule spelled out for the usual cases, worked out from the club's rules."""
    a = GameAction
    expected = {
        ("no_result", "anna"): {a.ENTER, a.MOVES},
        ("provisional_a", "anna"): {a.ENTER},
        ("provisional_a", "bert"): {a.CONFIRM, a.ENTER},
        # Moves would replace a final score: it is corrected as a score.
        # The secretary's results and correction pages correct it, with a reason (RECORD).
        ("provisional_a", "secretary"): {a.CONFIRM, a.OVERRIDE, a.RECORD},
        ("disputed", "anna"): set(),
        ("disputed", "secretary"): {a.CONFIRM, a.OVERRIDE, a.RECORD},
        ("confirmed", "bert"): set(),
        ("confirmed", "secretary"): {a.OVERRIDE, a.RECORD},
        ("moves_ended", "bert"): {a.MOVES},
        ("moves_ended", "anna"): {a.CONFIRM, a.ENTER, a.MOVES},
        ("moves_ended", "secretary"): {a.CONFIRM, a.MOVES},  # the board decides
        ("finished_round", "anna"): set(),
        ("finished_round", "secretary"): {a.ENTER, a.MOVES, a.RECORD},
        ("draft_round", "secretary"): {a.ENTER, a.MOVES, a.RECORD},
        ("no_result", "staff"): {a.ENTER, a.MOVES, a.RECORD},
        ("no_result", "cor"): set(),
        ("no_result", "other_secretary"): set(),
        ("archived", "secretary"): set(),  # last: it archives the competition
    }
    for (state, person), actions in expected.items():
        game = _game_in(state, competition, people)
        assert game_actions_for(people[person], game) == actions, (state, person)
