"""The privacy page, the person's own page: their copy, their erasure."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Membership, Player
from tests.factories import PASSWORD, secretary_of, user_in_club

QUERIES_MY_DATA = 3  # session, user, player


def test_the_privacy_page_reads_nothing_from_the_database(client, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/privacy/").status_code == 200


@pytest.mark.parametrize("language, words", [("nl", "Hoe lang"), ("en", "How long")])
def test_the_privacy_page_speaks_the_readers_language(client, db, language, words, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get("/privacy/")
    assert response.status_code == 200
    assert words in response.content.decode()


def test_every_page_links_to_the_privacy_page(client, db):
    assert 'href="/privacy/"' in client.get("/").content.decode()


def test_my_data_needs_a_login(client, db):
    for name in ("my_data", "my_data_download"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/login/" in response["Location"]
    assert client.post(reverse("my_data_erase")).status_code == 302
    assert get_user_model().objects.count() == 0


def test_the_download_is_the_persons_json(client, club, django_assert_num_queries):
    user = user_in_club(club, username="anke", email="anke@example.nl")
    client.force_login(user)
    with django_assert_num_queries(20):
        response = client.get(reverse("my_data_download"))
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith('attachment; filename="bordpunt-')
    data = json.loads(response.content)
    assert data["account"]["email"] == "anke@example.nl"
    assert data["memberships"] == [{"club": "gouda", "club_name": club.name, "role": "member"}]


def test_my_data_page_has_a_fixed_query_count(client, club, django_assert_num_queries):
    client.force_login(user_in_club(club, username="anke"))
    with django_assert_num_queries(QUERIES_MY_DATA):
        response = client.get(reverse("my_data"))
    assert 'id="my-data-erase"' in response.content.decode()
    assert 'href="/privacy/mijn-gegevens.json"' in response.content.decode()


def _erase(client, password):
    return client.post(reverse("my_data_erase"), {"password": password})


def test_a_wrong_password_erases_nothing(client, club):
    user = user_in_club(club, username="anke")
    client.force_login(user)
    response = _erase(client, "wrong")
    assert response.status_code == 200
    assert "Dit is niet je wachtwoord." in response.content.decode()
    assert Player.objects.get(user=user).erased_at is None
    for _attempt in range(5):
        response = _erase(client, "wrong")
    assert response.status_code == 429  # counted with the login's wrong passwords
    assert Player.objects.get(user=user).erased_at is None


def test_the_person_erases_themself_and_is_logged_out(client, club):
    user = user_in_club(club, username="anke")
    player = Player.objects.get(user=user)
    client.force_login(user)
    response = _erase(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/privacy/"
    player.refresh_from_db()
    assert (player.name, player.user_id) == (f"#{player.pk}", None)
    assert not get_user_model().objects.filter(username="anke").exists()
    entry = HistoryEntry.objects.get(action=HistoryAction.PLAYER_ERASE)
    assert (entry.by, entry.by_name, entry.reason_code) == (None, "", "erase_own")
    assert client.get(reverse("my_data")).status_code == 302  # logged out


def test_the_only_secretary_hands_over_first(client, club):
    user = secretary_of(club, username="sietske")
    client.force_login(user)
    response = _erase(client, PASSWORD)
    assert "enige secretaris" in response.content.decode()
    assert Membership.objects.filter(player__user=user).exists()
