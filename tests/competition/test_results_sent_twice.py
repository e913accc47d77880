"""A round's results sent twice from the results page (its answer or the connection lost)
are saved once: the form's key (clubs/submissions.py)."""

import uuid

import pytest

from clubs.models import Submission
from tests.competition.test_results_entry import post_data, results_url, round_games, state

pytestmark = pytest.mark.django_db

__all__ = ["round_games"]  # the fixture, shared with the results page's own tests


def test_the_same_results_sent_twice_are_saved_once(secretary_client, round_games):
    round_obj, games = round_games
    key = str(uuid.uuid4())
    rows = [{"score_a": "400", "score_b": "300"}, {"score_a": "350", "score_b": "351"},
            {"score_a": "200", "score_b": "0"}]  # fmt: skip
    data = {**post_data(games, rows), "submission": key}
    first = secretary_client.post(results_url(round_obj), data)
    assert first.status_code == 302
    saved = state(round_obj)
    assert saved[-2] == 3  # a history entry per result
    # Meanwhile another device corrects table 1.
    correction = post_data(games, [{"score_a": "410", "score_b": "300", "reason": "typo"},
                                   rows[1], rows[2]])  # fmt: skip
    assert secretary_client.post(results_url(round_obj), correction).status_code == 302
    corrected = state(round_obj)
    assert corrected[-2] == 4
    # The first form again (its answer was lost): answered as the first, the round's page;
    # nothing saved again, the correction stays, no row marked as changed meanwhile.
    again = secretary_client.post(results_url(round_obj), data)
    assert again.status_code == 302 and again.url == first.url
    assert state(round_obj) == corrected
    assert list(Submission.objects.values_list("kind", flat=True)) == ["results"]
    # Without the key, the same form is refused as out of date (the page again), as before.
    del data["submission"]
    stale = secretary_client.post(results_url(round_obj), data)
    assert stale.status_code == 200 and state(round_obj) == corrected
