"""Tables of 3 and 4 in and out of Bordpunt: the results CSV's long form (read, planned,
written all or nothing, refused in Dutch naming the line), the export that writes it and
reads back, and the TSH export's refusal on its page."""

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import HistoryEntry, Player
from competition.core import results_csv
from competition.core.results_csv import CsvError, CsvRefused, TableRow
from competition.models import Competition, Round
from competition.services import CompetitionError
from competition.services.importing import (
    ImportDecisions,
    ImportWouldReplace,
    results_import_apply,
    results_import_plan,
    results_import_read,
)
from competition.services.rounds import round_create, round_set_pairings, round_set_status
from games.models import Game, Outcome, Seat
from games.services import PairingSpec, ResultInput, game_record_result
from tests.competition.test_import_preview import answer
from tests.factories import EntrantFactory, PlayerFactory, result_changes

pytestmark = pytest.mark.django_db

LIMITS = results_csv.Limits(max_name=20, min_score=-999, max_score=9999)
LONG = "round,table,player,score,outcome\n"
EVENING = LONG + (
    "1,1,An,300,normal\n"
    "1,1,Bo,412,\n"
    "1,1,Cas,300,normal\n"
    "1,1,Do,250,flag\n"
    "1,2,Ed,280,normal\n"
    "1,2,Fien,450,flag\n"
    "1,2,Gijs,300,normal\n"
    "2,1,An,,annulled\n"
    "2,1,Ed,,annulled\n"
    "2,1,Bo,,annulled\n"
    "2,2,Cas,,normal\n"
    "2,2,Do,,normal\n"
    "2,2,Fien,,forfeit\n"
    "2,2,Gijs,,normal\n"
)


@pytest.fixture
def standard(competition):
    competition.rules = Competition.Rules.STANDARD
    competition.save()
    return competition


def seats(competition, number):
    games = Game.objects.filter(round__competition=competition, round__number=number)
    return [
        (
            game.outcome,
            [seat.player.name for seat in game.seat_list],
            [seat.score for seat in game.seat_list],
            [seat.place for seat in game.seat_list],
        )
        for game in games.with_seats().order_by("table")
    ]


def apply(competition, text: str, **decisions):
    return results_import_apply(
        competition=competition,
        data=text.encode(),
        decisions=ImportDecisions(create_unknown=True, **decisions),
        by=None,
    )


# --- reading (no database) ----------------------------------------------------------------


def test_the_long_form_is_known_by_its_header_and_groups_rows_into_tables():
    text = LONG.replace(",", ";") + "1;1;An;300;\n1;2;Ed;1;\n1;1;Bo;412;flag\n1;2;Fien;2;\n"
    text += "1;;Gijs;;bye\n1;1;Cas;290;normal\n"
    rows = results_csv.read(text.encode(), limits=LIMITS)
    assert rows == [
        TableRow(2, 1, 1, ("An", "Bo", "Cas"), "flag_b", (300, 412, 290), (2, 4, 7)),
        TableRow(3, 1, 2, ("Ed", "Fien"), "normal", (1, 2), (3, 5)),
        TableRow(6, 1, None, ("Gijs",), "bye", (None,), (6,)),
    ]


@pytest.mark.parametrize(
    ("text", "errors"),
    [
        ("1,1,An,300,\n1,1,An,2,\n", [("player_twice", 3)]),
        ("1,1,An,300,\n", [("table_size", 2)]),
        ("".join(f"1,1,P{n},1,\n" for n in range(5)), [("table_size", 2)]),
        ("1,1,An,,annulled\n1,1,Bo,3,\n", [("annulled_not_everywhere", 2)]),
        ("1,1,An,3,annulled\n1,1,Bo,,annulled\n", [("long_score_not_allowed", 2)]),
        ("1,1,An,,annulled\n1,1,Bo,,\n", [("annulled_not_everywhere", 2)]),
        ("1,1,An,1,flag\n1,1,Bo,2,flag\n", [("every_flag_fell", 2)]),
        ("1,1,An,1,\n1,1,Bo,,\n", [("empty", 3)]),
        ("1,,An,1,\n", [("empty", 2)]),
        ("1,1,An,1,resign\n", [("unknown_outcome", 2)]),
        ("1,1,An,٣٠٠,\n1,1,Bo,1,\n", [("bad_number", 2)]),
        ("1,1,An,99999999999999999999,\n1,1,Bo,1,\n", [("bad_number", 2)]),
        # Cas alone came: he wins by forfeit, nobody played, nobody has a score.
        ("1,1,An,,forfeit\n1,1,Bo,,forfeit\n1,1,Cas,3,\n", [("forfeit_with_scores", 2)]),
        # At a table of 4 the two who came played: each of them has a score.
        ("1,1,An,,forfeit\n1,1,Bo,,forfeit\n1,1,Cas,3,\n1,1,Do,,\n", [("empty", 5)]),
        ("1,1,An,,forfeit\n1,1,Bo,3,\n", [("forfeit_with_scores", 2)]),
        # At a table of 3 the others played without An: each of them has a score.
        ("1,1,An,,forfeit\n1,1,Bo,3,\n1,1,Cas,,\n", [("empty", 4)]),
        ("1,1,An,,forfeit\n1,1,Bo,3,flag\n1,1,Cas,4,\n", [("forfeit_with_scores", 2)]),
        ("1,1,An,,bye\n1,1,Bo,,bye\n", []),  # two byes: two games of one
    ],
)
def test_rows_that_do_not_make_a_table_are_refused_with_their_line(text, errors):
    if not errors:
        assert len(results_csv.read((LONG + text).encode(), limits=LIMITS)) == 2
        return
    with pytest.raises(CsvRefused) as refused:
        results_csv.read((LONG + text).encode(), limits=LIMITS)
    assert [(error.code, error.line) for error in refused.value.errors] == errors


