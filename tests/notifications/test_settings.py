"""The person's settings page, the unsubscribe address, and a Bordpunt without mail."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from competition.models import Round
from competition.services.rounds import round_set_status
from notifications.kinds import Kind
from notifications.models import Notification, Subscription
from notifications.services import subscriptions_set
from notifications.tokens import unsubscribe_read, unsubscribe_token
from tests.factories import GameFactory, PlayerFactory, RoundFactory, UserFactory

pytestmark = pytest.mark.django_db

SETTINGS = "/accounts/meldingen/"


def test_a_person_opts_in_per_kind_in_their_language(client, english):
    user = UserFactory()
    client.force_login(user)
    answer = client.post(SETTINGS, {"kinds": [Kind.PAIRING_PUBLISHED]})
    assert answer.status_code == 302
    assert list(Subscription.objects.values_list("user", "kind", "language")) == [
        (user.pk, "pairing_published", "en")
    ]
    client.post(SETTINGS, {})  # every box cleared
    assert not Subscription.objects.exists()
    assert client.post(SETTINGS, {"kinds": ["no_such_kind"]}).status_code == 200  # refused


def test_the_page_lists_what_was_sent_in_a_fixed_number_of_queries(
    client, club, django_assert_num_queries
):
    user = UserFactory()
    for number in range(3):
        Notification.objects.create(
            user=user, kind=Kind.PAIRING_PUBLISHED, object_key=f"round:{number}", club=club
        )
    client.force_login(user)
    # session, user, the kinds, the notifications with their club
    with django_assert_num_queries(4):
        page = client.get(SETTINGS).content.decode()
    assert page.count(club.name) == 3
    assert 'id="mail-off"' in page  # no mail set up in this test: the page says so


def test_a_get_of_the_unsubscribe_address_changes_nothing_a_post_does(client):
    user = UserFactory()
    subscriptions_set(user_id=user.pk, kinds=[Kind.PAIRING_PUBLISHED], language="nl")
    address = reverse(
        "notification_unsubscribe",
        kwargs={"token": unsubscribe_token(user_id=user.pk, kind=Kind.PAIRING_PUBLISHED)},
    )
    assert 'id="unsubscribe"' in client.get(address).content.decode()
    assert Subscription.objects.exists()
    assert 'id="unsubscribed"' in client.post(address).content.decode()
    assert not Subscription.objects.exists()
    assert client.post(address).status_code == 200  # a second click: still done


def test_a_forged_or_mangled_unsubscribe_token_is_refused_cleanly(client):
    token = unsubscribe_token(user_id=7, kind=Kind.PAIRING_PUBLISHED)
    assert unsubscribe_read(token) == (7, "pairing_published")
    assert unsubscribe_read(token[:-2] + "xx") is None
    assert unsubscribe_read("") is None
    assert client.post(f"/meldingen/afmelden/{token[:-2]}xx/").status_code == 404


def test_without_mail_nothing_is_queued_and_the_secretary_is_told(
    secretary_client, club, django_capture_on_commit_callbacks
):
    round = RoundFactory(competition__club=club, status=Round.Status.DRAFT)
    user = UserFactory()
    subscriptions_set(user_id=user.pk, kinds=[Kind.PAIRING_PUBLISHED], language="nl")
    GameFactory(round=round, player_a=PlayerFactory(user=user))
    with django_capture_on_commit_callbacks(execute=True):
        round_set_status(round=round, status=Round.Status.PUBLISHED)
    assert not DBTaskResult.objects.exists()
    page = secretary_client.get(reverse("club_settings", kwargs={"club": club.slug}))
    assert "geen meldingen" in page.content.decode()
