"""Every fraction a page, CSV or chart shows is written the reader's way: a decimal comma
for Dutch readers ("0,798"), a point for English ones ("0.798"); a Dutch CSV is separated
by semicolons, an English one by commas; JSON keeps plain numbers (issue 38)."""

import datetime
import json
import re

import pytest
from django.urls import reverse

from competition.core.charts import Point, chart_svg
from competition.models import Competition
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
)
from tests.spreadsheets import csv_rows

pytestmark = pytest.mark.django_db

# two_rounds: round 1 Anna–Bert 300-290, Cor–Dirk 200-450; round 2 Anna–Cor 260-250,
# Bert–Dirk 500-300. Relative score = the mean of own × 2 / the table's total:
#   Cor:  (400 / 650 + 500 / 510) / 2 = (0.61538 + 0.98039) / 2 = 0.79789
#   Anna: (600 / 590 + 520 / 510) / 2 = (1.01695 + 1.01961) / 2 = 1.01828
# By average per game: Anna 4 MP / 2 = 2.00 and 560 BP / 2 = 280.0; Cor 0.00 and 225.0.


@pytest.fixture
def ranked_by_average(competition, two_rounds):
    competition.ranking = Competition.Ranking.AVERAGE
    competition.tiebreaks = ["relative_score"]
    competition.save()
    return two_rounds


def _cells(html: str, player) -> list[str]:
    row = re.search(rf'<tr data-player="{player.pk}"[^>]*>(.*?)</tr>', html).group(1)
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]


def _standings(client, competition) -> str:
    return client.get(reverse("standings", kwargs=competition.url_kwargs)).content.decode()


def test_the_standings_page_writes_fractions_the_readers_way(
    client, competition, ranked_by_average
):
    anna, _bert, cor, _dirk = ranked_by_average
    # The columns: #, player, G, MP, BP, spread, avg. MP, avg. BP, relative score.
    dutch = _standings(client, competition)
    assert _cells(dutch, cor)[-3:] == ["0,00", "225,0", "0,798"]
    assert _cells(dutch, anna)[-3:] == ["2,00", "280,0", "1,018"]
    client.cookies["django_language"] = "en"
    english = _standings(client, competition)
    assert _cells(english, cor)[-3:] == ["0.00", "225.0", "0.798"]
    assert _cells(english, anna)[-3:] == ["2.00", "280.0", "1.018"]


def test_a_spread_has_its_sign_on_the_standings_and_the_player_page_alike(
    client, competition, two_rounds
):
    """Anna: (300 - 290) + (260 - 250) = +20; Cor: (200 - 450) + (250 - 260) = -260. The
    standings, the player's page (per opponent: +10 twice) and the club screen write a spread
    one way."""
    anna, _bert, cor, _dirk = two_rounds
    page = _standings(client, competition)
    spread = [cell for cell in _cells(page, anna) if cell.lstrip("+-").isdigit()]
    assert "+20" in spread and "20" not in spread
    assert "-260" in _cells(page, cor)
    address = reverse("player_history", args=[competition.club.slug, anna.pk])
    player_page = client.get(address).content.decode()
    assert len(re.findall(r">\+10<", player_page)) == 2


def test_the_standings_csv_has_semicolons_and_decimal_commas_for_a_dutch_reader(
    client, competition, ranked_by_average
):
    url = reverse("standings_csv", kwargs=competition.url_kwargs)
    dutch = client.get(url).content.decode()
    assert dutch.splitlines()[0].startswith("rank;player;player_id;group;games;")
    rows = {row["player"]: row for row in csv_rows(dutch)}
    assert rows["Cor"]["tiebreak_relative_score"].startswith("0,7978883")
    assert rows["Anna"]["match_points"] == "4"  # whole match points without ",0"
    # Cor: 200 + 250 = 450 board points, (200 - 450) + (250 - 260) = -260 spread.
    assert (rows["Cor"]["board_points"], rows["Cor"]["spread"]) == ("450", "-260")

    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()
    assert english.splitlines()[0].startswith("rank,player,player_id,group,games,")
    rows = {row["player"]: row for row in csv_rows(english)}
    assert rows["Cor"]["tiebreak_relative_score"].startswith("0.7978883")


def test_json_keeps_plain_numbers_in_every_language(client, competition, ranked_by_average):
    url = reverse("standings_json", kwargs=competition.url_kwargs)
    for language in ("nl", "en"):
        client.cookies["django_language"] = language
        rows = {row["player"]: row for row in json.loads(client.get(url).content)["rows"]}
        assert rows["Cor"]["tiebreaks"]["relative_score"] == pytest.approx(0.7978883861)
        assert rows["Anna"]["average_board_points"] == 280


def test_a_chart_writes_its_numbers_with_the_readers_separator():
    svg = chart_svg([Point("1", 1.5), Point("2", 2.5)], title="WP", decimal_separator=",")
    assert "<title>1: 1,5</title>" in svg and "<title>2: 2,5</title>" in svg
    # The y axis from 1,4 to 2,6 in steps of 0,2 (1-2-5 spaced: (2.5 - 1.5) / 5 = 0.2).
    assert re.findall(r'text-anchor="end">([^<]*)</text>', svg) == [
        "1,4",
        "1,6",
        "1,8",
        "2",
        "2,2",
        "2,4",
        "2,6",
    ]
    # The coordinates stay numbers for the browser.
    assert re.search(r'cy="\d+\.\d"', svg)
    assert "<title>1: 1.5</title>" in chart_svg([Point("1", 1.5)], title="WP")


def test_the_rating_chart_writes_ratings_the_readers_way(client):
    """A rating after an evening has a decimal (Glicko-2): the chart's values show it with
    the reader's separator."""
    club = ClubFactory(slug="deletter")
    anna, bert, cor = (PlayerFactory(name=name) for name in ("Anna", "Bert", "Cor"))
    for player in (anna, bert, cor):
        MembershipFactory(club=club, player=player)
    competition = CompetitionFactory(club=club)
    for day, (opponent, score_a, score_b) in enumerate([(bert, 400, 300), (cor, 310, 350)], 3):
        GameFactory(
            round=RoundFactory(competition=competition, date=datetime.date(2026, 9, day)),
            player_a=anna,
            player_b=opponent,
            played=True,
            score_a=score_a,
            score_b=score_b,
        )
    url = reverse("rating_history", kwargs={"club": club.slug, "player_id": anna.pk})

    def chart_values(html: str) -> list[str]:
        chart = html[html.index('<svg class="chart"') :]
        return re.findall(r"<title>[^<]*: ([^<]*)</title>", chart[: chart.index("</svg>")])

    client.cookies["django_language"] = "en"
    english = chart_values(client.get(url).content.decode())
    assert len(english) == 2 and all(re.fullmatch(r"\d+(\.\d)?", value) for value in english)
    assert any("." in value for value in english)
    client.cookies["django_language"] = "nl"
    dutch = chart_values(client.get(url).content.decode())
    assert dutch == [value.replace(".", ",") for value in english]
