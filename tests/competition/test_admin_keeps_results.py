"""The admin keeps what the app keeps: no history row is added, changed or deleted (not by a
superuser either), results and moves are read only, nothing with results is deleted, and
competition settings changed there go through the service into the history."""

import pytest
from django.urls import reverse

from clubs.history import HistoryAction, history_record
from clubs.models import HistoryEntry, Player
from competition.models import Competition, Entrant, Round
from games.models import Game, Move
from tests.factories import (
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    MoveFactory,
    RoundFactory,
    competition_form_data,
)

pytestmark = pytest.mark.django_db


def admin_url(model, action: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{action}", args=args)


@pytest.fixture
def entry(competition):
    return history_record(
        club_id=competition.club_id,
        by=None,
        action=HistoryAction.GROUP_CREATE,
        object_type="group",
        label="Noord",
        after={"name": "Noord"},
        competition_id=competition.pk,
    )


@pytest.fixture
def played_game(competition):
    return GameFactory(round=RoundFactory(competition=competition, number=1), played=True)


def test_history_is_read_only_for_a_superuser(admin_client, entry):
    elsewhere = CompetitionFactory()
    history_record(
        club_id=elsewhere.club_id, by=None, action=HistoryAction.ROUND_CREATE, object_type="round"
    )
    listing = admin_client.get(admin_url(HistoryEntry, "changelist"))
    assert listing.status_code == 200
    html = listing.content.decode()
    assert "Noord" in html
    assert 'name="action"' not in html  # no bulk actions, so no bulk delete
    for wanted in ("club__id__exact", "action__exact", "at__gte"):
        assert wanted in html  # the filters: club, what, date

    change = admin_url(HistoryEntry, "change", entry.pk)
    page = admin_client.get(change)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert admin_client.post(change, {"reason": "anders"}).status_code == 403
    assert admin_client.get(admin_url(HistoryEntry, "add")).status_code == 403
    assert admin_client.post(admin_url(HistoryEntry, "delete", entry.pk)).status_code == 403
    entry.refresh_from_db()
    assert entry.reason == "" and HistoryEntry.objects.count() == 2


@pytest.mark.parametrize("model", [Game, Move])
def test_results_and_moves_are_read_only(admin_client, played_game, model):
    row = played_game if model is Game else MoveFactory(game=played_game)
    change = admin_url(model, "change", row.pk)
    assert 'name="_save"' not in admin_client.get(change).content.decode()
    data = {"outcome": "normal", "score_a": 100, "score_b": 400, "winner": "b", "notation": "X"}
    assert admin_client.post(change, data).status_code == 403
    assert admin_client.get(admin_url(model, "add")).status_code == 403
    assert admin_client.post(admin_url(model, "delete", row.pk)).status_code == 403
    played_game.refresh_from_db()
    assert (played_game.scores[0], played_game.scores[1], played_game.version) == (321, 287, 0)


@pytest.mark.parametrize(
    ("model", "row"),
    [
        (Competition, lambda game: game.round.competition),
        (Round, lambda game: game.round),
        (Player, lambda game: game.players[0]),
    ],
)
def test_nothing_with_results_is_deleted_one_by_one(admin_client, played_game, model, row):
    target = row(played_game)
    change = admin_url(model, "change", target.pk)
    assert admin_url(model, "delete", target.pk) not in admin_client.get(change).content.decode()
    assert (
        admin_client.post(admin_url(model, "delete", target.pk), {"post": "yes"}).status_code == 403
    )
    assert model.objects.filter(pk=target.pk).exists()
    assert Game.objects.filter(pk=played_game.pk).exists()


def test_the_competitions_page_says_why(admin_client, played_game):
    competition = played_game.round.competition
    html = admin_client.get(admin_url(Competition, "change", competition.pk)).content.decode()
    assert "heeft uitslagen: het blijft bewaard en kan niet worden verwijderd" in html


def test_nor_in_bulk(admin_client, club, played_game, entry):
    kept = played_game.round.competition
    empty = CompetitionFactory(club=club, name="Leeg", slug="leeg")
    EntrantFactory(competition=empty)
    changelist = admin_url(Competition, "changelist")
    selected = {"action": "delete_selected", "_selected_action": [kept.pk, empty.pk]}

    confirm = admin_client.post(changelist, selected)
    assert confirm.status_code == 200
    assert "heeft uitslagen" in confirm.content.decode()
    admin_client.post(changelist, {**selected, "post": "yes"})
    assert Competition.objects.filter(pk__in=[kept.pk, empty.pk]).count() == 2

    # Nor one with only entrants: the admin does not cascade through them.
    admin_client.post(changelist, {**selected, "_selected_action": [empty.pk], "post": "yes"})
    assert Entrant.objects.filter(competition_id=empty.pk).exists()

    # A competition made by mistake, with nothing in it, can go; the history stays.
    mistake = CompetitionFactory(club=club, name="Vergissing", slug="vergissing")
    admin_client.post(changelist, {**selected, "_selected_action": [mistake.pk], "post": "yes"})
    assert not Competition.objects.filter(pk=mistake.pk).exists()
    assert HistoryEntry.objects.filter(pk=entry.pk).exists()


def test_the_database_protects_a_competitions_rounds(played_game):
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        played_game.round.competition.delete()


def test_settings_changed_in_the_admin_are_kept(admin_client, admin_user, competition):
    data = {
        **competition_form_data(name=competition.name, slug=competition.slug, min_games=5),
        "tiebreaks": '["spread"]',
    }
    response = admin_client.post(admin_url(Competition, "change", competition.pk), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    entry = HistoryEntry.objects.get(action=HistoryAction.COMPETITION_SETTINGS)
    assert (entry.before, entry.after, entry.by) == ({"min_games": 0}, {"min_games": 5}, admin_user)


def test_a_competition_added_in_the_admin_is_kept(admin_client, club):
    data = {**competition_form_data(), "club": club.pk, "tiebreaks": '["spread"]'}
    response = admin_client.post(admin_url(Competition, "add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    created = Competition.objects.get(slug="zomer")
    entry = HistoryEntry.objects.get(action=HistoryAction.COMPETITION_CREATE)
    assert entry.competition_id == created.pk


def test_an_archived_competition_is_read_only_in_the_admin(admin_client, competition):
    from competition.services.competitions import competition_archive

    competition_archive(competition=competition)
    change = admin_url(Competition, "change", competition.pk)
    assert 'name="_save"' not in admin_client.get(change).content.decode()
    assert admin_client.post(change, competition_form_data(name="Anders")).status_code == 403


def test_the_database_keeps_a_rounds_games_whoever_deletes_it():
    from django.db.models.deletion import ProtectedError

    from tests.factories import GameFactory

    game = GameFactory(played=True)
    with pytest.raises(ProtectedError):
        game.round.delete()
    with pytest.raises(ProtectedError):
        game.round.competition.delete()
    assert type(game).objects.filter(pk=game.pk).exists()
