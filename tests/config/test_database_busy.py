"""A write that cannot get its turn in time gets a Dutch "try again" (503), not a 500, and
writes nothing: SQLite's busy timeout, PostgreSQL's lock timeout."""

import pytest
from django.urls import reverse

from competition.models import Round
from tests.busy import database_held

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def another_writer(club):
    with database_held():
        yield


def test_a_write_that_waits_too_long_is_told_to_try_again(
    secretary_client, competition, another_writer
):
    url = reverse("round_create", kwargs=competition.url_kwargs)
    response = secretary_client.post(url, {"number": "1"})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Even druk" in response.content.decode()
    assert not Round.objects.filter(competition=competition).exists()
