"""What the public may see of a round: one rule, asked by every page, export and download.

A competition with a published round 1 (Anna–Bert 300-290, Cor–Dirk 200-450) and a draft
round 2 (Anna–Dirk, with a result already in, and Bert–Cor). Anna and Dirk meet only in
the draft, so "Dirk" on Anna's pages, or 400-100 anywhere, is a leak. Anonymous visitors,
a plain club member and another club's secretary see nothing of round 2; the club's own
secretary and staff see everything. A draft's pages are a 404 to the others, never a 403.
"""

import re

import pytest
from django.urls import reverse

from competition.models import Round, round_visible_to
from competition.services.rounds import (
    round_create,
    round_record_results,
    round_set_pairings,
    round_set_status,
)
from games.models import Game, game_visible_to
from games.services import ResultEntry, ResultInput, game_record_result
from tests.seats import pair_spec
from tests.spreadsheets import csv_rows

pytestmark = pytest.mark.django_db

OTHERS = ["anonymous", "member", "other_secretary"]
INSIDERS = ["secretary", "staff"]


@pytest.fixture
def draft(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    first = round_create(competition=competition)
    games = round_set_pairings(
        round=first, pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)]
    )
    round_record_results(
        round=first,
        entries=[
            ResultEntry(games[0].pk, ResultInput.of_pair("normal", 300, 290)),
            ResultEntry(games[1].pk, ResultInput.of_pair("normal", 200, 450)),
        ],
        by=None,
    )
    second = round_create(competition=competition)
    draft_games = round_set_pairings(
        round=second, pairings=[pair_spec(anna.pk, dirk.pk, 1), pair_spec(bert.pk, cor.pk, 2)]
    )
    # As a CSV import into a draft round leaves it: a result, the round still a draft.
    game_record_result(
        game=draft_games[0], result=ResultInput.of_pair("normal", 400, 100), by=None, reason=""
    )
    second.refresh_from_db()
    assert second.status == Round.Status.DRAFT
    return draft_games[0]


@pytest.fixture
def viewer(request, client):
    name = request.param
    if name != "anonymous":
        client.force_login(request.getfixturevalue(name))
    return client


def url(name, competition, **kwargs):
    return reverse(name, kwargs={**competition.url_kwargs, **kwargs})


def draft_urls(game):
    competition = game.round.competition
    return {
        "replay": reverse("replay", kwargs={"game_id": game.pk}),
        "gcg": reverse("gcg_download", kwargs={"game_id": game.pk}),
        "round": url("round", competition, number=2),
        "print": url("round_print", competition, number=2),
        "json": url("round_json", competition, number=2),
    }


def public_pages(game, anna):
    competition = game.round.competition
    return {
        "player": url("player", competition, player_id=anna.pk),
        "standings": url("standings", competition),
        "crosstable": url("crosstable", competition),
        "standings_json": url("standings_json", competition),
        "standings_csv": url("standings_csv", competition),
        "club": reverse("club", kwargs={"club": competition.club.slug}),
        "round 1": url("round", competition, number=1),
    }


@pytest.mark.parametrize("viewer", OTHERS, indirect=True)
def test_a_draft_is_a_404_to_others(viewer, draft):
    for name, address in draft_urls(draft).items():
        assert viewer.get(address).status_code == 404, name


@pytest.mark.parametrize("viewer", INSIDERS, indirect=True)
def test_the_clubs_secretaries_see_the_draft(viewer, draft):
    for name, address in draft_urls(draft).items():
        response = viewer.get(address)
        assert response.status_code == 200, name
        assert "Dirk" in response.content.decode(), name


@pytest.mark.parametrize("viewer", OTHERS, indirect=True)
def test_no_page_shows_the_draft_pairing_to_others(viewer, draft, four_entrants):
    anna = four_entrants[0]
    replay = reverse("replay", kwargs={"game_id": draft.pk})
    for name, address in public_pages(draft, anna).items():
        response = viewer.get(address)
        assert response.status_code == 200, name
        body = response.content.decode()
        # The draft's score as any page would show it: a cell, or in "400 – 100" (ids may
        # contain the digits, so the number alone is no evidence).
        assert not re.search(r">\s*400\s*<|400\s*[–-]\s*100", body), name
        assert replay not in body, name
        assert url("round", draft.round.competition, number=2) not in body, name
    player_page = viewer.get(public_pages(draft, anna)["player"]).content.decode()
    assert "Dirk" not in player_page
    club_page = viewer.get(public_pages(draft, anna)["club"]).content.decode()
    assert "1 ronde" in club_page


