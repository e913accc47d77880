"""The home page (what Bordpunt is, the clubs found by name or town, the way to sign up)
and a new club's first steps."""

import pytest
from django.urls import reverse

from clubs.models import ClubStatus
from competition.services.rounds import round_create
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MembershipFactory,
    PlayerFactory,
    secretary_of,
    user_in_club,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    return {
        "gouda": ClubFactory(name="De Goudse Letters", slug="gouda", city="Gouda"),
        "leiden": ClubFactory(name="Woordzoekers", slug="leiden", city="Leiden"),
        "gent": ClubFactory(
            name="Gentse Scrabblers", slug="gent", city="Gent", status=ClubStatus.SUSPENDED
        ),
        "new": ClubFactory(name="Nog Niet", slug="nieuw", city="Gouda", status=ClubStatus.PENDING),
    }


def listed(response) -> list[str]:
    return [club.slug for club in response.context["clubs"]]


def test_the_home_page_lists_active_and_suspended_clubs_never_pending(
    client, clubs, django_assert_num_queries
):
    with django_assert_num_queries(1):
        response = client.get(reverse("home"))
    assert listed(response) == ["gouda", "gent", "leiden"]
    html = response.content.decode()
    assert "Nog Niet" not in html
    assert f'href="{reverse("signup")}"' in html
    assert "opgeschort" in html


@pytest.mark.parametrize(
    "query, found",
    [
        ("gouda", ["gouda"]),  # the town, and the name; never the pending club of Gouda
        ("LETTERS", ["gouda"]),
        ("Leid", ["leiden"]),
        ("scrabblers", ["gent"]),
        ("Αθήνα", []),
        ("x" * 10_000, ["gouda", "gent", "leiden"]),  # too long: the search is ignored
        ("", ["gouda", "gent", "leiden"]),
    ],
)
def test_clubs_are_found_by_name_or_town(client, clubs, query, found):
    response = client.get(reverse("home"), {"q": query})
    assert response.status_code == 200
    assert listed(response) == found


def test_nothing_found_says_so(client, clubs):
    response = client.get(reverse("home"), {"q": "Maastricht"})
    assert "Geen club gevonden" in response.content.decode()


def test_first_steps_are_ticked_when_done(client, django_assert_num_queries):
    club = ClubFactory(slug="nieuw", name="Nieuwe Club")
    client.force_login(secretary_of(club))
    url = reverse("first_steps", kwargs={"club": club.slug})

    def done() -> dict[str, bool]:
        return {step["id"]: step["done"] for step in client.get(url).context["steps"]}

    assert done() == {"competition": False, "players": False, "round": False}
    competition = CompetitionFactory(club=club)
    MembershipFactory(club=club, player=PlayerFactory())
    assert done() == {"competition": True, "players": True, "round": False}
    page = client.get(url).content.decode()
    assert reverse("round_create", kwargs=competition.url_kwargs) in page
    round_create(competition=competition)
    assert done()["round"] is True
    with django_assert_num_queries(8):  # session, user, club, secretary, 4 counts
        client.get(url)


def test_first_steps_are_the_secretarys(client):
    club = ClubFactory(slug="nieuw")
    assert client.get(reverse("first_steps", kwargs={"club": "nieuw"})).status_code == 302
    client.force_login(user_in_club(club))
    assert client.get(reverse("first_steps", kwargs={"club": "nieuw"})).status_code == 403
