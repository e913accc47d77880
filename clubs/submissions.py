"""A form sent twice is saved once: the key per submission.

The forms a phone may send again (the board's move, a round's results, a duplicate slip)
carry a hidden key (`submission_field`), made when the page is rendered. A phone that lost
its answer or its connection keeps what was typed and sends it again with the same key
(static/js/offline.js); the server remembers each key it applied (`Submission`), in the
same transaction as the save, so a repeat, or two copies at once, saves nothing twice:
the caller answers a repeat as it answered the first (its page as it is now).

A form changed after it was first sent (390 typed, sent, its answer lost, then 399 sent
with the same key) is not a repeat: the key remembers a digest of what the form said
(`submission_sent`), and `AlreadySaved.edited` tells the caller to refuse the change in
words (what is saved, that the change was not), never to drop it in silence.

Without a key (an old page, a script) a form is saved as always; the version fields then
refuse a repeat as out of date.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
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
#: Fields that are not what the form says: the key itself and the CSRF token. Nor is the
#: version of the page it was typed on (`version`, `form-0-version`): the board sends a
#: move that waited behind another on the version that one's save gave, so one move may
#: go out on two versions.
NOT_DIGESTED = frozenset({"csrfmiddlewaretoken", FIELD, "version"})

T = TypeVar("T")


class AlreadySaved(Exception):
    """This key was saved before (or just now, by a copy sent at the same time).
    `edited`: the form says something else now than when it was saved: a change that
    was not saved, for the caller to refuse in words."""

    def __init__(self, submission: Submission, *, edited: bool = False) -> None:
        super().__init__("already saved, changed since" if edited else "already saved")
        self.submission = submission
        self.edited = edited


@dataclass(frozen=True)
class Sent:
    """What a form sent, as far as sending it again goes: its key (None without one) and
    a digest of the rest of its fields."""

    key: uuid.UUID | None
    digest: str


def new_key() -> str:
    """A key for a form being rendered."""
    return str(uuid.uuid4())


def _key(data: Any) -> uuid.UUID | None:
    """The key a form sent, or None when it sent none or no key (a bad one saves as none)."""
    value = data.get(FIELD, "")
    if not isinstance(value, str) or not value:
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def _digest(data: Any) -> str:
    """What the form says, as a SHA-256 of its fields in name order (a QueryDict's every
    value), without the ones that are not what it says (`NOT_DIGESTED`)."""
    fields = sorted(
        (name, data.getlist(name))
        for name in data
        if name not in NOT_DIGESTED and not name.endswith("-version")
    )
    return hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode()).hexdigest()


def submission_sent(data: Any) -> Sent:
    """The key and the digest of a posted form (`request.POST`)."""
    key = _key(data)
    return Sent(key, _digest(data) if key is not None else "")


def _already_saved(sent: Sent) -> AlreadySaved | None:
    known = Submission.objects.filter(key=sent.key).first() if sent.key else None
    if known is None:
        return None
    # A key saved before digests were kept says nothing of its text: a repeat.
    return AlreadySaved(known, edited=bool(known.digest) and known.digest != sent.digest)


def submission_check(sent: Sent) -> None:
    """Raises `AlreadySaved` when the form's key was saved before (`edited` when the form
    says something else now). For a caller that answers a repeat before reading its form."""
    if (repeat := _already_saved(sent)) is not None:
        raise repeat


def submission_once(
    sent: Sent,
    *,
    by: AbstractBaseUser | AnonymousUser | None,
    kind: str,
    write: Callable[[], T],
    led_to: Callable[[T], str | None] = lambda _result: "",
    now: Any = None,
) -> T:
    """Run `write` and remember the form's key in the same transaction. Raises `AlreadySaved` when
    the key was saved before, or by a copy that won the race: then `write`'s changes
    are rolled back, or `write` was refused because the copy changed what it checks (a
    version), and either way nothing is saved twice. `led_to` says what the write saved,
    for the record; None when it saved nothing (a form sent back as it was): then no key
    is kept, as a repeat saves nothing either. `AlreadySaved.edited` says that the form
    was changed after it was first sent: the change is not saved."""
    key = sent.key
    if key is None:
        return write()
    submission_check(sent)
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
                    digest=sent.digest,
                )
    except Exception:
        # A copy sent at the same time saved first: its key is taken (IntegrityError), or
        # what this one checked (a version, a slip already in) refused it. The copy's
        # answer is the answer.
        if (repeat := _already_saved(sent)) is not None:
            raise repeat from None
        raise
    if key.int % PRUNE_EVERY == 0:
        Submission.objects.filter(made__lt=now - KEPT).delete()
    return result