@pytest.mark.parametrize("viewer", INSIDERS, indirect=True)
def test_the_secretary_sees_the_draft_on_the_player_and_club_pages(viewer, draft, four_entrants):
    pages = public_pages(draft, four_entrants[0])
    assert "Dirk" in viewer.get(pages["player"]).content.decode()
    assert "2 ronden" in viewer.get(pages["club"]).content.decode()
    standings = viewer.get(pages["standings"]).content.decode()
    assert url("round", draft.round.competition, number=2) in standings


@pytest.mark.parametrize("viewer", OTHERS + INSIDERS, indirect=True)
def test_a_draft_rounds_results_do_not_count_for_anyone(viewer, draft, competition):
    rows = viewer.get(url("standings_json", competition)).json()["rows"]
    anna = next(row for row in rows if row["player"] == "Anna")
    assert (anna["games"], anna["match_points"], anna["board_points"]) == (1, 2, 300)
    table = csv_rows(viewer.get(url("standings_csv", competition)).text)
    assert next(row for row in table if row["player"] == "Anna")["board_points"] == "300"
    assert "+400-100" not in viewer.get(url("crosstable", competition)).content.decode()


def test_publishing_shows_the_round_and_counts_its_results(client, draft, competition):
    round_set_status(round=draft.round, status=Round.Status.PUBLISHED)
    assert client.get(reverse("replay", kwargs={"game_id": draft.pk})).status_code == 200
    assert "Dirk" in client.get(url("round", competition, number=2)).content.decode()
    rows = client.get(url("standings_json", competition)).json()["rows"]
    anna = next(row for row in rows if row["player"] == "Anna")
    assert (anna["games"], anna["match_points"], anna["board_points"]) == (2, 4, 700)


@pytest.mark.parametrize("viewer", ["member", "other_secretary"], indirect=True)
def test_the_board_of_a_draft_game_is_a_404_not_a_403(viewer, draft, competition):
    board = reverse("board", kwargs={"game_id": draft.pk})
    assert viewer.get(board).status_code == 404
    published = Game.objects.get(round__number=1, table=1, round__competition=competition)
    assert viewer.get(reverse("board", kwargs={"game_id": published.pk})).status_code == 403


def test_anonymous_visitors_log_in_whether_the_board_exists_or_not(client, draft):
    for game_id in (draft.pk, draft.pk + 1000):
        response = client.get(reverse("board", kwargs={"game_id": game_id}))
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_the_rule_itself(draft, secretary, member, other_secretary, staff):
    from django.contrib.auth.models import AnonymousUser

    round_obj = draft.round
    for user in (AnonymousUser(), member, other_secretary):
        assert not round_visible_to(user, round_obj)
        assert not game_visible_to(user, draft)
        assert not Game.objects.visible_to(user).filter(pk=draft.pk).exists()
        assert not Round.objects.visible_to(user).filter(pk=round_obj.pk).exists()
        assert Round.objects.visible_to(user).filter(number=1).exists()
    for user in (secretary, staff):
        assert round_visible_to(user, round_obj)
        assert game_visible_to(user, draft)
        assert Game.objects.visible_to(user).filter(pk=draft.pk).exists()
        assert Round.objects.visible_to(user).filter(pk=round_obj.pk).exists()
    assert set(Game.objects.published().values_list("round__number", flat=True)) == {1}
    assert list(Round.objects.published().values_list("number", flat=True)) == [1]


def test_the_pairing_of_the_next_round_does_not_count_the_draft_either(draft, competition):
    from pairing.services import pairing_input

    third = round_create(competition=competition)
    records = pairing_input(third, standings_round=2).groups[""]
    anna = next(record for record in records if record.id == draft.players[0].pk)
    assert (anna.match_points, anna.board_points) == (2, 300)
    # The draft's pairing still counts as a meeting, so it is not repeated.
    assert draft.players[1].pk in {game.opponent_id for game in anna.opponents}
