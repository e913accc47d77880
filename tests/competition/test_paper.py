"""Paper for the club evening: a QR code per table on the pairing list and on each
scoresheet, opening that game's page; the scoresheets themselves; who may print them."""

import datetime
import re

import pytest
import segno
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.core.scoresheets import OPEN_ENDED_ROWS, sheet_layout
from competition.models import Competition, Round
from competition.qr import qr_code, qr_svg
from competition.services.rounds import round_set_pairings
from tests.factories import competition_with_results
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


def qr_paths(html: str) -> list[str]:
    """The drawn modules of every QR code on the page: segno draws one path per code."""
    return re.findall(r'<svg viewBox="[\d ]+" class="qr">.*?<path stroke="#000" d="([^"]+)"', html)


def expected_path(url: str) -> str:
    """The same code built by segno itself from the URL we expect."""
    return re.search(r' d="([^"]+)"', qr_code(url).svg_inline(scale=1, omitsize=True)).group(1)


@pytest.fixture
def evening(competition, four_entrants):
    """Round 1 published on 1 December: table 1 Anna–Bert (Bert starts), table 2 Cor–Dirk
    (by lot, not yet drawn)."""
    anna, bert, cor, dirk = four_entrants
    round_obj = Round.objects.create(
        competition=competition,
        number=1,
        status=Round.Status.PUBLISHED,
        date=datetime.date(2026, 12, 1),
    )
    games = round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1, starter="b"), pair_spec(cor.pk, dirk.pk, 2)],
    )
    return round_obj, games


def url(name: str, round_obj: Round) -> str:
    return reverse(name, kwargs={**round_obj.competition.url_kwargs, "number": round_obj.number})


# -- the QR code -----------------------------------------------------------------------


def test_a_qr_svg_is_a_scalable_path_with_an_escaped_title():
    svg = qr_svg("https://bordpunt.example/partij/7/", title="Tafel <3> & meer")
    assert svg.startswith('<svg viewBox="0 0 ') and 'class="qr"' in svg
    assert "width=" not in svg and "style=" not in svg
    assert "<title>Tafel &lt;3&gt; &amp; meer</title>" in svg
    assert qr_paths(svg) == [expected_path("https://bordpunt.example/partij/7/")]


def test_never_a_micro_qr_which_phones_do_not_read():
    assert not qr_code("1").is_micro
    assert segno.make("1").is_micro  # what segno would choose by itself


def test_the_pairing_list_has_a_code_per_table_opening_its_game(client, evening):
    round_obj, (first, second) = evening
    html = client.get(url("round_print", round_obj)).content.decode()
    assert qr_paths(html) == [
        expected_path(f"http://testserver/partij/{first.pk}/"),
        expected_path(f"http://testserver/partij/{second.pk}/"),
    ]
    assert "Tafel 1: scan om deze partij te openen" in html


def test_the_code_follows_the_host_the_list_is_printed_from(client, evening, settings):
    settings.ALLOWED_HOSTS = ["clubhuis.local"]
    round_obj, (first, _second) = evening
    html = client.get(url("round_print", round_obj), HTTP_HOST="clubhuis.local").content.decode()
    assert qr_paths(html)[0] == expected_path(f"http://clubhuis.local/partij/{first.pk}/")
    assert qr_paths(html)[0] != expected_path(f"http://testserver/partij/{first.pk}/")


def test_a_bye_gets_no_code(client, competition, four_entrants):
    anna, bert, cor, _dirk = four_entrants
    round_obj = Round.objects.create(competition=competition, number=1, status="published")
    round_set_pairings(
        round=round_obj, pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, None)]
    )
    assert len(qr_paths(client.get(url("round_print", round_obj)).content.decode())) == 1
    sheets = client.get(url("round_scoresheets", round_obj)).content.decode()
    assert sheets.count('class="sheet ') == 1


# -- the scoresheets -------------------------------------------------------------------


def test_gouds_8_has_eight_numbered_turns_and_fits_half_a_page():
    layout = sheet_layout(turn_limit=8, clock_minutes=25)
    assert list(layout.turns) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert layout.half_page


def test_without_a_turn_limit_the_sheet_is_long():
    layout = sheet_layout(turn_limit=None, clock_minutes=None)
    assert len(layout.turns) == OPEN_ENDED_ROWS > 8
    assert not layout.half_page


def sheets_of(html: str) -> list[str]:
    return re.findall(r'<section class="sheet .*?</section>', html, re.S)


