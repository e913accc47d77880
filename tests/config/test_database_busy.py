"""A write that cannot get its turn in time gets a Dutch "try again" (503), not a 500, and
writes nothing: SQLite's busy timeout, PostgreSQL's lock timeout."""

import sqlite3

import psycopg
import pytest
from django.db import connection
from django.urls import reverse

from competition.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def another_writer(club):
    """A second program holding the database's write lock (SQLite) or the club's row lock
    (PostgreSQL) while the request runs; Django's connection waits at most 0.2 s."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        other = sqlite3.connect(settings["NAME"], isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        original = settings["OPTIONS"].get("timeout")
        settings["OPTIONS"]["timeout"] = 0.2
        connection.close()  # the next query connects with the short timeout
        yield
        other.execute("ROLLBACK")
        other.close()
        settings["OPTIONS"]["timeout"] = original
        connection.close()
    else:
        other = psycopg.connect(
            dbname=settings["NAME"],
            user=settings["USER"],
            password=settings["PASSWORD"],
            host=settings["HOST"],
            port=settings["PORT"] or 5432,
        )
        other.execute("SELECT id FROM clubs_club WHERE id = %s FOR UPDATE", [club.pk])
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '200ms'")
        yield
        other.rollback()
        other.close()
        connection.close()


def test_a_write_that_waits_too_long_is_told_to_try_again(
    secretary_client, competition, another_writer
):
    url = reverse("round_create", kwargs=competition.url_kwargs)
    response = secretary_client.post(url, {"number": "1"})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Even druk" in response.content.decode()
    assert not Round.objects.filter(competition=competition).exists()