def test_a_table_played_without_who_did_not_come_is_read_with_the_others_scores():
    text = LONG + "1,1,An,300,\n1,1,Bo,,forfeit\n1,1,Cas,280,normal\n1,1,Do,350,\n"
    assert results_csv.read(text.encode(), limits=LIMITS) == [
        TableRow(
            2, 1, 1, ("An", "Bo", "Cas", "Do"), "forfeit_b", (300, None, 280, 350), (2, 3, 4, 5)
        )
    ]


def test_tables_of_3_and_4_with_two_who_did_not_come_are_read():
    text = (
        LONG
        + "1,1,An,300,\n1,1,Bo,,forfeit\n1,1,Cas,,forfeit\n1,1,Do,350,\n"
        + "1,2,Eva,,forfeit\n1,2,Fe,,\n1,2,Gijs,,forfeit\n"
        + "1,3,Hans,,forfeit\n1,3,Ida,,\n1,3,Jan,,forfeit\n1,3,Kees,,forfeit\n"
    )
    assert results_csv.read(text.encode(), limits=LIMITS) == [
        TableRow(
            2, 1, 1, ("An", "Bo", "Cas", "Do"), "forfeit_bc", (300, None, None, 350), (2, 3, 4, 5)
        ),
        TableRow(6, 1, 2, ("Eva", "Fe", "Gijs"), "forfeit_ac", (None,) * 3, (6, 7, 8)),
        TableRow(
            9, 1, 3, ("Hans", "Ida", "Jan", "Kees"), "forfeit_acd", (None,) * 4, (9, 10, 11, 12)
        ),
    ]


def test_a_table_played_without_who_did_not_come_is_exported_and_read_back(
    secretary_client, standard, club
):
    apply(standard, LONG + "1,1,An,300,\n1,1,Bo,,forfeit\n1,1,Cas,280,\n1,1,Do,350,\n")
    assert seats(standard, 1) == [
        (Outcome.NORMAL, ["An", "Bo", "Cas", "Do"], [300, None, 280, 350], [2, None, 3, 1])
    ]
    text = secretary_client.get(reverse("results_csv", kwargs=standard.url_kwargs)).content
    other = Competition.objects.create(
        club=club, name="Kopie", slug="kopie", rules=Competition.Rules.STANDARD
    )
    apply(other, text.decode())
    assert seats(other, 1) == seats(standard, 1)
    # Read again into the same competition: nothing to change.
    plan = results_import_plan(
        competition=standard, rows=results_import_read(data=text), decisions=ImportDecisions()
    )
    assert plan.changes == 0


def test_tables_with_two_who_did_not_come_are_exported_and_read_back(
    secretary_client, standard, club
):
    """At a table of 4 the two who came played each other; at a table of 3 the one who
    came won by forfeit against both: kept as typed, written out and read back."""
    apply(
        standard,
        LONG
        + "1,1,An,300,\n1,1,Bo,,forfeit\n1,1,Cas,,forfeit\n1,1,Do,350,\n"
        + "1,2,Eva,,forfeit\n1,2,Fe,,\n1,2,Gijs,,forfeit\n",
    )
    assert seats(standard, 1) == [
        (Outcome.NORMAL, ["An", "Bo", "Cas", "Do"], [300, None, None, 350], [2, None, None, 1]),
        (Outcome.FORFEIT, ["Eva", "Fe", "Gijs"], [None, None, None], [None, 1, None]),
    ]
    text = secretary_client.get(reverse("results_csv", kwargs=standard.url_kwargs)).content
    other = Competition.objects.create(
        club=club, name="Kopie", slug="kopie", rules=Competition.Rules.STANDARD
    )
    apply(other, text.decode())
    assert seats(other, 1) == seats(standard, 1)


