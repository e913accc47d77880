"""Public pages, JSON and CSV: no login, right figures, sortable, readable on a phone."""

import html as html_lib
import re

import pytest
from django.urls import reverse

from competition.models import TIEBREAK_CHOICES
from competition.services.rounds import round_create, round_set_pairings
from competition.tables import SHORT_TIEBREAK_LABELS, TIEBREAK_LABELS
from games.models import Game
from games.services import ResultInput, game_record_result
from tests.factories import PlayerFactory
from tests.seats import pair_spec, seated
from tests.spreadsheets import csv_lines, csv_rows, dutch_number

pytestmark = pytest.mark.django_db


def url(name, competition, **kwargs):
    return reverse(name, kwargs={**competition.url_kwargs, **kwargs})


def standings_order(html: str) -> list[int]:
    return [int(player_id) for player_id in re.findall(r'data-player="(\d+)"', html)]


def json_rows(client, competition, **params):
    response = client.get(url("standings_json", competition), params)
    assert response.status_code == 200
    return response.json()["rows"]


def test_home_and_club_pages(client, competition):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert competition.club.name in response.content.decode()
    response = client.get(reverse("club", kwargs={"club": competition.club.slug}))
    assert response.status_code == 200
    html = response.content.decode()
    assert competition.name in html
    assert url("standings", competition) in html
    assert reverse("competition_create", kwargs={"club": competition.club.slug}) not in html


def test_standings_page(client, competition, two_rounds):
    anna, bert, cor, dirk = two_rounds
    response = client.get(url("standings", competition))
    assert response.status_code == 200
    assert standings_order(response.content.decode()) == [anna.pk, bert.pk, dirk.pk, cor.pk]
    response = client.get(url("standings", competition), {"na": 1})
    assert response.status_code == 200
    assert standings_order(response.content.decode()) == [dirk.pk, anna.pk, bert.pk, cor.pk]
    # Nonsense in ?na= shows the current standings.
    response = client.get(url("standings", competition), {"na": "x"})
    assert standings_order(response.content.decode()) == [anna.pk, bert.pk, dirk.pk, cor.pk]


@pytest.mark.parametrize("tiebreak", [key for key, _label in TIEBREAK_CHOICES])
def test_every_tiebreak_the_settings_offer_shows_on_the_standings(
    client, competition, two_rounds, tiebreak
):
    """Each tiebreak of the settings form has its column (short label, long label as
    title) on the standings page, and its value in the JSON and the CSV."""
    competition.tiebreaks = [tiebreak]
    competition.save()
    html = client.get(url("standings", competition)).content.decode()
    if tiebreak != "spread":  # spread has its own column
        assert f'title="{html_lib.escape(str(TIEBREAK_LABELS[tiebreak]))}"' in html
        assert str(SHORT_TIEBREAK_LABELS[tiebreak]) in html
    rows = json_rows(client, competition)
    assert all(tiebreak in row["tiebreaks"] for row in rows)
    response = client.get(url("standings_csv", competition))
    table = csv_rows(response.content.decode())
    if tiebreak == "spread":
        assert [int(row["spread"]) for row in table] == [row["spread"] for row in rows]
    else:
        column = f"tiebreak_{tiebreak}"
        assert [dutch_number(row[column]) for row in table] == [
            row["tiebreaks"][tiebreak] for row in rows
        ]


def test_standings_table_is_sortable(client, competition, two_rounds):
    anna, bert, cor, dirk = two_rounds
    response = client.get(url("standings", competition), {"g0-sort": "-board_points"})
    assert standings_order(response.content.decode()) == [bert.pk, dirk.pk, anna.pk, cor.pk]
    response = client.get(url("standings", competition), {"g0-sort": "board_points"})
    assert standings_order(response.content.decode()) == [cor.pk, anna.pk, dirk.pk, bert.pk]


def test_standings_json(client, competition, two_rounds):
    anna, bert, cor, dirk = two_rounds
    response = client.get(url("standings_json", competition))
    assert response["Access-Control-Allow-Origin"] == "*"
    document = response.json()
    assert document["after_round"] == 2
    keys = ("rank", "player", "player_id", "games", "match_points", "board_points")
    table = [tuple(row[key] for key in keys) for row in document["rows"]]
    assert table == [
        (1, "Anna", anna.pk, 2, 4, 560),
        (2, "Bert", bert.pk, 2, 2, 790),
        (3, "Dirk", dirk.pk, 2, 2, 750),
        (4, "Cor", cor.pk, 2, 0, 450),
    ]
    after_one = json_rows(client, competition, na=1)
    assert [(row["player"], row["match_points"], row["board_points"]) for row in after_one] == [
        ("Dirk", 2, 450),
        ("Anna", 2, 300),
        ("Bert", 0, 290),
        ("Cor", 0, 200),
    ]


