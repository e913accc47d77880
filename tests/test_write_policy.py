"""Who may write a game's result, its moves or its clock is one rule (`games.policy`), and
every service that writes asks it, whichever page, import or command called it: a page
that forgot to check is no way in.

Each refusal below is called on the service itself, as the person the page would have
turned away, and asserted in Dutch with every row of clubs, competition and games (the
history included) the same afterwards. `tests/games/test_game_actions.py` holds the pages
to the same rule, person by person and state by state.
"""

import re
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

import rules
from competition.models import Competition
from competition.services import CompetitionError
from competition.services.importing import ImportDecisions, results_import_apply
from competition.services.rounds import round_correct_result, round_record_results
from games.moves import (
    MoveError,
    game_set_starter,
    move_add,
    move_correct,
    move_undo,
    moves_import_gcg,
)
from games.services import ResultEntry, ResultError, ResultInput, game_record_result
from interchange.tsh import tsh_import
from tests.factories import GameFactory, RoundFactory, UserFactory, secretary_of, user_in_club

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[1]
SECRETARIES_ONLY = "Alleen de secretarissen van de club kunnen uitslagen invoeren of corrigeren."
NOT_AT_TABLE = "Alleen de twee spelers en de secretarissen van de club"
GCG = (ROOT / "games" / "demo" / "demo-1.gcg").read_bytes()
TSH = (ROOT / "tests" / "interchange" / "fixtures" / "tsh_hand_written.t").read_bytes()
CSV = b"round,table,player,opponent,score,opponent_score,outcome\n1,1,Anna,Bert,320,290,normal\n"

#: Everyone a secretary's page turns away: a member who does not play the game, its own
#: players (who enter through their result page, as players), another club's secretary,
#: an account without a player, and a visitor.
STRANGERS = ["member", "anna", "other_secretary", "account", "anonymous"]
#: Who the board turns away: all of them but the game's players.
NOT_PLAYING = ["member", "other_secretary", "account", "anonymous"]


@pytest.fixture(autouse=True)
def dutch():
    with translation.override("nl"):
        yield


@pytest.fixture
def people(club, other_club):
    return {
        "member": user_in_club(club, username="cor"),
        "anna": user_in_club(club, username="anna"),
        "bert": user_in_club(club, username="bert"),
        "other_secretary": secretary_of(other_club, username="secretaris-delft"),
        "account": UserFactory(username="los"),
        "anonymous": AnonymousUser(),
        "secretary": secretary_of(club, username="secretaris"),
    }


@pytest.fixture
def game(competition, people):
    """Anna against Bert, in a published round of the club's competition, Gouds 8."""
    return GameFactory(
        round=RoundFactory(competition=competition, status="published"),
        table=1,
        player_a=people["anna"].player,
        player_b=people["bert"].player,
        rules=rules.GOUDS_8.to_dict(),
        starter="a",
    )


def dump() -> dict[str, list[dict]]:
    """Every row of the apps' models, the history included."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for label in ("clubs", "competition", "games")
        for model in apps.get_app_config(label).get_models()
    }


def normal(a: int, b: int) -> ResultInput:
    return ResultInput.of_pair("normal", a, b)


def with_result(game):
    game_record_result(game=game, result=normal(380, 350), by=None)
    game.refresh_from_db()
    return game


# --- the secretary's results page, its correction page, the imports ---------------------


@pytest.mark.parametrize("person", STRANGERS)
def test_the_results_page_service_writes_for_the_clubs_secretaries_only(game, people, person):
    before = dump()
    with pytest.raises(ResultError) as refused:
        round_record_results(
            round=game.round, entries=[ResultEntry(game.pk, normal(380, 350))], by=people[person]
        )
    assert str(refused.value.message) == SECRETARIES_ONLY
    assert dump() == before


@pytest.mark.parametrize("person", STRANGERS)
def test_the_correction_service_writes_for_the_clubs_secretaries_only(game, people, person):
    game = with_result(game)
    before = dump()
    with pytest.raises(ResultError) as refused:
        round_correct_result(
            game=game, result=normal(300, 350), by=people[person], reason="tikfout"
        )
    assert str(refused.value.message) == SECRETARIES_ONLY
    assert dump() == before


@pytest.mark.parametrize("person", STRANGERS)
def test_a_game_result_written_directly_asks_the_same_rule(game, people, person):
    before = dump()
    with pytest.raises(ResultError):
        game_record_result(game=game, result=normal(380, 350), by=people[person])
    assert dump() == before


@pytest.mark.parametrize("person", STRANGERS)
def test_a_results_file_is_the_clubs_secretaries_alone(competition, people, person):
    before = dump()
    with pytest.raises(CompetitionError) as refused:
        results_import_apply(
            competition=competition,
            data=CSV,
            decisions=ImportDecisions(create_unknown=True),
            by=people[person],
        )
    assert str(refused.value.message) == SECRETARIES_ONLY
    assert dump() == before


@pytest.mark.parametrize("person", STRANGERS)
def test_a_tsh_file_is_the_clubs_secretaries_alone(club, people, person):
    before = dump()
    with pytest.raises(CompetitionError) as refused:
        tsh_import(club=club, data=TSH, name="Toernooi Gouda", by=people[person])
    assert str(refused.value.message) == SECRETARIES_ONLY
    assert dump() == before
    assert not Competition.objects.filter(slug="toernooi-gouda").exists()


def test_the_secretary_and_a_command_still_enter_and_correct(game, people, club):
    """What the pages rely on, and `by=None`: a caller acting for no one (a command, the
    demo seed, an import from the command line) has the secretary's rights."""
    secretary = people["secretary"]
    recorded = round_record_results(
        round=game.round, entries=[ResultEntry(game.pk, normal(380, 350))], by=secretary
    )
    assert recorded.changed == 1
    corrected = round_correct_result(
        game=game, result=normal(380, 351), by=secretary, reason="tikfout"
    )
    assert tuple(corrected.scores) == (380, 351)
    with pytest.raises(ResultError, match="reden"):  # a correction still needs its reason
        round_correct_result(game=game, result=normal(380, 352), by=secretary)
    assert round_correct_result(game=game, result=normal(380, 352), by=None, reason="x")
    summary = tsh_import(club=club, data=TSH, name="Toernooi", rules="standard", by=secretary)
    assert summary.games == 12


