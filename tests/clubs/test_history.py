"""The club history is kept: an entry can be read, never changed or deleted, and it
outlives what it describes."""

import pytest
from django.db.models.deletion import ProtectedError
from django.utils import translation

from clubs.history import HistoryAction, history_record
from clubs.history_display import entry_changes
from clubs.models import HistoryEntry
from tests.factories import HistoryEntryFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_an_entry_keeps_who_when_what_before_after_and_why(club):
    user = UserFactory(username="an")
    entry = history_record(
        club_id=club.pk,
        by=user,
        action=HistoryAction.ROUND_STATUS,
        object_type="round",
        object_id=7,
        label="Ronde 2",
        before={"status": "draft"},
        after={"status": "published"},
        reason="  tafel 3 te laat  ",
        competition_id=3,
        round_number=2,
    )
    entry = HistoryEntry.objects.get(pk=entry.pk)
    assert (entry.by, entry.by_name, entry.author) == (user, "an", "an")
    assert entry.reason == "tafel 3 te laat"
    with translation.override("nl"):
        assert entry.action_label == "status van de ronde gewijzigd"
    with translation.override("en"):
        assert [(row.label, row.before, row.after) for row in entry_changes(entry)] == [
            ("status", "draft", "published")
        ]


def test_the_authors_name_stays_when_the_account_goes(club):
    user = UserFactory(username="oud")
    entry = history_record(
        club_id=club.pk, by=user, action=HistoryAction.ROUND_CREATE, object_type="round"
    )
    user.delete()
    entry = HistoryEntry.objects.get(pk=entry.pk)
    assert (entry.by, entry.author) == (None, "oud")


def test_an_anonymous_change_has_no_author(club):
    from django.contrib.auth.models import AnonymousUser

    entry = history_record(
        club_id=club.pk, by=AnonymousUser(), action=HistoryAction.MOVE_ADD, object_type="game"
    )
    assert (entry.by, entry.by_name) == (None, "")


def test_an_entry_is_never_changed_or_deleted():
    entry = HistoryEntryFactory()
    entry.reason = "anders"
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        HistoryEntry.objects.filter(pk=entry.pk).update(reason="anders")
    with pytest.raises(PermissionError):
        HistoryEntry.objects.all().delete()
    assert HistoryEntry.objects.get(pk=entry.pk).reason == ""


def test_a_club_with_history_cannot_be_deleted():
    entry = HistoryEntryFactory()
    with pytest.raises(ProtectedError):
        entry.club.delete()
