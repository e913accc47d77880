"""The director's pages at tables of 3 and 4 (issue 20): the pairing page explains each
table and swaps players, the round's own table size, the late arrival at a table, the
settings form and its history, the pairing list and the scoresheets; odd input on every
new POST refused in Dutch, never a server error."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from competition.models import Competition
from competition.services.competitions import competition_update
from competition.services.rounds import (
    pairing_version,
    round_create,
    round_record_results,
    round_set_attendance,
    round_set_pairings,
)
from games.models import Game
from games.services import PairingSpec, ResultEntry, ResultInput, ResultKind
from pairing.services import round_pair
from tests.competition.test_query_budget import queries
from tests.factories import EntrantFactory, PlayerFactory, competition_form_data

pytestmark = pytest.mark.django_db

ODD_NUMBERS = ["\xff\xfe", "9" * 40, "٣", "３", "-1", "1.5", "", "0x10"]


def at_tables(competition, size="4", **settings) -> Competition:
    competition_update(
        competition=competition,
        settings={"rules": "standard", "table_size": size, "starters": "assigned", **settings},
    )
    competition.refresh_from_db()
    return competition


def enter(competition, count: int, prefix="Speler") -> list:
    players = [PlayerFactory(name=f"{prefix} {n:02}") for n in range(1, count + 1)]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    return players


def pairing_url(competition, number=1) -> str:
    return reverse("round_pairing", kwargs={**competition.url_kwargs, "number": number})


def shown(round_obj) -> str:
    round_obj.refresh_from_db(fields=["status"])
    return pairing_version(round_obj.status, round_obj.games.values_list("pk", flat=True))


def seats(round_obj) -> list[tuple[int, ...]]:
    return [
        tuple(player.pk for player in game.players)
        for game in round_obj.games.with_seats().order_by("table", "pk")
    ]


# --- the pairing page -------------------------------------------------------------------


def test_the_page_shows_each_table_in_playing_order_with_its_repeats(secretary_client, competition):
    at_tables(competition, size="3")
    players = enter(competition, 6)
    first = round_create(competition=competition)
    round_set_pairings(
        round=first,
        pairings=[
            PairingSpec(tuple(p.pk for p in players[:3]), table=1, starter=0),
            PairingSpec(tuple(p.pk for p in players[3:]), table=2, starter=0),
        ],
    )
    second = round_create(competition=competition)
    round_pair(round=second)  # 6 at tables of 3: two from one table of round 1 must meet
    html = secretary_client.get(pairing_url(competition, 2)).content.decode()
    assert 'id="tables-review"' in html and 'id="review"' not in html
    rows = re.findall(r'<tr data-table="(\d+)"(.*?)</tr>', html, re.S)
    assert [number for number, _row in rows] == ["1", "2"]
    for game, (_number, row) in zip(second.games.with_seats().order_by("table"), rows, strict=True):
        names = re.findall(r'<span class="seat">([^<●]+?)(?: <span|</span>)', row)
        assert names == [player.name for player in game.players]
        starter = game.players[game.starter].name
        assert re.search(rf'{starter} <span class="starts"', row)
    # Dutch: two players of one table of round 1 sit together again, named with the round.
    assert "speelden al eens tegen elkaar, ronde 1" in html
    assert "Spelers, in speelvolgorde" in html


def test_pairs_keep_their_page(secretary_client, competition):
    enter(competition, 4)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj)
    html = secretary_client.get(pairing_url(competition)).content.decode()
    assert 'id="review"' in html and 'id="tables-review"' not in html


def test_the_page_costs_the_same_for_2_and_5_tables(secretary_client, club):
    from tests.factories import CompetitionFactory

    counts = []
    for count, slug in ((8, "klein"), (20, "groot")):
        competition = at_tables(CompetitionFactory(club=club, slug=slug))
        enter(competition, count, prefix=slug)
        round_pair(round=round_create(competition=competition))
        second = round_create(competition=competition)
        round_pair(round=second)
        cache.clear()
        counts.append(queries(secretary_client, pairing_url(competition, 2)))
    assert len(counts[0]) == len(counts[1]), counts[1]


def test_generating_with_the_rounds_own_table_size(secretary_client, competition):
    competition_update(competition=competition, settings={"rules": "standard"})
    enter(competition, 8)
    round_obj = round_create(competition=competition)
    response = secretary_client.post(
        pairing_url(competition),
        {
            "action": "generate",
            "system": "swiss",
            "table_size": "fours",
            "pairing": shown(round_obj),
        },
    )
    assert response.status_code == 302
    round_obj.refresh_from_db()
    assert round_obj.table_size == "fours"
    assert [len(table) for table in seats(round_obj)] == [4, 4]
    page = secretary_client.get(pairing_url(competition)).content.decode()
    assert 'value="fours" selected' in page


@pytest.mark.parametrize("value", ["5", "٤", "9" * 40, "\x00", "\xff\xfe", "fours "])
def test_an_odd_table_size_is_refused_in_dutch(secretary_client, competition, value):
    competition_update(competition=competition, settings={"rules": "standard"})
    enter(competition, 8)
    round_obj = round_create(competition=competition)
    response = secretary_client.post(
        pairing_url(competition),
        {"action": "generate", "system": "swiss", "table_size": value, "pairing": shown(round_obj)},
    )
    assert response.status_code == 200
    assert "Selecteer een geldige keuze" in response.content.decode()
    round_obj.refresh_from_db()
    assert (round_obj.table_size, round_obj.games.count()) == ("", 0)


def test_gouds_8_refuses_a_round_at_tables_in_dutch(secretary_client, competition):
    enter(competition, 8)
    round_obj = round_create(competition=competition)
    response = secretary_client.post(
        pairing_url(competition),
        {"action": "generate", "system": "swiss", "table_size": "3", "pairing": shown(round_obj)},
    )
    assert response.status_code == 200
    assert "Deze regels zijn voor hoogstens 2 spelers aan een tafel" in response.content.decode()
    assert Game.objects.filter(round=round_obj).count() == 0


# --- the swap on the page ---------------------------------------------------------------


@pytest.fixture
def paired(competition):
    at_tables(competition)
    players = enter(competition, 9)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj)
    return round_obj, players


def test_the_swap_on_the_page_is_kept_in_the_history(secretary_client, competition, paired):
    round_obj, _players = paired
    first, second = seats(round_obj)[:2]
    response = secretary_client.post(
        pairing_url(competition),
        {
            "action": "swap",
            "player_x": first[0],
            "player_y": second[0],
            "pairing": shown(round_obj),
        },
    )
    assert response.status_code == 302
    after = [set(table) for table in seats(round_obj)]
    assert (set(first) - {first[0]}) | {second[0]} in after
    assert HistoryEntry.objects.filter(action=HistoryAction.PAIRING_SWAP).count() == 1


def test_the_swap_is_refused_in_dutch_once_a_result_is_in(secretary_client, competition, paired):
    round_obj, _players = paired
    before = seats(round_obj)
    game = round_obj.games.get(table=1)
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(game.pk, ResultInput(ResultKind.NORMAL, (300, 200, 100)))],
        by=None,
    )
    response = secretary_client.post(
        pairing_url(competition),
        {
            "action": "swap",
            "player_x": before[0][0],
            "player_y": before[1][0],
            "pairing": shown(round_obj),
        },
        follow=True,
    )
    assert response.status_code == 200
    assert "Een partij met een uitslag kan niet meer veranderen" in response.content.decode()
    assert seats(round_obj) == before
    assert not HistoryEntry.objects.filter(action=HistoryAction.PAIRING_SWAP).exists()


@pytest.mark.parametrize("value", [*ODD_NUMBERS, "stranger"])
def test_odd_swaps_are_refused_and_change_nothing(secretary_client, competition, paired, value):
    round_obj, _players = paired
    if value == "stranger":
        value = str(PlayerFactory().pk)
    before = seats(round_obj)
    response = secretary_client.post(
        pairing_url(competition),
        {
            "action": "swap",
            "player_x": before[0][0],
            "player_y": value,
            "pairing": shown(round_obj),
        },
    )
    assert response.status_code == 200
    assert 'id="swap-errors"' in response.content.decode()
    assert seats(round_obj) == before


# --- a late arrival on the attendance page ----------------------------------------------


@pytest.fixture
def late_evening(competition):
    at_tables(competition, size="3")
    players = enter(competition, 10)
    round_obj = round_create(competition=competition)
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in players[:-1]])
    round_pair(round=round_obj)
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in players])
    return round_obj, players[-1]


def attendance_url(competition) -> str:
    return reverse("attendance", kwargs={**competition.url_kwargs, "number": 1})


def test_a_late_arrival_joins_a_table_on_the_page(secretary_client, competition, late_evening):
    round_obj, late = late_evening
    html = secretary_client.get(attendance_url(competition)).content.decode()
    assert 'value="table-2"' in html and "aan tafel 2 (" in html
    response = secretary_client.post(
        attendance_url(competition),
        {"action": "late", "player": late.pk, "opponent": "table-2", "pairing": shown(round_obj)},
    )
    assert response.status_code == 302
    assert round_obj.games.with_seats().get(table=2).players[-1] == late


@pytest.mark.parametrize(
    "value", ["table-٣", "table-" + "9" * 40, "table-", "table--1", "table-\xff", "table-7"]
)
def test_odd_tables_to_join_are_refused(secretary_client, competition, late_evening, value):
    round_obj, late = late_evening
    before = seats(round_obj)
    response = secretary_client.post(
        attendance_url(competition),
        {"action": "late", "player": late.pk, "opponent": value, "pairing": shown(round_obj)},
        follow=True,
    )
    assert response.status_code == 200
    assert "De indeling of de aanwezigheid is intussen veranderd" in response.content.decode()
    assert seats(round_obj) == before


# --- the settings -----------------------------------------------------------------------


def test_the_settings_form_offers_tables_and_keeps_their_history(
    secretary_client, competition, secretary
):
    url = reverse("competition_edit", kwargs=competition.url_kwargs)
    page = secretary_client.get(url).content.decode()
    assert "zoveel mogelijk tafels van 4, de rest van 3" in page
    assert "Per tegenstander: 2 voor winst" in page
    data = competition_form_data(
        name=competition.name,
        slug=competition.slug,
        rules="standard",
        table_size="fours",
        table_scoring="scaled",
        tiebreak_1="relative_score",
    )
    assert secretary_client.post(url, data).status_code == 302
    competition.refresh_from_db()
    assert (competition.table_size, competition.table_scoring, competition.tiebreaks) == (
        "fours",
        "scaled",
        ["relative_score"],
    )
    entry = HistoryEntry.objects.get(action=HistoryAction.COMPETITION_SETTINGS)
    assert entry.after["table_size"] == "fours"
    assert entry.after["table_scoring"] == "scaled"
    history = reverse("competition_history", kwargs=competition.url_kwargs)
    html = secretary_client.get(history).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    for sentence in (
        "Tafelgrootte: tafels van 2 (één tegen één) → zoveel mogelijk tafels van 4, de rest van 3",
        "Wedstrijdpunten aan een tafel: 2/1/0 tegen elke tegenstander aan de tafel → per tafel, "
        "herleid tot één partij",
        "Tiebreaks: saldo → relatieve score",
    ):
        assert sentence in text


def test_the_settings_form_refuses_tables_gouds_8_cannot_play(secretary_client, competition):
    url = reverse("competition_edit", kwargs=competition.url_kwargs)
    data = competition_form_data(name=competition.name, slug=competition.slug, table_size="4")
    response = secretary_client.post(url, data)
    assert response.status_code == 200
    assert "Deze regels zijn voor hoogstens 2 spelers" in response.content.decode()
    competition.refresh_from_db()
    assert competition.table_size == "2"


def test_duplicate_is_no_kind_of_competition_any_more(secretary_client, competition):
    """A duplicate competition is its own model (docs/duplicate.md): a paired competition
    cannot be made one, so it can never have tables and evenings both."""
    url = reverse("competition_edit", kwargs=competition.url_kwargs)
    kind = competition.kind
    data = competition_form_data(
        name=competition.name,
        slug=competition.slug,
        kind="duplicate",
        rules="standard",
        table_size="fours",
    )
    response = secretary_client.post(url, data)
    assert response.status_code == 200
    assert "Selecteer een geldige keuze" in response.content.decode()
    competition.refresh_from_db()
    assert (competition.kind, competition.table_size) == (kind, "2")


def test_a_form_without_the_table_fields_keeps_them(secretary_client, competition):
    at_tables(competition, size="3", table_scoring="scaled")
    url = reverse("competition_edit", kwargs=competition.url_kwargs)
    data = competition_form_data(name=competition.name, slug=competition.slug, rules="standard")
    del data["table_size"], data["table_scoring"]  # a page rendered before tables
    assert secretary_client.post(url, data).status_code == 302
    competition.refresh_from_db()
    assert (competition.table_size, competition.table_scoring) == ("3", "scaled")


# --- the pairing list and the scoresheets -----------------------------------------------


def test_the_pairing_list_and_one_scoresheet_per_table(secretary_client, competition, paired):
    round_obj, _players = paired
    kwargs = {**competition.url_kwargs, "number": 1}
    printed = secretary_client.get(reverse("round_print", kwargs=kwargs)).content.decode()
    by_table = printed.split('id="by-table"')[1].split("</table>")[0]
    for game in round_obj.games.with_seats():
        row = re.search(rf'<td class="text-end">{game.table}</td>(.*?)</tr>', by_table, re.S)
        assert [p.name for p in game.players] == re.findall(r"(Speler \d\d)", row.group(1))
    sheets = secretary_client.get(reverse("round_scoresheets", kwargs=kwargs)).content.decode()
    found = re.findall(
        r'<section class="sheet[^"]*" data-table="(\d+)">(.*?)</section>', sheets, re.S
    )
    assert [number for number, _sheet in found] == ["1", "2", "3"]
    players = {str(game.table): [p.name for p in game.players] for game in round_obj.games.all()}
    for number, sheet in found:
        # One table on the sheet, a column group per seat, headed by its player.
        assert "sheet-table-3" in sheet
        seats = re.findall(r'<th class="sheet-seat" colspan="3" data-seat="\d">([^<●]+)', sheet)
        assert [name.strip() for name in seats] == players[number]
