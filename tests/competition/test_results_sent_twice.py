"""A round's results sent twice from the results page (its answer or the connection lost)
are saved once: the form's key (clubs/submissions.py)."""

import uuid

import pytest

from clubs.models import Submission
from tests.competition.test_results_entry import (
    post_data,
    results_url,
    round_games,
    row_segments,
    state,
)

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


def test_results_changed_after_they_were_sent_are_refused_and_kept_to_correct(
    secretary_client, round_games
):
    """390 typed and saved, its answer lost; then 399 typed and sent again with the same
    key (and table 2 typed meanwhile). Not answered as the first, not saved: the page again
    (409), saying so, each changed row marked with what is saved now and kept as typed on
    the current version, so that saving it with a reason corrects it."""
    round_obj, games = round_games
    key = str(uuid.uuid4())
    rows = [{"score_a": "390", "score_b": "300"}, {}, {}]
    data = {**post_data(games, rows), "submission": key}
    assert secretary_client.post(results_url(round_obj), data).status_code == 302
    saved = state(round_obj)
    changed = {**data, "form-0-score_a": "399", "form-1-score_a": "200", "form-1-score_b": "100"}
    refused = secretary_client.post(results_url(round_obj), changed)
    assert refused.status_code == 409
    assert state(round_obj) == saved
    text = refused.content.decode()
    assert "Deze uitslagen waren al opgeslagen zoals ze eerst werden verstuurd" in text
    segments = row_segments(text)
    first, second, third = (segments[game.pk] for game in games)
    assert "Al opgeslagen zoals eerst verstuurd" in first and "Nu opgeslagen: 390 – 300" in first
    assert 'value="399"' in first
    assert "Al opgeslagen zoals eerst verstuurd" in second and "Er staat nu geen uitslag" in second
    assert "Al opgeslagen" not in third  # sent as first sent: nothing to say
    # The same page once more, unchanged: answered as the first.
    again = secretary_client.post(results_url(round_obj), data)
    assert again.status_code == 302 and state(round_obj) == saved
    # Corrected on the page as it came back (a new key, the current version, a reason).
    games[0].refresh_from_db()
    correction = post_data(games, [{"score_a": "399", "score_b": "300", "reason": "typo"}, {}, {}])
    correction["submission"] = str(uuid.uuid4())
    assert secretary_client.post(results_url(round_obj), correction).status_code == 302
    games[0].refresh_from_db()
    assert tuple(games[0].scores) == (399, 300)
