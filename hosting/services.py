"""The operator's actions on a club: approve, suspend, reactivate, remove, act for it.

Each runs inside `transaction.atomic` with the club's row locked (`clubs.locks.club_lock`)
and leaves one history entry with who, when, before, after and why; a refused action
changes nothing and leaves no entry. Who may call them is the views' check
(`clubs.permissions.is_operator`); the services check the club's state.

Django: services.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from archives.removal import club_rows_delete
from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock
from clubs.models import Club, ClubStatus, HistoryEntry
from hosting.middleware import forget_club_status

#: Entries that change nothing of the club's data: an archive taken after them still holds
#: everything, so they do not count as the club's last change for its removal.
NOT_A_CHANGE = (
    HistoryAction.ARCHIVE_DOWNLOAD,
    HistoryAction.OPERATOR_ACT_START,
    HistoryAction.OPERATOR_ACT_STOP,
)

#: Which status each action takes a club from, and to.
TRANSITIONS = {
    HistoryAction.OPERATOR_APPROVE: ((ClubStatus.PENDING,), ClubStatus.ACTIVE),
    HistoryAction.OPERATOR_SUSPEND: ((ClubStatus.ACTIVE, ClubStatus.PENDING), ClubStatus.SUSPENDED),
    HistoryAction.OPERATOR_REACTIVATE: ((ClubStatus.SUSPENDED,), ClubStatus.ACTIVE),
}


class OperatorError(Exception):
    """An operator's action refused; `message` says why in the reader's language."""

    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Removal:
    """What a removal took: the club's name and short name, and the rows of each model."""

    name: str
    slug: str
    deleted: dict[str, int]


def _locked(club: Club) -> Club:
    club_lock(club.pk)
    fresh = Club.objects.filter(pk=club.pk).first()
    if fresh is None:
        raise OperatorError(_("This club no longer exists."))
    return fresh


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise OperatorError(_("Give a reason: it is kept in the club's history."))
    return reason


@transaction.atomic
def club_set_status(*, club: Club, action: HistoryAction, by: Any, reason: str = "") -> Club:
    """Approve, suspend or reactivate `club` (`TRANSITIONS`); suspending needs a reason."""
    sources, target = TRANSITIONS[action]
    if action == HistoryAction.OPERATOR_SUSPEND:
        reason = _reason(reason)
    club = _locked(club)
    if club.status not in sources:
        raise OperatorError(
            _("This club is %(status)s: that cannot be done now.")
            % {"status": club.get_status_display()}
        )
    before = club.status
    Club.objects.filter(pk=club.pk).update(status=target)
    club.status = target
    slug = club.slug
    transaction.on_commit(lambda: forget_club_status(slug))
    history_record(
        club_id=club.pk,
        by=by,
        action=action,
        object_type="club",
        object_id=club.pk,
        label=club.name,
        before={"club_status": before},
        after={"club_status": target},
        reason=reason,
    )
    return club


def last_change_at(club: Club) -> datetime | None:
    """When the club last changed: its newest history entry that changed something."""
    return (
        HistoryEntry.objects.filter(club=club)
        .exclude(action__in=NOT_A_CHANGE)
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )


def removal_refusal(club: Club) -> Any | None:
    """Why `club` may not be removed now, or None: only after its archive was downloaded
    later than its last change, so that nothing of it is lost with it."""
    downloaded = club.archive_downloaded_at
    if downloaded is None:
        return _("Download the club's archive first: a club is removed only after that.")
    changed = last_change_at(club)
    if changed is not None and changed >= downloaded:
        return _(
            "The club changed after its archive was last downloaded: download it again, "
            "then remove the club."
        )
    return None


@transaction.atomic
def club_remove(*, club: Club, by: Any, reason: str, confirm_slug: str) -> Removal:
    """Delete `club` and everything of it, its history too (the archive keeps it); one entry
    without a club keeps the fact: who, when, which club (name, short name, town), why."""
    reason = _reason(reason)
    club = _locked(club)
    if confirm_slug.strip() != club.slug:
        raise OperatorError(_("Type the club's short name to confirm the removal."))
    refusal = removal_refusal(club)
    if refusal is not None:
        raise OperatorError(refusal)
    before = {
        "name": club.name,
        "slug": club.slug,
        "city": club.city,
        "club_status": club.status,
        "archive_downloaded_at": club.archive_downloaded_at,
    }
    deleted = club_rows_delete(club)
    slug = club.slug
    transaction.on_commit(lambda: forget_club_status(slug))
    history_record(
        club_id=None,
        by=by,
        action=HistoryAction.OPERATOR_REMOVE,
        object_type="club",
        object_id=club.pk,
        label=club.name,
        before=before,
        reason=reason,
    )
    return Removal(name=club.name, slug=club.slug, deleted=deleted)


@transaction.atomic
def acting_start(*, club: Club, by: Any, reason: str) -> None:
    """Record that the operator starts acting for `club` (the session keeps it: the view)."""
    reason = _reason(reason)
    club = _locked(club)
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.OPERATOR_ACT_START,
        object_type="club",
        object_id=club.pk,
        label=club.name,
        reason=reason,
        at=timezone.now(),
    )


@transaction.atomic
def acting_stop(*, club_id: int, by: Any) -> None:
    """Record that the operator stops acting for the club (gone meanwhile: nothing to keep)."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.OPERATOR_ACT_STOP,
        object_type="club",
        object_id=club.pk,
        label=club.name,
    )
