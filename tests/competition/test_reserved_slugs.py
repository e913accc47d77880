"""A competition cannot take the name of a club-level page (`/<club>/beheer/`,
`/<club>/speler/`): those are read from the URL configuration, like the club's."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings
from django.urls import reverse

from clubs.slugs import url_segments
from competition.models import Competition
from competition.services import CompetitionError
from competition.services.competitions import competition_create, competition_update
from interchange.tsh import tsh_import
from tests.factories import competition_form_data

pytestmark = pytest.mark.django_db

HAND_WRITTEN = Path(__file__).parents[1] / "interchange" / "fixtures" / "tsh_hand_written.t"
REFUSED = "is het adres van een pagina van de club; kies een andere korte naam."


@pytest.mark.parametrize("slug", sorted(url_segments("config.urls")[1]))
def test_every_club_level_page_segment_is_refused_as_a_competition(club, slug):
    with pytest.raises(CompetitionError) as refused:
        competition_create(club=club, settings={"name": "Nieuw", "slug": slug})
    assert REFUSED in str(refused.value.message)
    assert not Competition.objects.exists()


def test_the_form_refuses_a_competition_called_speler(secretary_client, club):
    response = secretary_client.post(
        reverse("competition_create", kwargs={"club": club.slug}),
        {**competition_form_data(), "name": "Speler", "slug": "speler"},
    )
    assert response.status_code == 200
    assert f"“speler” {REFUSED}" in response.content.decode()
    assert not Competition.objects.exists()


def test_a_renamed_competition_is_refused_and_one_from_before_keeps_its_name(competition):
    with pytest.raises(CompetitionError):
        competition_update(competition=competition, settings={"slug": "beheer"}, by=None)
    competition.refresh_from_db()
    assert competition.slug == "clubcompetitie"

    Competition.objects.filter(pk=competition.pk).update(slug="archief")  # from before
    old = Competition.objects.get(pk=competition.pk)
    competition_update(competition=old, settings={"name": "Archief 2025"}, by=None)
    assert Competition.objects.get(pk=competition.pk).name == "Archief 2025"


def test_a_tsh_file_named_like_a_club_page_is_refused(club, secretary):
    with pytest.raises(CompetitionError) as refused:
        tsh_import(club=club, data=HAND_WRITTEN.read_bytes(), name="Beheer", by=secretary)
    assert REFUSED in str(refused.value.message)
    assert not Competition.objects.exists()


def test_a_club_page_added_later_is_covered(club):
    Competition(club=club, name="Leden", slug="ledenlijst").full_clean()  # today: free
    with override_settings(ROOT_URLCONF="tests.clubs.urls_later"), pytest.raises(ValidationError):
        Competition(club=club, name="Leden", slug="ledenlijst").full_clean()
