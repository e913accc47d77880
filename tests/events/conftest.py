"""An open tournament of club Gouda with a paired and a duplicate division, a player of
Delft and one of Gouda, each with an account."""

from __future__ import annotations

import pytest

from competition.forms import CompetitionForm
from competition.models import Competition
from competition.services.competitions import competition_create
from duplicate.services.competitions import duplicate_create
from events.divisions import Division, division_kind
from events.services import event_create
from tests.factories import competition_form_data, secretary_of, user_in_club


@pytest.fixture
def organiser_secretary(club):
    return secretary_of(club, username="secretaris")


@pytest.fixture
def event(club, organiser_secretary):
    return event_create(
        organiser=club,
        settings={"name": "Gouds Open 2027", "slug": "open-2027", "kind": "open"},
        by=organiser_secretary,
    )


@pytest.fixture
def paired(club, event, organiser_secretary):
    data = competition_form_data(name="Open A", slug="open-a")
    form = CompetitionForm(data, instance=Competition(club=club))
    assert form.is_valid(), form.errors
    return competition_create(
        club=club, settings=form.settings(), by=organiser_secretary, event=event
    )


@pytest.fixture
def duplicate(club, event, organiser_secretary):
    return duplicate_create(
        club=club,
        settings={"name": "Open duplicate", "slug": "open-duplicate"},
        by=organiser_secretary,
        event=event,
    )


@pytest.fixture
def paired_division(paired):
    return Division(division_kind("paired"), paired)


@pytest.fixture
def duplicate_division(duplicate):
    return Division(division_kind("duplicate"), duplicate)


@pytest.fixture
def delft_user(other_club):
    return user_in_club(other_club, username="speler-delft")


@pytest.fixture
def gouda_user(club):
    return user_in_club(club, username="speler-gouda")
