"""The session and the logged-in user of every request, read by queries of our own
(config/sessions.py, `ThrottledBackend.get_user`): the same session and user as Django's,
one query each; an expired session, a logged-out one, an inactive or deleted account log
nobody in."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from config.security import ThrottledBackend
from config.sessions import SessionStore
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def fields_of(instance) -> list:
    return [getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields]


def test_a_session_reads_back_as_django_reads_it():
    saved = SessionStore()
    saved.update({"kleur": "blauw", "getal": 7})
    saved.create()
    read = SessionStore(saved.session_key)
    assert dict(read.items()) == {"kleur": "blauw", "getal": 7}
    assert fields_of(read._get_session_from_db()) == fields_of(
        DjangoSessionStore(saved.session_key)._get_session_from_db()
    )


def test_an_expired_or_unknown_session_is_empty_and_gets_a_new_key_when_saved():
    saved = SessionStore()
    saved["kleur"] = "blauw"
    saved.create()
    Session.objects.filter(pk=saved.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    for key in (saved.session_key, "onbekend-maar-lang-genoeg"):
        store = SessionStore(key)
        assert dict(store.items()) == {} and store.session_key is None
        store["nieuw"] = 1
        store.save()
        assert store.session_key not in (None, key)


def test_a_logged_in_request_reads_its_session_and_user_in_one_query_each(client):
    anke = UserFactory(username="anke")
    client.force_login(anke)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("my_games"))
    assert response.status_code == 200 and response.wsgi_request.user == anke
    tables = [query["sql"].split(" FROM ")[1].split()[0].strip('"') for query in queries]
    assert tables.count(Session._meta.db_table) == 1
    assert tables.count(get_user_model()._meta.db_table) == 1


def test_a_logged_out_session_no_longer_logs_in(client):
    client.force_login(UserFactory(username="anke"))
    key = client.session.session_key
    client.post(reverse("logout"))
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    assert client.get(reverse("my_games")).status_code == 302  # to the login page


def test_the_backend_gives_the_user_as_django_does_and_none_for_who_may_not_log_in():
    backend = ThrottledBackend()
    anke = UserFactory(username="anke")
    assert fields_of(backend.get_user(anke.pk)) == fields_of(get_user_model().objects.get())
    assert backend.get_user(anke.pk + 1000) is None
    anke.is_active = False
    anke.save()
    assert backend.get_user(anke.pk) is None
