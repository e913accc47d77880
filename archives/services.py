"""What a download of a club's archive leaves behind: when it was taken, and by whom.

The operator removes a club only after an archive later than its last change was
downloaded (`hosting.services.club_remove`), so each download is kept on the club and in
its history.

Django: a service.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from clubs.history import HistoryAction, history_record
from clubs.models import Club


@transaction.atomic
def archive_downloaded(*, club: Club, by: Any, at: datetime) -> None:
    """Keep that `by` downloaded `club`'s archive as it was at `at` (taken before the
    archive is read, so that nothing later can count as in it)."""
    Club.objects.filter(pk=club.pk).update(archive_downloaded_at=at)
    club.archive_downloaded_at = at
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.ARCHIVE_DOWNLOAD,
        object_type="club",
        object_id=club.pk,
        label=club.name,
        after={"archive_downloaded_at": at},
        at=at,
    )
