"""The club room's page (/zaal/) and the site at the laptop's LAN address, with the settings
`bordpunt run --lan` sets (bordpunt/lan.py): the page shows the LAN address with its QR
code, whatever address the laptop opened it at, and why phones cannot reach the site where
they cannot; forms posted from that address pass CSRF; secretary pages still ask for a
login."""

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from bordpunt.lan import lan_environment
from tests.test_page_languages import page_words, word_lists

pytestmark = pytest.mark.django_db

ADDRESS = "192.168.1.23"
HOST = f"{ADDRESS}:8000"


@pytest.fixture
def lan_settings(settings):
    """The settings config/settings.py makes of what `bordpunt run --lan` sets."""
    environment = lan_environment(ADDRESS, 8000)
    settings.ALLOWED_HOSTS = environment["DJANGO_ALLOWED_HOSTS"].split(",")
    settings.CSRF_TRUSTED_ORIGINS = environment["DJANGO_CSRF_TRUSTED_ORIGINS"].split(",")
    settings.BORDPUNT_INSTALLED = True
    settings.LAN_URL = environment["BORDPUNT_LAN_URL"]
    return settings


@pytest.mark.parametrize("opened_at", [HOST, "127.0.0.1:8000", "localhost:8000"])
def test_the_club_room_shows_the_lan_address_wherever_it_was_opened(
    client, lan_settings, django_assert_num_queries, opened_at
):
    with django_assert_num_queries(0):
        response = client.get(reverse("club_room"), HTTP_HOST=opened_at)
    assert response.status_code == 200
    html = response.content.decode()
    assert f"http://{HOST}/" in html and "127.0.0.1" not in html and "localhost" not in html
    assert 'class="qr"><title>' in html
    assert "Doe mee op je telefoon" in html


@pytest.mark.parametrize(
    ("installed", "lan_url", "host", "reason"),
    [
        (True, "", "127.0.0.1:8000", "no_lan"),
        (True, "http://127.0.0.1:8000/", "127.0.0.1:8000", "no_network"),
        (False, "", "localhost:8000", "this_computer"),
    ],
)
def test_without_an_address_for_phones_the_club_room_says_why_and_shows_no_code(
    client, settings, installed, lan_url, host, reason
):
    settings.BORDPUNT_INSTALLED, settings.LAN_URL = installed, lan_url
    html = client.get(reverse("club_room"), HTTP_HOST=host).content.decode()
    assert f'id="club-room-unreachable" data-reason="{reason}"' in html
    assert 'class="qr"' not in html and "http://127.0.0.1" not in html


def test_hosted_the_club_room_shows_the_address_it_was_opened_at(client, settings):
    settings.ALLOWED_HOSTS = ["bordpunt.example"]
    html = client.get(reverse("club_room"), HTTP_HOST="bordpunt.example").content.decode()
    assert "http://bordpunt.example/" in html and 'class="qr"><title>' in html


def test_the_club_room_speaks_one_language(client, lan_settings):
    english_only, dutch_only = word_lists()
    for language, foreign, heading in (
        ("nl", english_only, "Doe mee op je telefoon"),
        ("en", dutch_only, "Join on your phone"),
    ):
        client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(reverse("club_room"), HTTP_HOST=HOST)
        html = response.content.decode()
        assert heading in html
        assert page_words(html) & foreign == set()


@pytest.mark.parametrize("installed", [True, False])
def test_the_first_steps_link_to_the_club_room_and_speak_of_how_bordpunt_runs(
    client, club, secretary, settings, installed
):
    settings.BORDPUNT_INSTALLED = installed
    client.force_login(secretary)
    response = client.get(reverse("first_steps", kwargs={"club": club.slug}))
    html = response.content.decode()
    assert f'href="{reverse("club_room")}"' in html
    # Only a laptop's Bordpunt is started with the command; a hosted club's is online.
    assert ("bordpunt run --lan" in html) is installed
    assert ("via internet" in html) is not installed


def test_a_login_from_the_lan_address_passes_csrf(lan_settings, secretary):
    secretary.set_password("geheim-wachtwoord")
    secretary.save()
    phone = Client(enforce_csrf_checks=True, HTTP_HOST=HOST)
    phone.get(reverse("login"))
    token = phone.cookies[django_settings.CSRF_COOKIE_NAME].value
    response = phone.post(
        reverse("login"),
        {"username": secretary.username, "password": "geheim-wachtwoord"},
        HTTP_ORIGIN=f"http://{HOST}",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 302
    assert phone.session.get("_auth_user_id") == str(secretary.pk)


def test_a_login_posted_from_another_origin_is_refused(lan_settings, secretary):
    secretary.set_password("geheim-wachtwoord")
    secretary.save()
    phone = Client(enforce_csrf_checks=True, HTTP_HOST=HOST)
    phone.get(reverse("login"))
    token = phone.cookies[django_settings.CSRF_COOKIE_NAME].value
    response = phone.post(
        reverse("login"),
        {"username": secretary.username, "password": "geheim-wachtwoord"},
        HTTP_ORIGIN="http://192.168.1.99:8000",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 403
    assert "_auth_user_id" not in phone.session


def test_secretary_pages_at_the_lan_address_still_ask_for_a_login(client, club, lan_settings):
    response = client.get(reverse("first_steps", kwargs={"club": club.slug}), HTTP_HOST=HOST)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_an_unknown_host_is_refused(client, lan_settings):
    response = client.get(reverse("club_room"), HTTP_HOST="evil.example")
    assert response.status_code == 400
