"""Dates survive the page, and a new round is played tonight.

An `<input type="date">` reads only ISO dates: a date rendered the Dutch way ("13-06-2026")
shows an empty field, and saving the form as shown blanks it. A round added from the page
or by `pair` takes the club's local date, so *Mijn partijen → Nu* puts tonight's game first
and the scoresheets print the date instead of a line to fill in.
"""

import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import Round
from competition.services.rounds import (
    round_create,
    round_record_results,
    round_set_pairings,
    round_set_status,
)
from games.services import ResultEntry, ResultInput
from pairing.services import round_create_and_pair
from tests.factories import UserFactory
from tests.rendered_forms import rendered_forms
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


def _date_values(html: str) -> dict[str, str]:
    """Every date input of the page: its name and the value it shows."""
    values = {}
    for tag in re.findall(r"<input[^>]*type=\"date\"[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag).group(1)
        value = re.search(r'value="([^"]*)"', tag)
        values[name] = value.group(1) if value else ""
    return values


def test_the_start_date_is_rendered_for_the_date_input_and_survives_saving(
    client, competition, secretary
):
    competition.start_date = date(2026, 6, 13)
    competition.save()
    client.force_login(secretary)
    address = reverse("competition_edit", kwargs=competition.url_kwargs)
    page = client.get(address).content.decode()
    assert _date_values(page)["start_date"] == "2026-06-13"

    (settings_form,) = [form for form in rendered_forms(page, address) if form.action == address]
    response = client.post(address, settings_form.body())
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.start_date == date(2026, 6, 13)


def test_add_round_offers_tonight_and_the_round_keeps_the_date_chosen(
    client, competition, secretary
):
    client.force_login(secretary)
    standings = reverse("standings", kwargs=competition.url_kwargs)
    page = client.get(standings).content.decode()
    tonight = timezone.localdate()
    assert _date_values(page) == {"date": tonight.isoformat()}

    add = reverse("round_create", kwargs=competition.url_kwargs)
    (add_form,) = [form for form in rendered_forms(page, standings) if form.action == add]
    client.post(add, add_form.body())
    assert competition.rounds.get(number=1).date == tonight

    # Editable: another date typed in is the one kept.
    client.post(add, {**add_form.body(), "number": ["2"], "date": ["2026-10-02"]})
    assert competition.rounds.get(number=2).date == date(2026, 10, 2)


def test_a_round_paired_by_the_secretary_in_one_go_is_dated_tonight(competition, four_entrants):
    round_obj, _pairing = round_create_and_pair(competition=competition, seed=1)
    assert round_obj.date == timezone.localdate()
    # An import keeps what it imports: a round made for a file has no date of its own.
    assert round_create(competition=competition).date is None


def test_my_games_now_lists_tonights_game_above_an_october_game(
    client, competition, secretary, four_entrants
):
    """Anna still has a game of October in a published round; tonight's round is added on
    the page (its date as offered) and published: it is the first game under *Nu*."""
    anna, bert, cor, _dirk = four_entrants
    anna.user = UserFactory(username="anna")
    anna.save()
    october = Round.objects.create(
        competition=competition, number=1, date=date(2025, 10, 2), status=Round.Status.PUBLISHED
    )
    (old,) = round_set_pairings(round=october, pairings=[pair_spec(anna.pk, bert.pk, 1)])
    round_record_results(
        round=october,
        entries=[ResultEntry(old.pk, ResultInput.of_pair("normal", 320, 300))],
        by=None,
    )
    client.force_login(secretary)
    standings = reverse("standings", kwargs=competition.url_kwargs)
    add = reverse("round_create", kwargs=competition.url_kwargs)
    (add_form,) = [
        form
        for form in rendered_forms(client.get(standings).content.decode(), standings)
        if form.action == add
    ]
    client.post(add, add_form.body())
    tonight = competition.rounds.get(number=2)
    round_set_pairings(round=tonight, pairings=[pair_spec(anna.pk, cor.pk, 1)])
    round_set_status(round=tonight, status=Round.Status.PUBLISHED)

    client.force_login(anna.user)
    page = client.get(reverse("my_games")).content.decode()
    now = page[page.index('id="current-games"') :]
    assert now.index("Cor") < now.index("Bert")

    sheets = client.get(
        reverse("round_scoresheets", kwargs={**competition.url_kwargs, "number": 2})
    ).content.decode()
    assert f"Datum: {timezone.localdate().day} " in " ".join(sheets.split())
    assert "fill-date" not in sheets
