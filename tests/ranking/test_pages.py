"""The ranking's pages: seasons, the ranking of persons and of clubs, a person's results,
the officials' settings; their query budgets; and `manage.py ranking`."""

from __future__ import annotations

import csv
import io
import json
from datetime import date

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from clubs.slugs import reserved_competition_slugs
from duplicate.signals import game_complete
from events.models import Season
from tests.factories import ClubFactory, UserFactory
from tests.ranking.fixtures import play_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(interclub, season):
    """Two evenings of the interclub: An wins both, Eva (a guest) is last in both."""
    _event, division, p = interclub
    first = {p["An"]: 500, p["Bert"]: 400, p["Cor"]: 300, p["Dirk"]: 200, p["Eva"]: 100}
    second = {p["An"]: 600, p["Bert"]: 300, p["Cor"]: 500, p["Dirk"]: 400, p["Eva"]: 100}
    for number, points in ((1, first), (2, second)):
        evening = play_evening(division, number, date(2026, 3, 7), points)
        game_complete.send(sender=None, evening=evening)
    Season.objects.filter(pk=season.pk).update(counted_results=1, club_results=2)
    season.refresh_from_db()
    return p


def test_the_ranking_of_persons(client, played, season, django_assert_num_queries):
    # Game 2: median 400 (Dirk), VIW 200: Cor 100 − 100 × 20 / 200 = 90, Bert 80, Eva 50.
    # Best 1 counts: An 100, Bert 90 (game 1), Cor 90 (game 2), Dirk 80, Eva 60.
    url = reverse("ranking_season", args=["ntsv", "2026"]) + "?op=2026-06-01"
    # The season, its games, their results, its interclubs, their clubs' names, the
    # official version, and the club's status (hosting/).
    with django_assert_num_queries(7):
        page = client.get(url)
    text = page.content.decode()
    assert page.status_code == 200
    rows = [(r.rank, played_name) for r, played_name, _club in page.context["rows"]]
    assert rows == [(1, "An"), (2, "Bert"), (2, "Cor"), (4, "Dirk"), (5, "Eva")]
    assert "Letterkoppen" in text and "90,00" in text


def test_the_ranking_of_clubs_by_places(client, played, season, django_assert_num_queries):
    # Two players count. Game 1: An 1, Bert 2, Cor 3, Dirk 4, Eva 5 (a guest: her place is
    # taken, she scores for no club); Letterkoppen 1 + 2 = 3, Woordenaars 3 + 4 = 7. Game 2:
    # An 1, Cor 2, Dirk 3, Bert 4: Letterkoppen 1 + 4 = 5, Woordenaars 2 + 3 = 5 (both club
    # 1). 50 % of 2 games = 1 kept: Letterkoppen 3, Woordenaars 5.
    Season.objects.filter(pk=season.pk).update(club_players=2)
    with django_assert_num_queries(7):
        page = client.get(reverse("ranking_clubs", args=["ntsv", "2026"]) + "?op=2026-06-01")
    rows = page.context["rows"]
    assert [(r.rank, name, r.score, r.results) for r, name, _, _ in rows] == [
        (1, "Letterkoppen", 3.0, 2),
        (2, "Woordenaars", 5.0, 2),
    ]
    assert [(g.points, g.place) for g, _info, _players in rows[1][3]] == [(5, 1)]
    text = page.content.decode()
    assert "An 1, Bert 2" in text and "Laagste eerst" in text


def test_the_ranking_of_clubs_by_average(client, played, season, django_assert_num_queries):
    # Best 2 per club: Letterkoppen An 100 + 100 = 200 / 2 = 100; Woordenaars Cor 90 + 80
    # (Cor's game 1 and Dirk's game 2 are both 80) = 170 / 2 = 85. Eva played for no club.
    Season.objects.filter(pk=season.pk).update(club_method=Season.ClubMethod.AVERAGE)
    with django_assert_num_queries(7):
        page = client.get(reverse("ranking_clubs", args=["ntsv", "2026"]) + "?op=2026-06-01")
    assert [(r.rank, name, r.score) for r, name, _, _ in page.context["rows"]] == [
        (1, "Letterkoppen", 100.0),
        (2, "Woordenaars", 85.0),
    ]


def test_a_persons_counted_and_uncounted_results(client, played, django_assert_num_queries):
    bert = played["Bert"]
    url = reverse("ranking_person", args=["ntsv", "2026", str(bert.pk)]) + "?op=2026-06-01"
    with django_assert_num_queries(7):
        page = client.get(url)
    lines = [(line.result.percentage, line.counted) for line, _game in page.context["lines"]]
    # game 1: 90, counted (best 1); game 2: 100 − 300 × 20 / 200 = 70, not among the best.
    assert lines == [(90.0, True), (70.0, False)]
    assert "niet bij de beste" in page.content.decode()


def test_a_person_without_results_in_the_season_is_not_found(client, played):
    assert client.get(reverse("ranking_person", args=["ntsv", "2026", "999999"])).status_code == 404
    assert client.get(reverse("ranking_person", args=["ntsv", "2026", "nr-x"])).status_code == 404


def test_an_odd_date_is_not_found_and_a_club_has_no_ranking(client, played, clubs):
    # The calendar's first and last days are dates like any other.
    for day in ("0001-01-01", "9999-12-31"):
        url = reverse("ranking_season", args=["ntsv", "2026"]) + f"?op={day}"
        assert client.get(url).status_code == 200
    assert (
        client.get(reverse("ranking_season", args=["ntsv", "2026"]) + "?op=gisteren").status_code
        == 404
    )
    assert client.get(reverse("ranking_seasons", args=[clubs[0].slug])).status_code == 404


