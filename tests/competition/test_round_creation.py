"""Every way a round comes into being leaves the same history entry: the page *Ronde
toevoegen*, the `pair` command, a CSV import and a TSH import all go through
`competition.services.rounds` (`round_create`, `round_import`), with its club lock and
check of the number; on an archived competition they are refused and leave nothing behind.
"""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from clubs.history import HistoryAction, HistoryReason
from clubs.models import HistoryEntry
from competition.models import Competition, Round
from competition.services.competitions import competition_archive
from competition.services.importing import ImportDecisions, results_import_apply
from games.models import Game
from interchange.tsh import tsh_import
from tests.factories import EntrantFactory, PlayerFactory

pytestmark = pytest.mark.django_db

TSH_FILE = Path(__file__).parents[1] / "interchange" / "fixtures" / "tsh_hand_written.t"
CSV_FILE = (
    "round,table,player,opponent,score,opponent_score,outcome\n1,1,Anna,Bert,320,290,normal\n"
)


def _entry(competition: Competition, number: int) -> HistoryEntry:
    return HistoryEntry.objects.get(
        action=HistoryAction.ROUND_CREATE, competition_id=competition.pk, round_number=number
    )


def _shape(competition: Competition, number: int) -> tuple:
    """What every round's creation entry holds, whichever way it was made."""
    entry = _entry(competition, number)
    round_obj = competition.rounds.get(number=number)
    return (
        entry.action,
        entry.object_type,
        entry.object_id == round_obj.pk,
        entry.object_label == f"{competition.name} · {number}",
        entry.before,
        sorted(entry.after),
        entry.after["number"] == number,
        # A draft made by hand, published when an import brings its results.
        entry.after["status"] in (Round.Status.DRAFT, Round.Status.PUBLISHED),
        entry.club_id == competition.club_id,
    )


@pytest.fixture
def entered(competition):
    for name in ("Anna", "Bert", "Cor", "Dirk"):
        EntrantFactory(competition=competition, player=PlayerFactory(name=name))
    return competition


EXPECTED = (
    HistoryAction.ROUND_CREATE,
    "round",
    True,
    True,
    None,
    ["date", "number", "status"],
    True,
    True,
    True,
)


def test_the_add_round_page(secretary_client, entered):
    response = secretary_client.post(
        reverse("round_create", kwargs=entered.url_kwargs), {"number": "1", "date": ""}
    )
    assert response.status_code == 302
    assert _shape(entered, 1) == EXPECTED
    assert _entry(entered, 1).by.username == "secretaris"


def test_the_pair_command(entered):
    call_command("pair", str(entered.pk), "--seed", "1", stdout=StringIO())
    assert _shape(entered, 1) == EXPECTED
    assert Game.objects.filter(round__competition=entered).count() == 2
    generated = HistoryEntry.objects.get(
        competition_id=entered.pk, action=HistoryAction.PAIRING_GENERATE
    )
    assert generated.round_number == 1


def test_the_pair_command_dry_run_writes_nothing(entered):
    before = HistoryEntry.objects.count()
    call_command("pair", str(entered.pk), "--dry-run", stdout=StringIO())
    assert not entered.rounds.exists()
    assert HistoryEntry.objects.count() == before


def test_the_pair_command_checks_the_round_number(entered):
    with pytest.raises(CommandError):
        call_command("pair", str(entered.pk), "--round", "3", stdout=StringIO())
    assert not entered.rounds.exists()


def test_the_pair_command_on_an_archived_competition_leaves_nothing(entered):
    competition_archive(competition=entered, reason="klaar")
    before = HistoryEntry.objects.count()
    with translation.override("nl"), pytest.raises(CommandError, match="gearchiveerd"):
        call_command("pair", str(entered.pk), stdout=StringIO())
    assert not Round.objects.filter(competition=entered).exists()
    assert HistoryEntry.objects.count() == before


def test_the_csv_import(entered):
    results_import_apply(
        competition=entered,
        data=CSV_FILE.encode(),
        decisions=ImportDecisions(create_unknown=True),
        by=None,
    )
    assert _shape(entered, 1) == EXPECTED
    assert _entry(entered, 1).reason_code == HistoryReason.CSV_IMPORT


def test_the_tsh_import(club):
    summary = tsh_import(club=club, data=TSH_FILE.read_bytes(), name="Toernooi", by=None)
    competition = summary.competition
    for number in range(1, summary.rounds + 1):
        assert _shape(competition, number) == EXPECTED
        assert _entry(competition, number).reason_code == HistoryReason.TSH_IMPORT
