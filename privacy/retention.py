"""A club's retention period for former members, applied (`manage.py privacy_retention`).

A club chooses how many months it keeps a former member's data
(`Club.former_member_retention_months`; empty: until the person asks). A member leaves a
club when their membership is removed (`clubs.services.membership_delete`, kept in the
history as `membership.remove`): that entry is when they left. A person is erased
(`privacy.erasure.player_erase`, results kept) once

- they are a member of no club at all (a person still in any club is never erased), and
- every club they left has a retention period, and it has passed since they left it.

A person who left no club on record (a guest entered without membership, or one removed
before the history kept it) is never erased by this: only at their own request.

The failed-login counts (`clubs.Throttle`, which name a username) are deleted here too once
a quiet day has made them forget (`clubs.throttle.FORGET_AFTER`), so the privacy page's
"erased after a quiet day" holds.

Django: a service, run daily by cron (docs/deployment.md).
"""

from __future__ import annotations

import calendar
from datetime import datetime

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from clubs.history import HistoryAction, HistoryReason
from clubs.locks import row_lock
from clubs.models import Club, HistoryEntry, Membership, Player, Throttle
from clubs.throttle import FORGET_AFTER
from privacy.erasure import ErasureError, player_erase


def months_after(moment: datetime, months: int) -> datetime:
    """The same day `months` later (the month's last day when it is shorter).

    >>> from datetime import datetime
    >>> months_after(datetime(2026, 1, 31), 1), months_after(datetime(2026, 11, 15), 3)
    (datetime.datetime(2026, 2, 28, 0, 0), datetime.datetime(2027, 2, 15, 0, 0))
    """
    month = moment.month - 1 + months
    year, month = moment.year + month // 12, month % 12 + 1
    return moment.replace(
        year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1])
    )


def players_past_retention(*, now: datetime) -> list[Player]:
    """The former members whose every club's retention period has passed (three queries)."""
    former = Player.objects.filter(erased_at__isnull=True, memberships__isnull=True)
    left: dict[int, dict[int, datetime]] = {}
    rows = (
        HistoryEntry.objects.filter(
            action=HistoryAction.MEMBERSHIP_REMOVE,
            object_type="player",
            object_id__in=former.values("pk"),
        )
        .order_by()
        .values_list("object_id", "club_id")
        .annotate(left_at=Max("at"))
    )
    for player_id, club_id, left_at in rows:
        left.setdefault(player_id, {})[club_id] = left_at
    months = dict(
        Club.objects.filter(pk__in={c for clubs in left.values() for c in clubs}).values_list(
            "pk", "former_member_retention_months"
        )
    )

    def passed(club_id: int, left_at: datetime) -> bool:
        kept = months.get(club_id)
        return kept is not None and months_after(left_at, kept) <= now

    due = [
        player_id
        for player_id, clubs in left.items()
        if all(passed(club_id, left_at) for club_id, left_at in clubs.items())
    ]
    return list(Player.objects.filter(pk__in=due, memberships__isnull=True).order_by("pk"))


def retention_apply(*, now: datetime | None = None, dry_run: bool = False) -> list[int]:
    """Erase every former member past retention; the ids of those erased (or due, with
    `dry_run`). Each erasure is its own transaction: one refused leaves the others done."""
    now = now or timezone.now()
    due = players_past_retention(now=now)
    if dry_run:
        return [player.pk for player in due]
    erased = []
    for player in due:
        try:
            with transaction.atomic():
                # Looked at again under the player's lock: rejoined a club meanwhile, or
                # erased by another server's run, is no erasure now.
                row_lock(Player.objects.filter(pk=player.pk)).get()
                if Membership.objects.filter(player=player).exists():
                    continue
                player_erase(
                    player=player, by=None, reason_code=HistoryReason.ERASE_RETENTION, now=now
                )
        except ErasureError:
            continue
        erased.append(player.pk)
    Throttle.objects.filter(
        Q(locked_until__isnull=True) | Q(locked_until__lt=now),
        last_failure_at__lt=now - FORGET_AFTER,
    ).delete()
    return erased
