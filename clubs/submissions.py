"""A form sent twice is saved once: the key per submission.

The forms a phone may send again (the board's move, a round's results, a duplicate slip)
carry a hidden key (`submission_field`), made when the page is rendered. A phone that lost
its answer or its connection keeps what was typed and sends it again with the same key
(static/js/offline.js); the server remembers each key it applied (`Submission`), in the
same transaction as the save, so a repeat, or two copies at once, saves nothing twice:
the caller answers a repeat as it answered the first (its page as it is now).

Without a key (an old page, a script) a form is saved as always; the version fields then
refuse a repeat as out of date.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from clubs.models import Submission

#: The hidden field's name in every form that has a key.
FIELD = "submission"
#: How long a key is remembered: a phone is back on the Wi-Fi within an evening.
KEPT = timedelta(days=3)
#: One save in this many prunes the old keys: no extra write on most saves.
PRUNE_EVERY = 64

T = TypeVar("T")


class AlreadySaved(Exception):
    """This key was saved before (or just now, by a copy sent at the same time)."""

    def __init__(self, submission: Submission | None) -> None:
        super().__init__("already saved")
        self.submission = submission


def new_key() -> str:
    """A key for a form being rendered."""
    return str(uuid.uuid4())


def submission_key(data: Any) -> uuid.UUID | None:
    """The key a form sent, or None when it sent none or no key (a bad one saves as none)."""
    value = data.get(FIELD, "")
    if not isinstance(value, str) or not value:
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def submission_applied(key: uuid.UUID | None) -> Submission | None:
    """The saved submission with this key, if any."""
    if key is None:
        return None
    return Submission.objects.filter(key=key).first()


def submission_once(
    key: uuid.UUID | None,
    *,
    by: AbstractBaseUser | AnonymousUser | None,
    kind: str,
    write: Callable[[], T],
    led_to: Callable[[T], str | None] = lambda _result: "",
    now: Any = None,
) -> T:
    """Run `write` and remember `key` in the same transaction. Raises `AlreadySaved` when
    the key was saved before, or by a copy that won the race: then `write`'s changes
    are rolled back, or `write` was refused because the copy changed what it checks (a
    version), and either way nothing is saved twice. `led_to` says what the write saved,
    for the record; None when it saved nothing (a form sent back as it was): then no key
    is kept, as a repeat saves nothing either."""
    if key is None:
        return write()
    known = submission_applied(key)
    if known is not None:
        raise AlreadySaved(known)
    now = now or timezone.now()
    try:
        with transaction.atomic():
            result = write()
            what = led_to(result)
            if what is not None:
                Submission.objects.create(
                    key=key,
                    by=by if isinstance(by, User) else None,  # every account is a User
                    made=now,
                    kind=kind,
                    led_to=what[:60],
                )
    except Exception:
        # A copy sent at the same time saved first: its key is taken (IntegrityError), or
        # what this one checked (a version, a slip already in) refused it. The copy's
        # answer is the answer.
        known = submission_applied(key)
        if known is not None:
            raise AlreadySaved(known) from None
        raise
    if key.int % PRUNE_EVERY == 0:
        Submission.objects.filter(made__lt=now - KEPT).delete()
    return result
