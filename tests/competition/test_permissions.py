"""Who may use the secretary's pages: the club's secretaries and staff, nobody else."""

import pytest
from django.urls import URLPattern, reverse

from archives import urls as archives_urls
from archives import views as archives_views
from competition import urls as competition_urls
from competition.models import Round
from competition.views import secretary as secretary_views
from events.models import Event
from pairing import urls as pairing_urls
from pairing.views import attendance as attendance_views
from pairing.views import director as director_views
from tests.factories import EntrantFactory, GameFactory, RoundFactory

pytestmark = pytest.mark.django_db

# url name -> (method, extra URL kwargs)
SECRETARY_VIEWS = {
    "competition_create": ("get", {}),
    "event_competition_create": ("get", {}),
    "competition_edit": ("get", {}),
    "competition_archive": ("post", {}),
    "competition_history": ("get", {}),
    "entrants": ("get", {}),
    "entrant_withdraw": ("post", {}),
    "entrant_group": ("post", {}),
    "groups_fill": ("post", {}),
    "round_create": ("post", {}),
    "attendance": ("get", {"number": 1}),
    "round_results": ("get", {"number": 1}),
    "round_pairing": ("get", {"number": 1}),
    "game_correct": ("get", {"game_id": None}),
    "results_import": ("get", {}),
    "results_csv": ("get", {}),
    "club_backup": ("get", {}),
}


def test_every_data_changing_view_is_listed():
    names = {
        pattern.name
        for pattern in [
            *competition_urls.urlpatterns,
            *pairing_urls.urlpatterns,
            *archives_urls.urlpatterns,
        ]
        if isinstance(pattern, URLPattern)
        and getattr(pattern.callback, "__module__", "")
        in {
            secretary_views.__name__,
            director_views.__name__,
            attendance_views.__name__,
            archives_views.__name__,
        }
    }
    assert names == set(SECRETARY_VIEWS)


@pytest.fixture
def game(competition):
    return GameFactory(round=RoundFactory(competition=competition, number=1), played=True)


def view_url(name: str, competition, game) -> str:
    _method, extra = SECRETARY_VIEWS[name]
    if name in {"competition_create", "club_backup"}:
        return reverse(name, kwargs={"club": competition.club.slug})
    if name == "event_competition_create":  # a division of an event the club organises
        event, _ = Event.objects.get_or_create(
            organiser=competition.club, slug="open", defaults={"name": "Open"}
        )
        return reverse(name, kwargs={"club": competition.club.slug, "event": event.slug})
    kwargs = {**competition.url_kwargs, **extra}
    if "game_id" in kwargs:
        kwargs["game_id"] = game.pk
    return reverse(name, kwargs=kwargs)


@pytest.mark.parametrize("who", ["anonymous", "other_secretary", "member", "secretary", "staff"])
@pytest.mark.parametrize("name", SECRETARY_VIEWS)
def test_access(client, request, competition, game, name, who):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    url = view_url(name, competition, game)
    method = SECRETARY_VIEWS[name][0]
    rounds_before = Round.objects.count()

    response = getattr(client, method)(url)

    if who == "anonymous":
        assert response.status_code == 302
        assert response.url.startswith(reverse("login") + "?next=")
        assert Round.objects.count() == rounds_before
    elif who in {"other_secretary", "member"}:
        assert response.status_code == 403
        assert Round.objects.count() == rounds_before
    else:
        assert response.status_code == (302 if method == "post" else 200)


@pytest.mark.parametrize(
    "name",
    ["entrant_withdraw", "entrant_group", "groups_fill", "round_create", "competition_archive"],
)
def test_post_only_views_refuse_get(secretary_client, competition, game, name):
    assert secretary_client.get(view_url(name, competition, game)).status_code == 405


def test_secretary_cannot_reach_another_clubs_game(secretary_client, competition):
    foreign = GameFactory(played=True)
    url = reverse("game_correct", kwargs={**competition.url_kwargs, "game_id": foreign.pk})
    assert secretary_client.get(url).status_code == 404


def test_secretary_cannot_withdraw_another_competitions_entrant(secretary_client, competition):
    foreign = EntrantFactory()
    response = secretary_client.post(
        reverse("entrant_withdraw", kwargs=competition.url_kwargs),
        {"entrant": foreign.pk, "from_round": 2},
    )
    assert response.status_code == 302
    foreign.refresh_from_db()
    assert foreign.withdrawn_from_round is None


def test_secretary_sees_the_management_links(secretary_client, competition, game):
    html = secretary_client.get(reverse("standings", kwargs=competition.url_kwargs)).content
    assert reverse("entrants", kwargs=competition.url_kwargs).encode() in html
    assert reverse("round_create", kwargs=competition.url_kwargs).encode() in html