# --- the board: moves, who starts, a GCG file ---------------------------------------------


def _writes(game):
    """Each service of the board, as a function of who calls it."""
    return {
        "move_add": lambda by: move_add(game=game, notation="8H WOORD", by=by),
        "move_undo": lambda by: move_undo(game=game, by=by),
        "move_correct": lambda by: move_correct(game=game, number=1, notation="8H WOORDEN", by=by),
        "game_set_starter": lambda by: game_set_starter(game=game, starter=1, by=by),
        "moves_import_gcg": lambda by: moves_import_gcg(game=game, data=GCG, by=by),
    }


@pytest.mark.parametrize(
    "service", ["move_add", "move_undo", "move_correct", "game_set_starter", "moves_import_gcg"]
)
@pytest.mark.parametrize("person", NOT_PLAYING)
def test_the_board_services_refuse_who_neither_plays_nor_is_secretary(
    game, people, person, service
):
    if service in ("move_undo", "move_correct"):
        move_add(game=game, notation="8H WOORD", by=people["anna"])
    else:
        game.refresh_from_db()
    before = dump()
    with pytest.raises(MoveError) as refused:
        _writes(game)[service](people[person])
    assert str(refused.value.message).startswith(NOT_AT_TABLE)
    assert dump() == before


def test_a_player_calling_the_board_service_directly_is_held_to_the_players_rule(game, people):
    """The board page wraps its writes in `game_moves_write`; the services ask the rule
    themselves, so a player is refused in a closed round whichever way they came."""
    game.round.status = "finished"
    game.round.save()
    before = dump()
    with pytest.raises(MoveError, match="Deze ronde is gesloten"):
        move_add(game=game, notation="8H WOORD", by=people["anna"])
    assert dump() == before
    move_add(game=game, notation="8H WOORD", by=people["secretary"])  # the secretary may


def test_a_final_score_is_corrected_as_a_score_not_overwritten_by_moves(game, people):
    """A game with a final score and no moves: moves would replace the score unseen, for
    the secretary (and a command) too, on every path, not only through the page."""
    game = with_result(game)
    before = dump()
    for by in (None, people["secretary"]):
        with pytest.raises(MoveError, match="heeft al een einduitslag"):
            move_add(game=game, notation="8H WOORD", by=by)
    assert dump() == before


# --- the pages pass who is writing ------------------------------------------------------


def test_no_page_writes_for_no_one():
    """`by=None` is a caller acting for no one, with the secretary's rights: a page always
    passes `request.user` (a visitor is an `AnonymousUser`, refused like any stranger)."""
    views = [
        path
        for path in ROOT.glob("*/**/*.py")
        if ".venv" not in path.parts
        and "tests" not in path.parts
        and (path.name.endswith("views.py") or path.parent.name == "views")
    ]
    assert len(views) > 10
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in views
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"\bby=None\b", line)
    ]
    assert offenders == []
