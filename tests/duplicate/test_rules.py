"""A duplicate competition's rules are the rules its evenings play, and only rules a
master game has (`Competition.rules_error`)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from competition.models import Competition
from competition.services.competitions import competition_update
from duplicate.services import DuplicateEveningError, evening_create, turn_draw
from tests.factories import CompetitionFactory, competition_form_data

pytestmark = pytest.mark.django_db


def test_an_evening_plays_its_competitions_rules_and_keeps_them(club, secretary):
    competition = CompetitionFactory(
        club=club, slug="duplicate", kind=Competition.Kind.DUPLICATE, rules="sbnl"
    )
    evening = evening_create(competition=competition, number=1, by=secretary)
    assert evening.rules == "sbnl"

    competition_update(competition=competition, settings={"rules": "standard"}, by=secretary)
    competition.refresh_from_db()
    evening.refresh_from_db()
    assert evening.rules == "sbnl"
    assert evening_create(competition=competition, number=2, by=secretary).rules == "standard"


@pytest.mark.parametrize("rules", ["gouds8", "custom"])
def test_a_duplicate_competition_is_refused_rules_for_a_table(secretary_client, club, rules):
    url = reverse("competition_create", kwargs={"club": club.slug})
    data = competition_form_data(name="Duplicaat", kind="duplicate", rules=rules)
    if rules == "custom":
        data["custom_rules"] = '{"bingo_bonus": 40}'
    response = secretary_client.post(url, data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Een duplicate-avond speelt met de standaardregels of met de SBNL" in page
    assert 'value="Duplicaat"' in page  # what was typed is still there
    assert not Competition.objects.filter(club=club, slug="zomer").exists()


def test_a_duplicate_competition_with_the_standard_rules_is_made(secretary_client, club):
    url = reverse("competition_create", kwargs={"club": club.slug})
    data = competition_form_data(kind="duplicate", rules="standard")
    assert secretary_client.post(url, data).status_code == 302
    made = Competition.objects.get(club=club, slug="zomer")
    assert (made.kind, made.rules) == ("duplicate", "standard")


def test_an_evening_of_a_competition_with_table_rules_is_refused(club, secretary):
    # As a competition from before this rule could be: written without the form.
    competition = CompetitionFactory(
        club=club, slug="duplicate", kind=Competition.Kind.DUPLICATE, rules="gouds8"
    )
    with pytest.raises(DuplicateEveningError) as refused:
        evening_create(competition=competition, number=1, by=secretary)
    assert refused.value.code == "duplicate_rules"
    assert not competition.duplicate_evenings.exists()


def test_the_migration_names_the_rules_the_evenings_played(club, secretary):
    played = CompetitionFactory(
        club=club, slug="played", kind=Competition.Kind.DUPLICATE, rules="sbnl"
    )
    evening = evening_create(competition=played, number=1, by=secretary)
    turn_draw(evening=evening, by=secretary, tiles="AEIKLST")
    Competition.objects.filter(pk=played.pk).update(rules="gouds8")  # as before the rule
    unplayed = CompetitionFactory(
        club=club, slug="unplayed", kind=Competition.Kind.DUPLICATE, rules="custom"
    )
    table = CompetitionFactory(club=club, slug="table", rules="gouds8")

    migration = importlib.import_module(
        "competition.migrations.0010_duplicate_competitions_play_their_evenings_rules"
    )
    migration.name_the_rules_played(apps, None)

    rules = dict(Competition.objects.values_list("slug", "rules"))
    assert rules[played.slug] == "sbnl"
    assert rules[unplayed.slug] == "standard"
    assert rules[table.slug] == "gouds8"