def test_a_gouds_8_sheet_per_table_with_all_it_needs(client, evening):
    round_obj, (first, second) = evening
    response = client.get(url("round_scoresheets", round_obj))
    assert response.status_code == 200
    first_sheet, second_sheet = sheets_of(response.content.decode())
    for sheet in (first_sheet, second_sheet):
        assert "De Goudse Letters · Clubcompetitie" in sheet
        assert "Ronde 1 · Tafel" in sheet
        assert "Datum: 1 december 2026" in sheet
        assert "Gouds 8 · 8 beurten per speler · 25 minuten per speler" in sheet
        assert sheet.count('<th class="col-word">Woord</th>') == 2  # one table per player
        assert sheet.count('<td class="col-turn">') == 2 * 8
        assert re.findall(r'<td class="col-turn">(\d+)</td>', sheet)[:8] == list("12345678")
        assert "Punten" in sheet and "Totaal" in sheet
        assert sheet.count("Gebruikte tijd") == 2 and sheet.count("Handtekening") == 2
        assert "sheet-half" in sheet
    assert 'data-table="1"' in first_sheet and "Tafel <strong>1</strong>" in first_sheet
    assert "Anna" in first_sheet and "Bert" in first_sheet
    assert "Begint: <strong>Bert</strong>" in first_sheet
    # Table 2 is drawn by lot at the table: the sheet asks to tick who starts.
    assert "Wie begint (loting)? Kruis aan: ☐ Cor" in second_sheet
    assert qr_paths(first_sheet) == [expected_path(f"http://testserver/partij/{first.pk}/")]
    assert qr_paths(second_sheet) == [expected_path(f"http://testserver/partij/{second.pk}/")]


def test_the_standard_rules_get_a_sheet_without_the_turn_limit(client, evening):
    round_obj, games = evening
    standard = Competition.Rules.STANDARD
    Competition.objects.filter(pk=round_obj.competition_id).update(rules=standard)
    for game in games:  # the rule set is the game's own, kept from its pairing
        game.rules = {"name": "standard"}
        game.save(update_fields=["rules"])
    html = client.get(url("round_scoresheets", round_obj)).content.decode()
    sheet = sheets_of(html)[0]
    assert "beurten per speler" not in sheet and "minuten per speler" not in sheet
    assert sheet.count('<td class="col-turn">') == 2 * OPEN_ENDED_ROWS
    assert "sheet-full" in sheet
    assert '<div class="sheet-rules">standaardregels</div>' in sheet


def test_a_round_without_games_says_so(client, competition):
    round_obj = Round.objects.create(competition=competition, number=1, status="published")
    html = client.get(url("round_scoresheets", round_obj)).content.decode()
    assert "Deze ronde heeft nog geen tafels om te spelen." in html
    assert "data-print" not in html


def test_the_round_page_links_to_the_scoresheets(client, evening):
    round_obj, _games = evening
    html = client.get(url("round", round_obj)).content.decode()
    assert f'href="{url("round_scoresheets", round_obj)}">Scoreformulieren afdrukken' in html


# -- who may print them ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["round_print", "round_scoresheets"])
def test_a_draft_round_is_its_secretaries_alone(
    client, evening, secretary, member, other_secretary, name
):
    round_obj, _games = evening
    Round.objects.filter(pk=round_obj.pk).update(status=Round.Status.DRAFT)
    assert client.get(url(name, round_obj)).status_code == 404
    for user in (member, other_secretary):
        client.force_login(user)
        assert client.get(url(name, round_obj)).status_code == 404
    client.force_login(secretary)
    response = client.get(url(name, round_obj))
    assert response.status_code == 200
    assert len(qr_paths(response.content.decode())) == 2


def test_the_scoresheets_cost_the_same_queries_for_4_and_30_tables(
    client, django_assert_num_queries
):
    small = competition_with_results(entrants=8, rounds=2)
    large = competition_with_results(entrants=60, rounds=2)

    def sheets_url(played) -> str:
        return reverse("round_scoresheets", kwargs={**played.competition.url_kwargs, "number": 2})

    with CaptureQueriesContext(connection) as small_queries:
        assert client.get(sheets_url(small)).status_code == 200
    assert len(small_queries) <= 6
    with django_assert_num_queries(len(small_queries)):
        response = client.get(sheets_url(large))
    assert len(sheets_of(response.content.decode())) == 30


