"""Every public page runs a fixed number of queries, however many players and rounds.

Each page is measured on a small and a large competition; the counts must be equal and
within the page's budget.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import competition_with_results

pytestmark = pytest.mark.django_db

BUDGET = 12
PAGES = [
    "standings",
    "standings_json",
    "standings_csv",
    "round",
    "round_json",
    "player",
    "crosstable",
]


def page_url(name: str, played) -> str:
    kwargs = dict(played.competition.url_kwargs)
    if name in {"round", "round_json"}:
        kwargs["number"] = 2
    if name == "player":
        kwargs["player_id"] = played.players[1].pk
    return reverse(name, kwargs=kwargs)


def queries(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return [query["sql"] for query in context.captured_queries]


@pytest.fixture
def small_and_large():
    return (
        competition_with_results(entrants=8, rounds=3),
        competition_with_results(entrants=200, rounds=3),
    )


@pytest.mark.parametrize("name", PAGES)
def test_same_queries_for_8_and_200_entrants(
    client, django_assert_num_queries, small_and_large, name
):
    small, large = small_and_large
    count = len(queries(client, page_url(name, small)))
    assert count <= BUDGET
    with django_assert_num_queries(count):
        assert client.get(page_url(name, large)).status_code == 200


@pytest.mark.parametrize("name", ["standings", "standings_json", "crosstable"])
def test_large_standings_show_every_entrant(client, small_and_large, name):
    _small, large = small_and_large
    body = client.get(page_url(name, large)).content.decode()
    assert all(player.name in body for player in large.players)


@pytest.fixture
def short_and_long():
    return (
        competition_with_results(entrants=8, rounds=2),
        competition_with_results(entrants=8, rounds=6),
    )


@pytest.mark.parametrize("name", PAGES)
def test_same_queries_for_2_and_6_rounds(client, short_and_long, name):
    short, long = short_and_long
    short_queries = queries(client, page_url(name, short))
    long_queries = queries(client, page_url(name, long))
    assert len(short_queries) == len(long_queries), long_queries
    assert len(long_queries) <= BUDGET, long_queries


def test_num_queries_fixture_agrees(client, django_assert_max_num_queries, small_and_large):
    _small, large = small_and_large
    with django_assert_max_num_queries(BUDGET):
        client.get(page_url("standings", large))


def _add_competitions(club, count: int) -> None:
    """`count` paired competitions with two rounds and `count` duplicate ones (one archived)."""
    from duplicate.models import DuplicateCompetition

    for number in range(count):
        competition_with_results(entrants=4, rounds=2, club=club)
        DuplicateCompetition.objects.create(
            club=club, name=f"Duplicate {number}", slug=f"dup-{number}"
        )
    DuplicateCompetition.objects.filter(club=club, slug="dup-0").update(archived_at=timezone.now())


@pytest.mark.parametrize("who", ["visitor", "secretary"])
def test_the_club_page_runs_the_same_queries_for_1_and_4_competitions(
    client, club, other_club, secretary, other_secretary, who
):
    """Paired and duplicate competitions listed each in one query, however many."""
    _add_competitions(club, 1)
    _add_competitions(other_club, 4)
    if who == "secretary":
        client.force_login(secretary)
    one = queries(client, reverse("club", kwargs={"club": club.slug}))
    if who == "secretary":
        client.force_login(other_secretary)
    many = queries(client, reverse("club", kwargs={"club": other_club.slug}))
    assert len(one) == len(many), many
    assert len(many) <= BUDGET, many
