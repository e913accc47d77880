"""From the attendance page to a paired round in one tap (issue 38, point 4): its main
button saves who is there and pairs them with the competition's own system, landing on
the pairing page to review; both or neither. The plain save stays."""

import pytest
from django.urls import reverse

from clubs.models import HistoryEntry
from competition.models import Absence, Competition, Round, TableSize
from competition.services.rounds import round_create
from games.models import Game, Outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_one(competition, four_entrants):
    return round_create(competition=competition)


def attendance_url(round_obj) -> str:
    return reverse(
        "attendance", kwargs={**round_obj.competition.url_kwargs, "number": round_obj.number}
    )


def pairing_url(round_obj) -> str:
    return reverse(
        "round_pairing", kwargs={**round_obj.competition.url_kwargs, "number": round_obj.number}
    )


def test_the_page_offers_save_and_pair_first(secretary_client, round_one):
    page = secretary_client.get(attendance_url(round_one)).content.decode()
    assert 'id="save-and-pair">Opslaan en indelen</button>' in page
    assert "Alleen opslaan" in page
    # The main button comes first: Enter in the form saves and pairs.
    assert page.index("save-and-pair") < page.index("Alleen opslaan")


def test_one_post_saves_the_attendance_and_pairs_the_round(
    secretary_client, round_one, four_entrants
):
    anna, bert, cor, dirk = four_entrants
    response = secretary_client.post(
        attendance_url(round_one),
        {"action": "attendance", "present": [anna.pk, bert.pk, cor.pk], "then": "pair"},
    )
    assert response.status_code == 302
    assert response.url == pairing_url(round_one)
    assert list(Absence.objects.filter(round=round_one).values_list("player", flat=True)) == [
        dirk.pk
    ]
    games = list(Game.objects.filter(round=round_one).with_seats())
    seated = sorted(player.pk for game in games for player in game.players)
    assert seated == sorted([anna.pk, bert.pk, cor.pk])  # Dirk is absent
    assert sum(game.outcome == Outcome.BYE for game in games) == 1  # three present: a bye
    round_one.refresh_from_db()
    assert round_one.status == Round.Status.DRAFT  # for the director to review and publish
    assert round_one.pairing_explanation[0]["system"] == "swiss"  # the competition's own
    actions = list(
        HistoryEntry.objects.filter(round_number=round_one.number)
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions[-2:] == ["round.attendance", "pairing.generate"]
    page = secretary_client.get(response.url).content.decode()
    assert "Aanwezigheid opgeslagen en de ronde ingedeeld." in page


def test_a_pairing_refused_saves_no_attendance_either(
    secretary_client, competition, round_one, four_entrants
):
    # Gouds 8 is for two: tables of 3 cannot be paired, so the whole step is refused.
    Competition.objects.filter(pk=competition.pk).update(table_size=TableSize.THREE)
    anna, bert, cor, _dirk = four_entrants
    entries = HistoryEntry.objects.count()
    response = secretary_client.post(
        attendance_url(round_one),
        {"action": "attendance", "present": [anna.pk, bert.pk, cor.pk], "then": "pair"},
    )
    assert response.status_code == 200
    assert "alert" in response.content.decode()
    assert not Absence.objects.filter(round=round_one).exists()
    assert not Game.objects.filter(round=round_one).exists()
    assert HistoryEntry.objects.count() == entries


def test_a_refused_attendance_changes_nothing(secretary_client, round_one, competition):
    entries = HistoryEntry.objects.count()
    response = secretary_client.post(
        attendance_url(round_one), {"action": "attendance", "present": ["999999"], "then": "pair"}
    )
    assert response.status_code == 200
    assert not Absence.objects.filter(round=round_one).exists()
    assert not Game.objects.filter(round=round_one).exists()
    assert HistoryEntry.objects.count() == entries


def test_a_round_paired_already_is_not_paired_again(secretary_client, round_one, four_entrants):
    present = {"action": "attendance", "present": [p.pk for p in four_entrants], "then": "pair"}
    secretary_client.post(attendance_url(round_one), present)
    first = sorted(Game.objects.filter(round=round_one).values_list("pk", flat=True))
    response = secretary_client.post(attendance_url(round_one), present)  # a second tap
    assert response.status_code == 200
    assert "is al ingedeeld" in response.content.decode()
    assert sorted(Game.objects.filter(round=round_one).values_list("pk", flat=True)) == first
    # Once paired, the page offers the plain save only.
    page = secretary_client.get(attendance_url(round_one)).content.decode()
    assert "save-and-pair" not in page


def test_the_plain_save_stays(secretary_client, round_one, four_entrants):
    anna, bert, cor, dirk = four_entrants
    response = secretary_client.post(
        attendance_url(round_one), {"action": "attendance", "present": [anna.pk, bert.pk, cor.pk]}
    )
    assert response.status_code == 302 and response.url == round_one.get_absolute_url()
    assert Absence.objects.filter(round=round_one, player=dirk).exists()
    assert not Game.objects.filter(round=round_one).exists()
