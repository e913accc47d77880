"""An archived competition takes no change, through whichever service or page: each write
is refused with the Dutch message, and the database (every row of clubs, competition and
games, the history included) is the same afterwards.

The evening is `tests.test_odd_forms`' (round 1 finished, round 2 published with a
disputed and an open game, round 3 a draft), archived; every call below would succeed on
the same competition open.
"""

import pytest
from django.apps import apps
from django.utils import translation

from clubs.models import HistoryEntry
from competition.models import Competition, Entrant, Round
from competition.services import CompetitionError
from competition.services.competitions import (
    competition_archive,
    competition_delete,
    competition_update,
)
from competition.services.entrants import (
    entrant_add,
    entrant_enter,
    entrant_reinstate,
    entrant_set_group,
    entrant_withdraw,
    group_create,
)
from competition.services.importing import ImportDecisions, results_import_apply
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
)
from games.confirmation import (
    game_moves_write,
    game_result_confirm,
    game_result_enter,
    game_result_override,
)
from games.models import Game
from games.moves import MoveError, game_set_starter, move_add, move_correct, move_undo
from games.services import (
    ResultEntry,
    ResultError,
    ResultInput,
    game_record_result,
    games_record_results,
)
from pairing.services import round_create_and_pair, round_pair
from tests.factories import MembershipFactory, PlayerFactory
from tests.seats import pair_spec
from tests.test_odd_forms import evening, page_addresses, post_forms  # noqa: F401

pytestmark = pytest.mark.django_db

ARCHIVED = "gearchiveerd"
CSV = "round,table,player,opponent,score,opponent_score,outcome\n3,1,Anna,Dirk,320,290,normal\n"