def test_an_unchanged_round_answers_304(client, evening, django_assert_num_queries):
    round_obj, _games = evening
    client.get(url("round_scoresheets", round_obj))  # sets the CSRF cookie
    etag = client.get(url("round_scoresheets", round_obj))["ETag"]
    with django_assert_num_queries(1):
        again = client.get(url("round_scoresheets", round_obj), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304


# -- tables of 3 and 4 ---------------------------------------------------------------


@pytest.fixture
def tables_evening(competition):
    """Round 1 under the standard rules, published: table 1 Anna (starts), Bert, Cor, Dirk;
    table 2 Eva, Frank, Gea (by lot); table 3 Hans – Ilse, a pair (Ilse starts)."""
    from games.services import PairingSpec
    from tests.factories import EntrantFactory, PlayerFactory

    Competition.objects.filter(pk=competition.pk).update(rules=Competition.Rules.STANDARD)
    names = ("Anna", "Bert", "Cor", "Dirk", "Eva", "Frank", "Gea", "Hans", "Ilse")
    ids = []
    for name in names:
        player = PlayerFactory(name=name)
        EntrantFactory(competition=competition, player=player)
        ids.append(player.pk)
    round_obj = Round.objects.create(
        competition=competition, number=1, status=Round.Status.PUBLISHED
    )
    standard = {"name": "standard"}
    round_set_pairings(
        round=round_obj,
        pairings=[
            PairingSpec(players=tuple(ids[:4]), table=1, starter=0, rules=standard),
            PairingSpec(players=tuple(ids[4:7]), table=2, rules=standard),
            PairingSpec(players=tuple(ids[7:]), table=3, starter=1, rules=standard),
        ],
    )
    return round_obj


def plain(html: str) -> str:
    """The text of a piece of HTML, its tags dropped and its spaces folded."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_pairing_list_names_every_player_of_a_table(client, tables_evening):
    html = client.get(url("round_print", tables_evening)).content.decode()
    by_table = re.search(r'<table class="table table-sm" id="by-table">.*?</table>', html, re.S)
    by_name = re.search(r'<table class="table table-sm" id="by-name">.*?</table>', html, re.S)
    head = plain(re.search(r"<thead>.*?</thead>", by_table.group(0), re.S).group(0))
    # One column with the table's players, not a pair's player and opponent.
    assert head == "Tafel Spelers QR-code"
    cells = re.sub(r'<td class="qr-cell">.*?</td>', "", by_table.group(0), flags=re.S)
    rows = [plain(row) for row in re.findall(r"<tr>(.*?)</tr>", cells, re.S)[1:]]
    assert rows == ["1 Anna ● – Bert – Cor – Dirk", "2 Eva – Frank – Gea", "3 Hans – Ilse ●"]
    assert plain(re.search(r"<thead>.*?</thead>", by_name.group(0), re.S).group(0)) == (
        "Speler Tafel Tegenstanders"
    )
    assert "Cor 1 Anna ● – Bert – Dirk" in plain(by_name.group(0))


def test_a_pairing_list_of_pairs_keeps_its_columns(client, evening):
    round_obj, _games = evening
    html = client.get(url("round_print", round_obj)).content.decode()
    assert "<th>Speler</th><th>Tegenstander</th>" in html
    assert "Spelers" not in html and "Tegenstanders" not in html


def test_a_table_of_3_or_4_gets_one_sheet_with_a_column_group_per_seat(client, tables_evening):
    html = client.get(url("round_scoresheets", tables_evening)).content.decode()
    four, three, pair = sheets_of(html)
    for sheet, names in (
        (four, ["Anna ●", "Bert", "Cor", "Dirk"]),
        (three, ["Eva", "Frank", "Gea"]),
    ):
        assert 'class="sheet-player"' not in sheet  # no pair's tables side by side
        seats = re.findall(r'<th class="sheet-seat" colspan="3" data-seat="\d">([^<]*)</th>', sheet)
        assert seats == names
        assert sheet.count('<th class="col-word">Woord</th>') == len(names)
        assert sheet.count('<th class="col-points">Punten</th>') == len(names)
        # One row per turn for the whole table, a cell group per player on it.
        assert sheet.count('<td class="col-turn">') == OPEN_ENDED_ROWS + 3  # and 3 footer rows
        assert sheet.count("Gebruikte tijd") == len(names)
        assert sheet.count("Eindscore") == len(names) and sheet.count("Handtekening") == len(names)
    assert "Wie begint (loting)? Kruis aan: ☐ Eva" in three
    # The pair at table 3 keeps its two tables.
    assert pair.count('class="sheet-player"') == 2 and "sheet-table" not in pair
