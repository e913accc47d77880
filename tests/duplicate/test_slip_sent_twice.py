"""A slip sent twice from the player's phone (its answer or the connection lost) is saved
once and answered as the first: "your slip is in" (clubs/submissions.py)."""

import uuid

import pytest

from clubs.models import HistoryEntry, Submission
from duplicate.models import Slip
from duplicate.services.turns import turn_draw
from tests.duplicate.test_pages import anna, evening, url

pytestmark = pytest.mark.django_db

__all__ = ["anna", "evening"]  # the fixtures, shared with the slip page's own tests

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_same_slip_sent_twice_is_saved_once(client, evening, secretary, anna):
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(anna)
    slip_page = url("duplicate_slip", evening)
    data = {"turn": "1", "text": "8H KAAS", "claimed": "14", "submission": str(uuid.uuid4())}
    first = client.post(slip_page, data, **HTMX)
    assert first.status_code == 200 and 'id="slip-sent"' in first.content.decode()
    history = HistoryEntry.objects.count()
    again = client.post(slip_page, data, **HTMX)
    assert again.status_code == 200
    assert 'id="slip-sent"' in again.content.decode()
    assert "is al binnen" not in again.content.decode()  # not a refusal: the first's answer
    assert Slip.objects.count() == 1 and HistoryEntry.objects.count() == history
    assert Submission.objects.get().led_to == f"slip {Slip.objects.get().pk}"
    # Without the key the second is refused, as before: saved once either way.
    refused = client.post(slip_page, {**data, "submission": ""}, **HTMX)
    assert "is al binnen" in refused.content.decode() and Slip.objects.count() == 1
