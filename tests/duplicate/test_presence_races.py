"""Presence recorded from two devices at once (issue 56 point 1), on PostgreSQL in threads
with connections of their own: one after the other under the participant's row, one row,
each change in the history with the before the other left. (On SQLite every write runs
alone: config/settings.py.)"""

from __future__ import annotations

import pytest
from django.db import transaction

from clubs.models import HistoryEntry
from duplicate.models import DuplicateCompetition, Participant, Presence
from duplicate.services.evenings import evening_create
from duplicate.services.presence import presence_set
from duplicate.services.turns import turn_draw
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.test_lock_order import AT_ONCE_ON_POSTGRESQL, Beside, at_once

pytestmark = AT_ONCE_ON_POSTGRESQL


@pytest.fixture
def room():
    """An evening with its first turn drawn, one participant, a director and a juror."""
    club = ClubFactory(slug="gouda")
    director, juror = UserFactory(username="leider"), UserFactory(username="jurylid")
    competition = DuplicateCompetition.objects.create(club=club, name="Interclub", slug="ic")
    participant = Participant.objects.create(competition=competition, player=PlayerFactory())
    evening = evening_create(competition=competition, number=1, by=director)
    turn_draw(evening=evening, tiles="KAAS?EN", by=director)
    return evening, participant, director, juror


def test_a_second_device_waits_for_the_first_and_sees_what_it_left(room):
    evening, participant, director, juror = room
    presence_set(evening=evening, participant=participant, status="present", by=director)
    second = Beside(
        lambda: presence_set(
            evening=evening, participant=participant, status="left", left_after_turn=1, by=juror
        )
    )
    with transaction.atomic():  # the director's device, its write not committed yet
        presence_set(evening=evening, participant=participant, status="absent", by=director)
        second.start()
        second.wait_for_a_lock()  # the juror's write waits for the participant's row
    second.result()
    befores = list(
        HistoryEntry.objects.filter(action="presence.set").order_by("pk").values_list("before")
    )
    assert [before for (before,) in befores] == [
        None,
        {"presence": "present", "left_after_turn": None},
        {"presence": "absent", "left_after_turn": None},
    ]
    assert (Presence.objects.get().status, Presence.objects.get().left_after_turn) == ("left", 1)


def test_presence_set_from_two_devices_at_once_is_one_row_and_both_changes_kept(room):
    evening, participant, director, juror = room
    # Five times the director records the player absent while a juror records them as
    # left after turn 1.
    for _round in range(5):
        results = at_once(
            *(
                lambda state=state, by=by: presence_set(
                    evening=evening,
                    participant=participant,
                    status=state[0],
                    left_after_turn=state[1],
                    by=by,
                )
                for state, by in ((("absent", None), director), (("left", 1), juror))
            )
        )
        assert not [r for r in results if isinstance(r, BaseException)], results
        row = Presence.objects.get()
        entries = list(HistoryEntry.objects.filter(action="presence.set").order_by("pk"))
        # One after the other: each entry's before is the after of the one before it,
        # and the row is what the last entry left (nothing lost, nothing doubled).
        assert [e.before for e in entries[1:]] == [e.after for e in entries[:-1]]
        assert entries[-1].after == {"presence": row.status, "left_after_turn": row.left_after_turn}
