"""The club-room screen: tonight's (the latest published) round, its results as they come
in, and the standings; never a draft; a poll of an unchanged competition is a 304."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.models import Round
from competition.screen import ROWS_PER_PANEL, screen_get
from competition.services.rounds import round_create, round_set_pairings
from games.services import ResultInput, game_record_result
from tests.factories import EntrantFactory, PlayerFactory, competition_with_results
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


def screen_url(competition, name: str = "screen") -> str:
    return reverse(name, kwargs=competition.url_kwargs)


@pytest.fixture
def tonight(competition, two_rounds):
    """After two_rounds: round 3 published (Anna–Dirk, Anna starts; Bert–Cor), no results."""
    anna, bert, cor, dirk = two_rounds
    round_obj = round_create(competition=competition)
    games = round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, dirk.pk, 1, starter="a"), pair_spec(bert.pk, cor.pk, 2)],
    )
    Round.objects.filter(pk=round_obj.pk).update(status=Round.Status.PUBLISHED)
    return round_obj, games


def panels(html: str) -> list[str]:
    return [part.split("</section>")[0] for part in html.split('<section class="screen-panel')[1:]]


def test_the_screen_shows_tonights_pairings_results_and_standings(client, competition, tonight):
    response = client.get(screen_url(competition))
    assert response.status_code == 200
    html = response.content.decode()
    pairings, results, standings = panels(html)
    assert "Ronde 3: indeling" in pairings
    assert pairings.index("Anna") < pairings.index("Dirk") < pairings.index("Bert")
    assert 'Anna <span class="starter" title="begint">●</span>' in pairings
    assert "Ronde 3: uitslagen" in results and results.count(">bezig<") == 2
    assert "Stand" in standings
    # After round 2: Anna 4 MP, Bert, Dirk, Cor (tests/conftest.py, two_rounds).
    order = [standings.index(name) for name in ("Anna", "Bert", "Dirk", "Cor")]
    assert order == sorted(order)
    assert 'hx-trigger="every 15s"' in html  # it refreshes itself
    assert "/static/vendor/htmx/htmx.min.js" in html  # from the site itself, never a CDN
    assert "https://" not in html


def test_a_result_appears_on_the_next_poll(client, competition, tonight):
    _round, (anna_dirk, _bert_cor) = tonight
    game_record_result(game=anna_dirk, result=ResultInput.of_pair("normal", 320, 280), by=None)
    _pairings, results, standings = panels(
        client.get(screen_url(competition, "screen_panels")).content.decode()
    )
    assert "320 – 280" in results and results.count(">bezig<") == 1
    assert 'class="winner">Anna' in results
    assert '<td class="num">6</td>' in standings  # Anna now has 6 match points


def test_a_draft_round_never_shows_not_even_to_its_secretary(
    client, competition, tonight, secretary
):
    anna, bert, cor, dirk = (
        EntrantFactory(competition=competition, player=PlayerFactory(name=name)).player
        for name in ("Xaver", "Yvonne", "Zeger", "Wim")
    )
    draft = round_create(competition=competition)
    round_set_pairings(
        round=draft, pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)]
    )
    assert Round.objects.get(pk=draft.pk).status == Round.Status.DRAFT
    for user in (None, secretary):
        if user:
            client.force_login(user)
        for name in ("screen", "screen_panels"):
            html = client.get(screen_url(competition, name)).content.decode()
            assert "Ronde 3: indeling" in html and "Ronde 4" not in html
            pairings, results, standings = panels(html)
            # Entered, so in the standings with no games; never in a pairing or a result.
            assert "Xaver" in standings
            for name in ("Xaver", "Yvonne", "Zeger", "Wim"):
                assert name not in pairings + results


def test_before_the_first_round_the_screen_says_so(client, competition, four_entrants):
    html = client.get(screen_url(competition)).content.decode()
    assert "Nog geen ronde gepubliceerd." in html
    (standings,) = panels(html)
    assert all(name in standings for name in ("Anna", "Bert", "Cor", "Dirk"))


def test_many_tables_are_cut_into_panels_that_keep_their_keys(competition):
    played = competition_with_results(entrants=2 * ROWS_PER_PANEL + 4, rounds=1)
    screen = screen_get(played.competition)
    keys = [panel.key for panel in screen.panels]
    # 14 tables: two pages of pairings and of results; 28 players: three of standings.
    assert keys == [
        "pairings-1", "pairings-2", "results-1", "results-2",
        "standings-0-1", "standings-0-2", "standings-0-3",
    ]  # fmt: skip
    assert [len(panel.rows) for panel in screen.panels[:2]] == [ROWS_PER_PANEL, 2]


def test_an_unchanged_poll_is_a_304_for_one_query(
    client, competition, tonight, django_assert_num_queries
):
    _round, (anna_dirk, _bert_cor) = tonight
    url = screen_url(competition, "screen_panels")
    first = client.get(url)
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    with django_assert_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    game_record_result(game=anna_dirk, result=ResultInput.of_pair("normal", 320, 280), by=None)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "320 – 280" in changed.content.decode()


@pytest.mark.parametrize("name", ["screen", "screen_panels"])
def test_same_queries_for_8_and_200_entrants(client, django_assert_num_queries, name):
    small = competition_with_results(entrants=8, rounds=3)
    large = competition_with_results(entrants=200, rounds=3)
    with CaptureQueriesContext(connection) as small_queries:
        assert client.get(screen_url(small.competition, name)).status_code == 200
    # 6, and the seats (the players) of tonight's tables; the standings' records read the
    # games, their seats and the count of unconfirmed results apart (three queries where
    # one read the two sides' columns), whatever the number of games; and the club's status
    # (hosting.middleware).
    assert len(small_queries) <= 10
    with django_assert_num_queries(len(small_queries)):
        assert client.get(screen_url(large.competition, name)).status_code == 200


def test_an_unknown_competition_is_a_404(client, competition):
    url = reverse("screen", kwargs={"club": competition.club.slug, "competition": "bestaat-niet"})
    assert client.get(url).status_code == 404


def test_the_screens_followers_share_one_rendering_until_the_competition_changes(
    client, competition, tonight, django_assert_num_queries
):
    """Twenty followers of a room's screen each poll it: the first one's page is kept (in
    the cache every app server shares), the others get it for the ETag's one query; the
    next change makes a new one at once."""
    _round, (anna_dirk, _bert_cor) = tonight
    url = screen_url(competition, "screen_panels")
    first = client.get(url)
    assert first.status_code == 200 and not first.cookies
    with django_assert_num_queries(1):
        follower = Client().get(url)
    assert follower.status_code == 200
    assert follower.content == first.content
    assert follower["ETag"] == first["ETag"]
    assert dict(follower.items()) == dict(first.items())  # its CSP and framing rule too
    assert "no-cache" in follower["Cache-Control"]
    assert "frame-ancestors 'none'" in follower["Content-Security-Policy"]
    # The whole screen (a page of its own) likewise.
    screen = client.get(screen_url(competition))
    kept_screen = Client().get(screen_url(competition))
    assert dict(kept_screen.items()) == dict(screen.items())
    assert kept_screen["X-Frame-Options"] == "DENY"
    game_record_result(game=anna_dirk, result=ResultInput.of_pair("normal", 320, 280), by=None)
    changed = Client().get(url)
    assert changed["ETag"] != first["ETag"] and "320 – 280" in changed.content.decode()


def test_a_logged_in_visitor_never_gets_the_kept_page(client, competition, tonight, secretary):
    url = screen_url(competition, "screen_panels")
    Client().get(url)  # kept
    client.force_login(secretary)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    assert len(queries) > 1  # rendered for them, with their session