def dump() -> dict[str, list[dict]]:
    """Every row of the apps' models, the history included."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for label in ("clubs", "competition", "games")
        for model in apps.get_app_config(label).get_models()
    }


@pytest.fixture
def archived(evening, competition, secretary):  # noqa: F811
    """The evening, archived; with a club member not entered yet."""
    eva = PlayerFactory(name="Eva")
    MembershipFactory(club=competition.club, player=eva)
    competition_archive(competition=competition, by=secretary, reason="seizoen voorbij")
    return {**evening, "eva": eva}


def _calls(competition: Competition, people: dict) -> dict:
    """One call of each write service, each valid were the competition open."""
    by = people["secretary"]
    rounds = {r.number: r for r in Round.objects.filter(competition=competition)}
    first, tonight, draft = rounds[1], rounds[2], rounds[3]
    by_moves, played = first.games.order_by("table")
    disputed, pending = tonight.games.order_by("table")
    entrants = {
        e.player.name: e
        for e in Entrant.objects.filter(competition=competition).select_related("player")
    }
    ids = {name: entrant.player_id for name, entrant in entrants.items()}

    def normal(a, b):
        return ResultInput.of_pair("normal", a, b)

    return {
        "competition_update": lambda: competition_update(
            competition=competition, settings={"name": "Andere naam"}, by=by
        ),
        "group_create": lambda: group_create(competition=competition, name="B", by=by),
        "entrant_add": lambda: entrant_add(
            competition=competition, player=people["eva"], joined_round=3, by=by
        ),
        "entrant_enter": lambda: entrant_enter(
            competition=competition, player=None, new_player_name="Frits", joined_round=3, by=by
        ),
        "entrant_withdraw": lambda: entrant_withdraw(entrant=entrants["Dirk"], from_round=3, by=by),
        "entrant_reinstate": lambda: entrant_reinstate(entrant=entrants["Dirk"], by=by),
        "entrant_set_group": lambda: entrant_set_group(entrant=entrants["Anna"], group=None, by=by),
        "round_create": lambda: round_create(competition=competition, by=by),
        "round_create_and_pair": lambda: round_create_and_pair(competition=competition, by=by),
        "round_set_attendance": lambda: round_set_attendance(
            round=draft, present_player_ids=ids.values(), by=by
        ),
        "round_set_pairings": lambda: round_set_pairings(
            round=draft,
            pairings=[
                pair_spec(ids["Anna"], ids["Bert"], 1),
                pair_spec(ids["Cor"], ids["Dirk"], 2),
            ],
            by=by,
        ),
        "round_clear_pairings": lambda: round_clear_pairings(round=draft, by=by),
        "round_pair": lambda: round_pair(round=draft, by=by),
        "round_set_status": lambda: round_set_status(
            round=draft, status=Round.Status.PUBLISHED, by=by
        ),
        "round_reopen": lambda: round_reopen(round=first, reason="late partij", by=by),
        "round_delete": lambda: round_delete(round=draft, by=by),
        "round_swap_players": lambda: round_swap_players(
            round=draft, player_x=ids["Anna"], player_y=ids["Bert"], by=by
        ),
        "round_record_results": lambda: round_record_results(
            round=tonight, entries=[ResultEntry(pending.pk, normal(300, 200))], by=by
        ),
        "round_correct_result": lambda: round_correct_result(
            game=played, result=normal(311, 290), reason="tikfout", by=by
        ),
        "results_import_apply": lambda: results_import_apply(
            competition=competition,
            data=CSV.encode(),
            decisions=ImportDecisions(create_unknown=True),
            by=by,
        ),
        "game_record_result": lambda: game_record_result(
            game=pending, result=normal(300, 200), by=by
        ),
        "games_record_results": lambda: games_record_results(
            entries=[ResultEntry(pending.pk, normal(300, 200))], by=by
        ),
        "game_set_starter": lambda: game_set_starter(game=pending, starter=0, by=by),
        "move_add": lambda: move_add(game=by_moves, notation="-", by=by),
        "move_undo": lambda: move_undo(game=by_moves, by=by),
        "move_correct": lambda: move_correct(game=by_moves, number=2, notation="-", by=by),
        "game_moves_write": lambda: game_moves_write(
            game=by_moves, by=by, write=lambda locked: move_undo(game=locked, by=by)
        ),
        "game_result_enter": lambda: game_result_enter(
            game=pending, result=normal(300, 200), by=people["bert"]
        ),
        "game_result_confirm": lambda: game_result_confirm(game=disputed, by=by),
        "game_result_override": lambda: game_result_override(
            game=disputed, result=normal(300, 250), reason="scoreblad", by=by
        ),
        "competition_delete": lambda: competition_delete(competition=competition, by=by),
    }


def test_every_service_refuses_an_archived_competition(archived, competition):
    calls = _calls(Competition.objects.get(pk=competition.pk), archived)
    assert len(calls) >= 30
    before = dump()
    history = HistoryEntry.objects.count()
    refused = {}
    with translation.override("nl"):
        for name, call in calls.items():
            with pytest.raises((CompetitionError, ResultError, MoveError)) as error:
                call()
            errors = getattr(error.value, "errors", None) or []
            rows = errors.values() if isinstance(errors, dict) else errors
            refused[name] = " ".join(map(str, [error.value.message, *rows]))
    assert HistoryEntry.objects.count() == history
    assert dump() == before
    # A competition with rounds is never deleted, archived or not: that refusal says so.
    not_archived = {name for name, text in refused.items() if ARCHIVED not in text}
    assert not_archived <= {"competition_delete"}, {n: refused[n] for n in not_archived}


def test_an_archived_competition_without_rounds_is_not_deleted(club, secretary):
    from tests.factories import CompetitionFactory

    empty = CompetitionFactory(club=club, slug="leeg")
    competition_archive(competition=empty, by=secretary)
    with translation.override("nl"), pytest.raises(CompetitionError, match=ARCHIVED):
        competition_delete(competition=empty, by=secretary)
    assert Competition.objects.filter(pk=empty.pk).exists()


def _competition_forms(client, values: dict, competition: Competition) -> list[dict]:
    """Every POST form on the secretary's pages that writes to the competition or its games."""
    game_ids = {str(pk) for pk in Game.objects.values_list("pk", flat=True)}
    prefix = f"/{competition.club.slug}/{competition.slug}/"
    forms = {}
    for address in page_addresses(values):
        response = client.get(address)
        assert response.status_code < 500, address
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for form in post_forms(response.content.decode(), address):
            action = form["action"]
            parts = action.strip("/").split("/")
            ours = action.startswith(prefix) or (
                parts[0] == "partij" and len(parts) > 1 and parts[1] in game_ids
            )
            if ours:
                forms[(action, tuple(sorted(form["fields"])))] = form
    return list(forms.values())


def _bodies(form: dict) -> list[dict]:
    """The form as the page fills it in, once per submit button it has."""
    fields = form["fields"]
    body = {name: values[:1] for name, values in fields.items() if values}
    buttons = [name for name, values in fields.items() if len(set(values)) > 1 and name == "action"]
    if not buttons:
        return [body]
    return [{**body, "action": [value]} for value in dict.fromkeys(fields["action"])]


def test_every_secretary_form_changes_nothing(client, archived, competition):
    client.force_login(archived["secretary"])
    forms = _competition_forms(client, archived["values"], competition)
    assert len(forms) >= 10, [form["action"] for form in forms]
    before = dump()
    shown = []
    for form in forms:
        for body in _bodies(form):
            response = client.post(form["action"], body, follow=True)
            assert response.status_code < 500, (form["action"], body)
            shown.append(ARCHIVED in response.content.decode())
    assert dump() == before
    # Most reach their service and show its refusal (the rest fail validation first: 26 of 35).
    assert sum(shown) >= len(shown) * 2 // 3, sum(shown)