def test_bytes_that_are_no_text_are_refused():
    with pytest.raises(CsvError) as error:
        results_csv.read(LONG.encode() + b"1,1,\xff\xfe,1,\n", limits=LIMITS)
    assert error.value.code == "not_utf8"


# --- planning and writing -----------------------------------------------------------------


def test_an_evening_at_tables_is_imported_with_places_and_history(standard):
    before = HistoryEntry.objects.count()
    summary = apply(standard, EVENING)
    assert (summary.rounds, summary.games, summary.new_players) == (2, 4, 7)
    assert seats(standard, 1) == [
        (Outcome.FLAG_FALL, ["An", "Bo", "Cas", "Do"], [300, 412, 300, 250], [2, 1, 2, 4]),
        (Outcome.FLAG_FALL, ["Ed", "Fien", "Gijs"], [280, 450, 300], [2, 3, 1]),
    ]
    assert seats(standard, 2) == [
        (Outcome.ANNULLED, ["An", "Ed", "Bo"], [None] * 3, [None] * 3),
        (Outcome.FORFEIT, ["Cas", "Do", "Fien", "Gijs"], [None] * 4, [1, 1, None, 1]),
    ]
    assert result_changes(competition_id=standard.pk).count() == 4
    assert HistoryEntry.objects.count() > before
    # The same file again changes nothing.
    assert apply(standard, EVENING).games == 0


def test_a_table_found_in_another_seat_order_keeps_the_games_order(standard):
    players = [PlayerFactory(name=name) for name in ("An", "Bo", "Cas")]
    for player in players:
        EntrantFactory(competition=standard, player=player)
    round_obj = round_create(competition=standard)
    round_set_pairings(
        round=round_obj, pairings=[PairingSpec(players=tuple(p.pk for p in players), table=1)]
    )
    text = LONG + "1,1,Cas,290,\n1,1,An,300,flag\n1,1,Bo,412,\n"
    rows = results_import_read(data=text.encode())
    plan = results_import_plan(competition=standard, rows=rows, decisions=ImportDecisions())
    assert [(game.action, game.result) for game in plan.games] == [
        ("enter", ResultInput("flag_a", (300, 412, 290)))
    ]
    apply(standard, text)
    assert seats(standard, 1) == [
        (Outcome.FLAG_FALL, ["An", "Bo", "Cas"], [300, 412, 290], [3, 1, 2])
    ]
    # A different result replaces only when asked, and says old → new.
    changed = text.replace("Bo,412", "Bo,400")
    with pytest.raises(ImportWouldReplace) as refused:
        apply(standard, changed)
    assert "300 – 412 – 290" in str(refused.value.errors[0])
    assert "300 – 400 – 290" in str(refused.value.errors[0])
    apply(standard, changed, replace=True)
    assert seats(standard, 1)[0][2] == [300, 400, 290]


def test_a_table_of_4_in_a_gouds_8_competition_is_refused(competition):
    assert competition.rules == Competition.Rules.GOUDS_8
    before = (Game.objects.count(), Player.objects.count(), Round.objects.count())
    with pytest.raises(CompetitionError) as refused:
        apply(competition, EVENING)
    assert "Regel 2: Gouds 8 speel je met hoogstens 2 spelers aan een tafel." in [
        str(error) for error in refused.value.errors
    ]
    assert (Game.objects.count(), Player.objects.count(), Round.objects.count()) == before


def test_a_player_twice_in_a_round_refuses_the_whole_file(standard):
    text = EVENING + "1,3,An,100,\n1,3,Hans,200,\n"
    before = (Game.objects.count(), Seat.objects.count(), Player.objects.count())
    with pytest.raises(CompetitionError) as refused:
        apply(standard, text)
    assert any("An speelt al in ronde 1" in str(error) for error in refused.value.errors)
    assert (Game.objects.count(), Seat.objects.count(), Player.objects.count()) == before