def test_correcting_an_old_round_changes_later_standings(client, competition, two_rounds):
    anna, _bert, _cor, _dirk = two_rounds
    game = seated(Game.objects.filter(round__competition=competition, round__number=1), anna).get()
    game_record_result(
        game=game,
        result=ResultInput.of_pair("normal", 280, 300),
        by=None,
        reason="scores verwisseld",
    )
    rows = {row["player"]: row for row in json_rows(client, competition)}
    assert (rows["Bert"]["rank"], rows["Bert"]["match_points"], rows["Bert"]["board_points"]) == (
        1,
        4,
        800,
    )
    assert (rows["Anna"]["match_points"], rows["Anna"]["board_points"]) == (2, 540)
    after_one = json_rows(client, competition, na=1)
    assert [row["player"] for row in after_one][:2] == ["Dirk", "Bert"]


def test_standings_csv(client, competition, two_rounds):
    response = client.get(url("standings_csv", competition))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    header, *lines = csv_lines(response.content.decode())
    assert header[:3] == ["rank", "player", "player_id"]
    assert {"match_points", "board_points", "spread"} <= set(header)
    assert [row[1] for row in lines] == ["Anna", "Bert", "Dirk", "Cor"]


def test_round_page_and_json(client, competition, two_rounds):
    response = client.get(url("round", competition, number=1))
    assert response.status_code == 200
    html = response.content.decode()
    assert "300 – 290" in html and "200 – 450" in html
    assert url("round_results", competition, number=1) not in html  # not for visitors
    document = client.get(url("round_json", competition, number=2)).json()
    assert document["round"] == 2
    assert document["status"] == "finished"
    assert [
        (g["table"], *((p["name"], p["score"]) for p in g["players"])) for g in document["games"]
    ] == [(1, ("Anna", 260), ("Cor", 250)), (2, ("Bert", 500), ("Dirk", 300))]
    assert [p["place"] for p in document["games"][0]["players"]] == [1, 2]


def test_player_page(client, competition, two_rounds):
    _anna, bert, _cor, _dirk = two_rounds
    response = client.get(url("player", competition, player_id=bert.pk))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Anna" in html and "Dirk" in html
    assert "300 – 290" not in html  # told from Bert's side
    assert "290 – 300" in html and "500 – 300" in html
    # Match points as the standings show them: whole numbers without ",0".
    assert re.search(r'<td class="text-end">2</td>', html) and ",0</td>" not in html
    # A player who is not in this competition has no page here.
    outsider = PlayerFactory()
    assert client.get(url("player", competition, player_id=outsider.pk)).status_code == 404


def test_crosstable_page(client, competition, two_rounds):
    response = client.get(url("crosstable", competition))
    assert response.status_code == 200
    html = response.content.decode()
    assert "+300-290" in html and "−290-300" in html
    assert "+500-300" in html


def test_unknown_pages_are_404(client, competition):
    assert client.get(url("round", competition, number=9)).status_code == 404
    missing = {"club": competition.club.slug, "competition": "bestaat-niet"}
    assert client.get(reverse("standings", kwargs=missing)).status_code == 404
    assert client.get(reverse("standings_json", kwargs=missing)).status_code == 404
    assert client.get(reverse("club", kwargs={"club": "bestaat-niet"})).status_code == 404


def test_readable_on_a_phone(client, competition, two_rounds):
    html = client.get(url("standings", competition)).content.decode()
    assert re.search(r'<meta name="viewport" content="width=device-width, initial-scale=1">', html)
    wrapped = re.search(
        r'<div class="[^"]*\btable-responsive\b[^"]*"([^>]*)>\s*'
        r'<table[^>]*class="[^"]*\bstandings\b',
        html,
    )
    assert wrapped, "the standings table scrolls sideways inside a .table-responsive"
    # A keyboard reaches the scrolling box, and a screen reader names it (axe-core's
    # scrollable-region-focusable).
    assert 'tabindex="0" role="region" aria-label="' in wrapped.group(1)


def test_round_print_page(client, competition, two_rounds):
    response = client.get(url("round_print", competition, number=1))
    assert response.status_code == 200
    html = response.content.decode()
    assert all(player.name in html for player in two_rounds)


def test_a_draft_round_shows_its_pairing_to_the_secretary_only(
    client, secretary, competition, four_entrants
):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    page = url("round", competition, number=1)
    assert url("player", competition, player_id=anna.pk) not in client.get(page).content.decode()
    client.force_login(secretary)
    assert url("player", competition, player_id=anna.pk) in client.get(page).content.decode()


def test_dutch_unless_english_is_chosen(client, competition, two_rounds, settings):
    page = url("standings", competition)
    # The browser's wish does not count: club members all read Dutch.
    response = client.get(page, HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="nl">' in response.content.decode()
    assert "Bordpunten" in response.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(page)
    assert '<html lang="en">' in response.content.decode()
    assert "Board points" in response.content.decode()


@pytest.mark.parametrize("name", ["round_json", "round_print"])
def test_a_draft_pairing_is_not_published_elsewhere(client, competition, four_entrants, name):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    response = client.get(url(name, competition, number=1))
    assert response.status_code in {200, 404}
    assert "Anna" not in response.content.decode()
