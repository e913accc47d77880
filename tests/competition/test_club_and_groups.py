"""The club page's competition filter, and groups made on the entrants page."""

import pytest
from django.urls import reverse

from competition.models import Competition, Group
from competition.services import CompetitionError
from competition.services.entrants import group_create
from tests.factories import CompetitionFactory, PlayerFactory


def test_club_page_filters_competitions_by_kind_and_name(client, club):
    CompetitionFactory(club=club, name="Seizoen 2025", slug="s2025", kind="club")
    CompetitionFactory(club=club, name="Gouds Open", slug="open", kind="tournament")
    url = reverse("club", kwargs={"club": club.slug})
    everything = client.get(url).content.decode()
    assert "Seizoen 2025" in everything and "Gouds Open" in everything
    # The choices left open say so in words, not django-filter's "---------".
    assert ">elke soort</option>" in everything and ">alle spelregels</option>" in everything
    assert "---------" not in everything
    tournaments = client.get(url, {"kind": Competition.Kind.TOURNAMENT}).content.decode()
    assert "Gouds Open" in tournaments and "Seizoen 2025" not in tournaments
    by_name = client.get(url, {"name": "seizoen"}).content.decode()
    assert "Seizoen 2025" in by_name and "Gouds Open" not in by_name


def test_secretary_adds_a_group_and_places_an_entrant_in_it(secretary_client, competition):
    url = reverse("entrants", kwargs=competition.url_kwargs)
    response = secretary_client.post(url, {"group-name": "Hoofdklasse"})
    assert response.status_code == 302
    group = Group.objects.get(competition=competition)
    assert group.name == "Hoofdklasse"
    player = PlayerFactory(name="Ria")
    secretary_client.post(
        url, {"new_player_name": player.name + " Nieuw", "joined_round": 1, "group": group.pk}
    )
    assert competition.entrants.get(player__name="Ria Nieuw").group == group


def test_a_group_name_is_not_used_twice(competition):
    group_create(competition=competition, name="A")
    with pytest.raises(CompetitionError):
        group_create(competition=competition, name=" a ")
    assert competition.groups.count() == 1


ADMIN_MODELS = [
    ("clubs", "club"),
    ("clubs", "player"),
    ("clubs", "membership"),
    ("clubs", "historyentry"),
    ("clubs", "throttle"),
    ("clubs", "submission"),
    ("competition", "competition"),
    ("competition", "group"),
    ("competition", "entrant"),
    ("competition", "round"),
    ("competition", "absence"),
    ("games", "game"),
    ("games", "seat"),
    ("games", "move"),
    ("games", "gameclock"),
    ("events", "season"),
    ("events", "event"),
    ("events", "entry"),
]


@pytest.mark.parametrize(("app", "model"), ADMIN_MODELS)
def test_admin_lists_every_model_with_search(admin_client, app, model):
    response = admin_client.get(reverse(f"admin:{app}_{model}_changelist"), {"q": "x"})
    assert response.status_code == 200
    assert 'id="searchbar"' in response.content.decode()


def test_every_model_is_in_the_admin():
    from django.apps import apps
    from django.contrib import admin

    ours = {
        (model._meta.app_label, model._meta.model_name)
        for app in ("clubs", "competition", "games", "events")
        for model in apps.get_app_config(app).get_models()
    }
    registered = {(model._meta.app_label, model._meta.model_name) for model in admin.site._registry}
    assert ours == set(ADMIN_MODELS)
    assert ours <= registered
