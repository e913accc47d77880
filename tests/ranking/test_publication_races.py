"""Two officials publish the season's ranking at the same moment, from two real
PostgreSQL connections (threads, each its own): the versions go N, N + 1 (neither saw the
other's), or one is refused (both saw version N − 1 and said so); never two version N."""

from __future__ import annotations

import pytest
from django.db import connection

from ranking.models import Publication
from ranking.publications import PublicationError, publication_create
from tests.live import at_once

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="two connections writing at once: PostgreSQL (DATABASE_URL) only",
    ),
]


def _publish(season, official, after_version):
    def task():
        try:
            return publication_create(
                season=season, by=official, reason="correctie", after_version=after_version
            ).version
        except PublicationError as error:
            return error.code
        finally:
            connection.close()

    return task


def test_two_officials_publish_at_once_get_two_versions_or_one_refusal(season, official):
    latest = 0
    for round_number in range(5):
        # Odd rounds: both say which version they saw; even: neither does.
        seen = latest if round_number % 2 else None
        got = at_once([_publish(season, official, seen) for _ in range(2)])
        if seen is None:
            assert sorted(got) == [latest + 1, latest + 2]
        else:
            assert sorted(got, key=str) == [latest + 1, "published_meanwhile"]
        latest = max(v for v in got if isinstance(v, int))
    versions = list(Publication.objects.values_list("version", flat=True).order_by("version"))
    assert versions == list(range(1, latest + 1))
