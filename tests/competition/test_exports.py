"""CSV exports are safe to open in a spreadsheet: no cell runs as a formula."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from competition.services.rounds import round_create, round_record_results, round_set_pairings
from competition.spreadsheets import spreadsheet_cell
from games.services import ResultEntry, ResultInput
from tests.factories import EntrantFactory, PlayerFactory
from tests.seats import pair_spec
from tests.spreadsheets import csv_rows


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x","klik")', '\'=HYPERLINK("http://x","klik")'),
        ("+31 6 1234", "'+31 6 1234"),
        ("-Anna", "'-Anna"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tAnna", "'\tAnna"),
        ("\rAnna", "'\rAnna"),
        ("-12", "-12"),  # a number written as text stays a number
        ("+7", "+7"),
        ("-3.5", "-3.5"),
        ("-1e5", "'-1e5"),  # not a plain number: could be read as a formula's start
        ("Anna-Marie", "Anna-Marie"),
        ("", ""),
        (-12, -12),
        (None, None),
    ],
)
def test_spreadsheet_cell(value, written):
    assert spreadsheet_cell(value) == written


@pytest.mark.django_db
def test_standings_csv_escapes_formulas_and_keeps_negative_spreads(client, competition, tmp_path):
    evil, plain = PlayerFactory(name='=HYPERLINK("http://x","klik")'), PlayerFactory(name="@Bert")
    for player in (evil, plain):
        EntrantFactory(competition=competition, player=player)
    round_obj = round_create(competition=competition)
    (game,) = round_set_pairings(round=round_obj, pairings=[pair_spec(evil.pk, plain.pk, 1)])
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(game.pk, ResultInput.of_pair("normal", 300, 312))],
        by=None,
    )
    response = client.get(reverse("standings_csv", kwargs=competition.url_kwargs))
    rows = {row["player_id"]: row for row in csv_rows(response.content.decode())}
    # 300 - 312 = -12 for the first player, +12 for the second.
    assert (rows[str(evil.pk)]["player"], rows[str(evil.pk)]["spread"]) == (
        '\'=HYPERLINK("http://x","klik")',
        "-12",
    )
    assert (rows[str(plain.pk)]["player"], rows[str(plain.pk)]["spread"]) == ("'@Bert", "12")

    out = io.StringIO()
    call_command("standings", competition.slug, "--format", "csv", stdout=out)
    assert "'=HYPERLINK" in out.getvalue() and "'@Bert" in out.getvalue()
