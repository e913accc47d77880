"""A club's own variant: rule-set fields typed as JSON, checked by the rules engine, and
used for the games it pairs."""

import json

import pytest
from django.urls import reverse

import rules
from competition.models import Competition
from competition.rulesets import ruleset_for
from competition.services.rounds import round_create, round_set_pairings
from games.engine import ruleset_of
from tests.factories import competition_form_data
from tests.seats import pair_spec

FORM = competition_form_data(name="Gouds 10", slug="gouds10", rules="custom")


def test_a_club_variant_is_checked_by_the_engine(secretary_client, club):
    url = reverse("competition_create", kwargs={"club": club.slug})
    refused = secretary_client.post(
        url, {**FORM, "custom_rules": json.dumps({"name": "gouds10", "rack_size": "acht"})}
    )
    assert refused.status_code == 200
    assert "rack_size" in refused.content.decode()
    assert not Competition.objects.filter(slug="gouds10").exists()

    variant = {**rules.GOUDS_8.to_dict(), "name": "gouds10", "turn_limit": 10}
    response = secretary_client.post(url, {**FORM, "custom_rules": json.dumps(variant)})
    assert response.status_code == 302
    competition = Competition.objects.get(slug="gouds10")
    assert ruleset_for(competition).turn_limit == 10


@pytest.mark.parametrize(
    ("preset", "expected"),
    [("gouds8", rules.GOUDS_8), ("standard", rules.STANDARD), ("sbnl", rules.SBNL_WEDSTRIJD)],
)
def test_games_keep_the_rule_set_they_were_paired_under(
    competition, four_entrants, preset, expected
):
    Competition.objects.filter(pk=competition.pk).update(rules=preset)
    competition.refresh_from_db()
    anna, bert, _cor, _dirk = four_entrants
    round_obj = round_create(competition=competition)
    (game,) = round_set_pairings(round=round_obj, pairings=[pair_spec(anna.pk, bert.pk, table=1)])
    assert ruleset_of(game) == expected
    # Changing the competition later does not change the rules of a game already paired.
    Competition.objects.filter(pk=competition.pk).update(
        rules="standard" if preset != "standard" else "gouds8"
    )
    game.refresh_from_db()
    assert ruleset_of(game) == expected
