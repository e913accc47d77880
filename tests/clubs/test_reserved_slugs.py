"""A club cannot take the address of a page of the site (`/admin/`, `/gezond/`, ...): the
names are read from the URL configuration, so a page added later is covered too."""

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings
from django.urls import reverse

from archives.backup import BackupError, club_archive, restore_club
from clubs.models import Club
from clubs.services import club_save
from clubs.slugs import FUTURE_CLUB_SLUGS, reserved_club_slugs, url_segments

pytestmark = pytest.mark.django_db

PAGES = {"admin", "accounts", "gezond", "i18n", "partij", "mijn-partijen"}


def test_the_walk_finds_the_first_segment_of_every_page():
    first, under_club = url_segments("config.urls")
    assert first >= PAGES
    assert under_club >= {"beheer", "speler"}
    assert "<slug:club>" not in first


@pytest.mark.parametrize("slug", sorted(url_segments("config.urls")[0] - {"favicon.ico"}))
def test_every_literal_first_segment_of_the_url_conf_is_refused_as_a_club(slug):
    club = Club(name="Een club", slug=slug)
    with pytest.raises(ValidationError) as refused:
        club.full_clean()
    assert refused.value.message_dict["slug"] == [
        f"“{slug}” is het adres van een pagina van de site; kies een andere korte naam."
    ]


@pytest.mark.parametrize("slug", ["login", "admin", "api", "ADMIN"])
def test_login_admin_and_names_kept_for_later_are_refused(slug):
    with pytest.raises(ValidationError):
        Club(name="Een club", slug=slug).full_clean()
    with pytest.raises(ValidationError):
        club_save(Club(name="Een club", slug=slug), by=None)
    assert not Club.objects.exists()


def test_a_page_added_later_is_covered_without_a_change_to_the_list():
    later = "tests.clubs.urls_later"
    assert {"nieuwe-pagina"} <= reserved_club_slugs(later) - reserved_club_slugs("config.urls")
    assert "nieuwe-pagina" not in FUTURE_CLUB_SLUGS
    Club(name="Een club", slug="nieuwe-pagina").full_clean()  # today: free
    with override_settings(ROOT_URLCONF=later), pytest.raises(ValidationError):
        Club(name="Een club", slug="nieuwe-pagina").full_clean()


def test_the_admin_refuses_a_club_called_admin_in_dutch(admin_client):
    response = admin_client.post(
        reverse("admin:clubs_club_add"),
        {
            "name": "Admin",
            "slug": "admin",
            "city": "",
            "memberships-TOTAL_FORMS": 0,
            "memberships-INITIAL_FORMS": 0,
            "memberships-MIN_NUM_FORMS": 0,
            "memberships-MAX_NUM_FORMS": 1000,
        },
    )
    assert response.status_code == 200
    assert "is het adres van een pagina van de site" in response.content.decode()
    assert not Club.objects.exists()


def test_a_club_that_has_such_a_name_from_before_keeps_it_until_renamed():
    Club.objects.create(name="Oud", slug="api")  # made before "api" was kept
    club = Club.objects.get()
    club.city = "Gouda"
    club.full_clean()
    club_save(club, by=None)
    club.slug = "admin"
    with pytest.raises(ValidationError):
        club.full_clean()


def test_a_club_is_not_restored_under_a_page_name(club):
    data = club_archive(club=club)
    with pytest.raises(BackupError) as refused:
        restore_club(data=data, slug="gezond")
    assert "is het adres van een pagina van de site" in str(refused.value.message)
    assert list(Club.objects.values_list("slug", flat=True)) == [club.slug]
