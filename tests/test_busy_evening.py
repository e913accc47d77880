"""A busy club evening on a live server: boards, secretaries, players, the director and an
import, all at once over real HTTP (tests/evening.py says who does what).

On SQLite (a file: tests/games/test_live_devices.py says why) and, when DATABASE_URL points
at it, on PostgreSQL: the suite runs twice in CI. Nobody acts on what another person acts
on at that moment, so every answer to a write must be the one a single click gets: no 5xx,
no 503 ("busy, try again"), no refusal; and afterwards every acknowledged write is in the
database exactly once, with exactly one history entry, and every round's status follows
from its games.
"""

from collections import Counter

import pytest

from tests.evening import (
    BOARDS,
    check_evening,
    history_baseline,
    prepare_evening,
    request_kind,
    round_statuses,
    run_evening,
)
from tests.live import demo_scoresheets

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_busy_evening_loses_nothing_and_refuses_nobody(live_server):
    evening = prepare_evening()
    sheets = demo_scoresheets()
    history_after = history_baseline()
    statuses_before = round_statuses(evening.club)

    run = run_evening(live_server.url, evening, timeout=90)

    assert run.failures == []
    answers = Counter(
        (request_kind(method, path), status) for method, path, status, _s in run.requests()
    )
    assert not {key: n for key, n in answers.items() if key[1] >= 500}, answers
    refused = [
        (write.actor, write.kind, write.status) for write in run.writes if not write.acknowledged
    ]
    assert refused == []
    assert Counter(write.kind for write in run.writes) == {
        "move": sum(len(sheets[i % len(sheets)].moves) for i in range(BOARDS)),
        "results": 6,
        "correct": 4,
        "override": 1,
        "enter": 2,
        "confirm": 1,
        "dispute": 1,
        "round": 1,
        "generate": 1,
        "publish": 1,
        "import": 1,
    }
    assert (
        check_evening(
            evening, run.writes, history_after=history_after, statuses_before=statuses_before
        )
        == []
    )
    # The evening's end, as the club sees it: rounds 1-4 played, round 5 waiting.
    assert round_statuses(evening.club) == {
        "clubcompetitie/1": "finished",
        "clubcompetitie/2": "finished",
        "clubcompetitie/3": "finished",
        "clubcompetitie/4": "finished",
        "clubcompetitie/5": "published",
        "zomer/1": "finished",
        "zomer/2": "finished",
    }
