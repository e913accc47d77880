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


def test_a_slip_changed_after_it_was_sent_is_refused_in_words(client, evening, secretary, anna):
    """Handed in, its answer lost, then changed on the phone and sent again with the same
    key: the slip is in as first sent, and the phone is told that the change was not
    saved (409 for a plain post; htmx swaps it in like any refusal)."""
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(anna)
    slip_page = url("duplicate_slip", evening)
    data = {"turn": "1", "text": "8H KAAS", "claimed": "14", "submission": str(uuid.uuid4())}
    assert client.post(slip_page, data, **HTMX).status_code == 200
    history = HistoryEntry.objects.count()
    changed = {**data, "text": "8H KAASE", "claimed": "16"}
    refused = client.post(slip_page, changed)
    assert refused.status_code == 409
    words = "Je beurtbriefje was al ingeleverd zoals je het eerst verstuurde"
    assert words in refused.content.decode()
    swapped = client.post(slip_page, changed, **HTMX)
    assert swapped.status_code == 200
    assert words in swapped.content.decode() and 'id="slip-sent"' in swapped.content.decode()
    (slip,) = Slip.objects.all()
    assert (slip.text, slip.score) == ("8H KAAS", 14)
    assert HistoryEntry.objects.count() == history
    # As first sent once more: answered as the first, no refusal.
    again = client.post(slip_page, data, **HTMX)
    assert words not in again.content.decode() and Slip.objects.count() == 1