def test_the_upload_page_previews_a_table_and_confirms_it(secretary_client, standard):
    url = reverse("results_import", kwargs=standard.url_kwargs)
    file = SimpleUploadedFile("uitslagen.csv", EVENING.encode(), content_type="text/csv")
    response = secretary_client.post(url, {"file": file})
    html = response.content.decode()
    assert response.status_code == 200 and "Er is nog niets opgeslagen." in html
    assert "An – Bo – Cas – Do" in html
    assert "300 – 412 – 300 – 250 (vlag gevallen: Do)" in html
    assert Game.objects.count() == 0
    response = answer(secretary_client, standard, html, "confirm")
    assert response.status_code == 302
    assert len(seats(standard, 1)) == 2


def test_the_upload_page_names_the_line_in_dutch(secretary_client, standard):
    url = reverse("results_import", kwargs=standard.url_kwargs)
    text = LONG + "1,1,An,,annulled\n1,1,Bo,,\n"
    file = SimpleUploadedFile("uitslagen.csv", text.encode(), content_type="text/csv")
    html = secretary_client.post(url, {"file": file}).content.decode()
    assert "Regel 2: ronde 1, tafel 1: bij een niet naar behoren gespeelde partij" in html
    assert Game.objects.count() == 0


# --- the export ---------------------------------------------------------------------------


def test_the_export_writes_the_long_form_and_the_import_reads_it_back(
    secretary_client, standard, club
):
    apply(standard, EVENING)
    # A pair and a bye as well.
    round_obj = round_create(competition=standard)
    players = {p.name: p for p in Player.objects.all()}
    round_set_pairings(
        round=round_obj,
        pairings=[
            PairingSpec(players=(players["An"].pk, players["Bo"].pk), table=1),
            PairingSpec(players=(players["Cas"].pk,)),
        ],
    )
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED, by=None)
    pair = round_obj.games.get(table=1)
    game_record_result(game=pair, result=ResultInput.of_pair("flag_b", 300, 350), by=None)
    response = secretary_client.get(reverse("results_csv", kwargs=standard.url_kwargs))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode()
    lines = text.splitlines()
    # Semicolons for a Dutch reader's spreadsheet; the import reads them back.
    assert lines[0] == "round;table;player;score;outcome"
    assert "1;1;Do;250;flag" in lines and "2;1;An;;annulled" in lines
    assert "2;2;Fien;;forfeit" in lines and "3;1;Bo;350;flag" in lines and "3;;Cas;;bye" in lines
    # Into a fresh competition: the same games, seats and places.
    other = Competition.objects.create(
        club=club, name="Kopie", slug="kopie", rules=Competition.Rules.STANDARD
    )
    apply(other, text)
    for number in (1, 2, 3):
        assert seats(other, number) == seats(standard, number)


def test_names_the_export_guards_against_formulas_read_back_as_the_same_players(
    secretary_client, standard
):
    guarded = ["=An", "+Bo", "-Cas", "@Do"]
    apply(
        standard, LONG + "".join(f"1,1,{name},{300 + i},normal\n" for i, name in enumerate(guarded))
    )
    players = Player.objects.count()
    text = secretary_client.get(reverse("results_csv", kwargs=standard.url_kwargs)).content
    # The spreadsheet shows each as text (an apostrophe before it), not as a formula.
    assert "1;1;'=An;300;normal" in text.decode() and "1;1;'@Do;303;normal" in text.decode()
    plan = results_import_plan(
        competition=standard, rows=results_import_read(data=text), decisions=ImportDecisions()
    )
    assert plan.undecided == [] and plan.changes == 0
    assert [game.names for game in plan.of("same")] == [tuple(guarded)]
    results_import_apply(
        competition=standard, data=text, decisions=ImportDecisions(create_unknown=True), by=None
    )
    assert Player.objects.count() == players


def test_the_export_is_for_the_clubs_secretaries(client, member, standard):
    url = reverse("results_csv", kwargs=standard.url_kwargs)
    assert client.get(url).status_code == 302  # to the login
    client.force_login(member)
    assert client.get(url).status_code == 403


# --- TSH ----------------------------------------------------------------------------------


def test_the_tsh_export_refuses_tables_on_its_page_and_sends_no_file(secretary_client, standard):
    apply(standard, EVENING)
    url = reverse("tsh_download", kwargs=standard.url_kwargs)
    response = secretary_client.get(url)
    assert response.status_code == 302
    assert response.url == reverse("tsh", kwargs=standard.url_kwargs)
    assert "Content-Disposition" not in response
    texts = [str(message) for message in get_messages(response.wsgi_request)]
    assert any(text.startswith("TSH kent alleen partijen van twee spelers") for text in texts)
    page = secretary_client.get(response.url)
    assert page.status_code == 200
    assert "TSH kent alleen partijen van twee spelers" in page.content.decode()
