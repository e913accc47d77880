"""The secretary's pages run a fixed number of queries, however many players and rounds.

Measured like the public pages (test_query_budget.py): a small and a large competition of
the same club, the counts equal and within the page's budget.
"""

import pytest
from django.core.cache import cache
from django.urls import reverse

from competition.services.rounds import round_create
from pairing.services import round_pair
from tests.competition.test_query_budget import queries
from tests.factories import competition_with_results

pytestmark = pytest.mark.django_db

BUDGET = 15
#: The pairing page also reads the club's ratings ("kans op winst"): the version, and with a
#: cold cache the rounds and the rated games (competition/ratings.py). A game's players are
#: its seats: the round's tables (read twice) cost a query of seats each, the standings'
#: records read games, seats and the unconfirmed count apart (+2), whatever the number of
#: games. With every cache empty the club's status is read too (hosting.middleware, +1).
BUDGETS = {"round_pairing": BUDGET + 3 + 4 + 1}
PAGES = ["round_pairing", "round_results", "entrants", "attendance", "competition_edit"]


def cold(client, url: str) -> list[str]:
    """The queries of a visit with empty caches: the club's ratings (on the pairing page)
    are cached per club, and both competitions here are of one club."""
    cache.clear()
    return queries(client, url)


def page_url(name: str, played) -> str:
    kwargs = dict(played.competition.url_kwargs)
    if name in {"round_pairing", "round_results", "attendance"}:
        kwargs["number"] = played.rounds[-1].number
    return reverse(name, kwargs=kwargs)


@pytest.fixture
def small_and_large(club):
    return (
        competition_with_results(entrants=8, rounds=3, club=club),
        competition_with_results(entrants=120, rounds=3, club=club),
    )


@pytest.fixture
def short_and_long(club):
    return (
        competition_with_results(entrants=8, rounds=2, club=club),
        competition_with_results(entrants=8, rounds=6, club=club),
    )


@pytest.mark.parametrize("name", PAGES)
def test_same_queries_for_8_and_120_entrants(secretary_client, small_and_large, name):
    small, large = small_and_large
    small_queries = cold(secretary_client, page_url(name, small))
    large_queries = cold(secretary_client, page_url(name, large))
    assert len(small_queries) == len(large_queries), large_queries
    assert len(large_queries) <= BUDGETS.get(name, BUDGET), large_queries


@pytest.mark.parametrize("name", PAGES)
def test_same_queries_for_2_and_6_rounds(secretary_client, short_and_long, name):
    short, long = short_and_long
    short_queries = cold(secretary_client, page_url(name, short))
    long_queries = cold(secretary_client, page_url(name, long))
    assert len(short_queries) == len(long_queries), long_queries
    assert len(long_queries) <= BUDGETS.get(name, BUDGET), long_queries


@pytest.mark.parametrize("name", ["round_pairing", "round_results", "attendance"])
def test_a_fresh_draft_pairing_costs_the_same_for_8_and_120_entrants(
    secretary_client, small_and_large, name
):
    counts = []
    for played in small_and_large:
        draft = round_create(competition=played.competition)
        round_pair(round=draft, system="swiss", standings_round=None, seed=1)
        kwargs = {**played.competition.url_kwargs, "number": draft.number}
        counts.append(len(cold(secretary_client, reverse(name, kwargs=kwargs))))
    assert counts[0] == counts[1] <= BUDGETS.get(name, BUDGET), counts