def test_an_official_makes_a_season(client, federation, official):
    client.force_login(official)
    data = {
        "name": "Seizoen 2027",
        "slug": "2027",
        "start": "2027-01-01",
        "end": "2027-12-31",
        "gap_value": "21.5",
        "min_games": "3",
        "min_interclub_share": "33",
        "counted_results": "",
        "result_months": "12",
        "share_from_interclubs": "11",
        "club_method": "places",
        "club_results": "10",
        "club_players": "3",
        "club_share": "50",
        "club_missing_points": "500",
    }
    page = client.post(reverse("ranking_seasons", args=["ntsv"]), data)
    assert page.status_code == 302
    season = Season.objects.get(slug="2027")
    assert (season.min_games, season.min_interclub_share, str(season.gap_value)) == (
        3,
        33,
        "21.500",
    )
    assert (
        HistoryEntry.objects.filter(action=HistoryAction.SEASON_CREATE, club=federation).count()
        == 1
    )
    # The same short name again: refused on the form, nothing made.
    again = client.post(reverse("ranking_seasons", args=["ntsv"]), data)
    assert again.status_code == 200 and "al een seizoen" in again.content.decode()
    # An end before the start: refused.
    odd = client.post(
        reverse("ranking_seasons", args=["ntsv"]), {**data, "slug": "x", "end": "2026-01-01"}
    )
    assert odd.status_code == 200
    assert Season.objects.count() == 1


def test_only_officials_make_and_edit_seasons(client, season):
    client.force_login(UserFactory())
    assert client.post(reverse("ranking_seasons", args=["ntsv"]), {"name": "x"}).status_code == 403
    assert client.get(reverse("ranking_season_edit", args=["ntsv", "2026"])).status_code == 403
    client.logout()
    assert client.get(reverse("ranking_season_edit", args=["ntsv", "2026"])).status_code == 302


def test_an_official_edits_the_settings(client, season, official, played):
    client.force_login(official)
    url = reverse("ranking_season_edit", args=["ntsv", "2026"])
    form = client.get(url).context["form"]
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update({"gap_value": "25", "reason": "GV van de AV"})
    assert client.post(url, data).status_code == 302
    entry = HistoryEntry.objects.get(action=HistoryAction.SEASON_SETTINGS)
    assert entry.reason == "GV van de AV"
    # Bad input changes nothing.
    assert client.post(url, {**data, "gap_value": "-3"}).status_code == 200
    season.refresh_from_db()
    assert str(season.gap_value) == "25.000"


def test_the_ranking_is_a_reserved_first_word_under_a_club():
    assert "ranglijst" in reserved_competition_slugs("config.urls")


def test_the_command_prints_json_and_csv(played):
    out = io.StringIO()
    call_command("ranking", "2026", "--on", "2026-06-01", stdout=out)
    data = json.loads(out.getvalue())
    assert (data["season"], data["on"], data["interclubs"]) == ("2026", "2026-06-01", 1)
    assert [(p["rank"], p["name"], p["average"]) for p in data["persons"][:2]] == [
        (1, "An", 100.0),
        (2, "Bert", 90.0),
    ]
    assert [r["status"] for r in data["persons"][1]["results"]] == ["counted", "not_best"]
    out = io.StringIO()
    call_command(
        "ranking",
        "2026",
        "--format",
        "csv",
        "--federation",
        "ntsv",
        "--on",
        "2026-06-01",
        stdout=out,
    )
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == [
        "rank",
        "federation_number",
        "name",
        "club",
        "games",
        "interclubs",
        "counted",
        "average",
    ]
    assert rows[1] == ["1", "N1", "An", "Letterkoppen", "2", "1", "1", "100.0"]


def test_the_command_says_clearly_what_is_wrong(season):
    with pytest.raises(CommandError, match="No season"):
        call_command("ranking", "1999")
    other = ClubFactory(name="SBNL", slug="sbnl", is_federation=True)
    Season.objects.create(
        federation=other, name="2026", slug="2026", start=date(2026, 1, 1), end=date(2026, 12, 31)
    )
    with pytest.raises(CommandError, match="--federation"):
        call_command("ranking", "2026")
    with pytest.raises(CommandError, match="not a date"):
        call_command("ranking", "2026", "--federation", "ntsv", "--on", "morgen")


@pytest.mark.parametrize("model", ["rankedevent", "rankedgame", "rankedresult"])
def test_the_admin_shows_ranked_rows_and_changes_none(client, played, model):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get(reverse(f"admin:ranking_{model}_changelist")).status_code == 200
    assert client.get(reverse(f"admin:ranking_{model}_add")).status_code == 403


def test_a_federations_page_links_to_its_ranking_and_a_clubs_does_not(client, federation, clubs):
    assert reverse("ranking_seasons", args=["ntsv"]) in client.get("/ntsv/").content.decode()
    assert "ranking-link" not in client.get(f"/{clubs[0].slug}/").content.decode()


def test_a_person_is_named_as_now_and_an_erased_one_is_not_named(client, played):
    from django.utils import timezone

    from clubs.models import Player, erased_name

    bert = played["Bert"]
    Player.objects.filter(pk=bert.pk).update(name=erased_name(bert.pk), erased_at=timezone.now())
    page = client.get(reverse("ranking_season", args=["ntsv", "2026"]) + "?op=2026-06-01")
    names = [name for _row, name, _club in page.context["rows"]]
    assert f"#{bert.pk}" in names and "Bert" not in names
