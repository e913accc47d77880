"""The scoresheets printed to PDF by Chromium: A4, two Gouds 8 sheets to a page, one
standard sheet per page, and every table's names on its sheet."""

import datetime
import io

import pytest
from django.urls import reverse
from playwright.sync_api import Page
from pypdf import PdfReader

from clubs.models import Player
from competition.models import Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from tests.factories import ClubFactory
from tests.seats import pair_spec

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna de Vries", "Bert Jansen", "Cor van Dijk", "Dirk Bakker", "Els Visser", "Frits Smit"]
A4_POINTS = (595, 842)  # 210 x 297 mm at 72 points per inch


def printed_round(rules: str, slug: str) -> Round:
    club = ClubFactory(name="De Goudse Letters", slug=f"gouda-{slug}")
    competition = Competition.objects.create(
        club=club, name="Clubcompetitie", slug=slug, rules=rules
    )
    players = [Player.objects.create(name=name) for name in [*NAMES, "Gerda Mulder"]]
    for player in players:
        entrant_add(competition=competition, player=player)
    round_obj = Round.objects.create(
        competition=competition,
        number=3,
        status=Round.Status.PUBLISHED,
        date=datetime.date(2026, 12, 1),
    )
    pairs = [(players[i], players[i + 1]) for i in range(0, 6, 2)]
    round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(a.pk, b.pk, table) for table, (a, b) in enumerate(pairs, 1)]
        + [pair_spec(players[6].pk, None)],  # a bye: no sheet
    )
    return round_obj


def pdf_of(page: Page, live_server, round_obj: Round) -> PdfReader:
    kwargs = {**round_obj.competition.url_kwargs, "number": round_obj.number}
    page.goto(f"{live_server.url}{reverse('round_scoresheets', kwargs=kwargs)}")
    return PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True, print_background=True)))


def assert_a4(reader: PdfReader) -> None:
    for pdf_page in reader.pages:
        size = (float(pdf_page.mediabox.width), float(pdf_page.mediabox.height))
        assert all(abs(got - want) < 2 for got, want in zip(size, A4_POINTS, strict=True))


def test_three_gouds_8_tables_print_on_two_a4_pages(page: Page, live_server):
    reader = pdf_of(page, live_server, printed_round(Competition.Rules.GOUDS_8, "gouds"))
    assert len(reader.pages) == 2  # tables 1 and 2 share a page, table 3 has the next
    assert_a4(reader)
    first, second = (pdf_page.extract_text() for pdf_page in reader.pages)
    assert first.count("Handtekening") == 4 and second.count("Handtekening") == 2
    for name in NAMES[:4]:
        assert name in first
    assert "Els Visser" in second and "Frits Smit" in second
    assert "Gerda Mulder" not in first + second  # the bye
    assert "Ronde 3 · Tafel 1 · Datum: 1 december 2026" in first
    assert "8 beurten per speler" in first
    assert "Gebruikte tijd" in first and "Bordpunt" not in first  # no site navigation on paper


def test_standard_rules_print_one_long_sheet_per_page(page: Page, live_server):
    round_obj = printed_round(Competition.Rules.STANDARD, "standaard")
    reader = pdf_of(page, live_server, round_obj)
    assert len(reader.pages) == 3
    assert_a4(reader)
    for table, pdf_page in enumerate(reader.pages, 1):
        text = pdf_page.extract_text()
        assert f"Tafel {table}" in text
        assert text.count("Handtekening") == 2
        assert "20\n" in text and "beurten per speler" not in text
