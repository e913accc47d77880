"""Throttling wrong passwords and wrong invitation codes, with growing waits.

Failures are counted per key: a scope (`ThrottleScope`), a subject (a username, or the
player an invitation link names) and an address. A key's first failures are free; the
`limit`-th brings a wait of a minute, every further one doubles it up to the longest wait.
After a quiet day the failures are forgotten. Each check asks several keys at once (the
tight one for a username or invitation, the loose one for the address), so guessing many
usernames or codes from one address is slowed too, while the keys that hold the username
or invitation never reach another address: nobody locks someone else out from another
device.

The counts live in the database (`clubs.models.Throttle`): several app servers share it.
Never imports competitions or games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from ipaddress import ip_address

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import ngettext

from clubs.locks import row_lock
from clubs.models import Throttle, ThrottleScope

FIRST_WAIT = timedelta(minutes=1)
FORGET_AFTER = timedelta(days=1)
#: More doublings than this would only overflow: the longest wait has long been reached.
MAX_DOUBLINGS = 30


@dataclass(frozen=True)
class Policy:
    """How long a key waits after a number of failures in a row."""

    limit: int
    first_wait: timedelta = FIRST_WAIT
    longest_wait: timedelta = timedelta(hours=1)

    def wait(self, failures: int) -> timedelta:
        """The wait after the `failures`-th failure in a row.

        >>> policy = Policy(limit=3, longest_wait=timedelta(minutes=5))
        >>> [int(policy.wait(n).total_seconds() // 60) for n in range(1, 8)]
        [0, 0, 1, 2, 4, 5, 5]
        """
        if failures < self.limit:
            return timedelta(0)
        doublings = min(failures - self.limit, MAX_DOUBLINGS)
        return min(self.first_wait * 2**doublings, self.longest_wait)


@dataclass(frozen=True)
class Key:
    scope: str
    subject: str
    address: str


def policy(scope: str) -> Policy:
    """Read from the settings each time, so a deployment (or a test) can change them."""
    return Policy(
        limit=settings.THROTTLE_LIMITS[scope],
        longest_wait=timedelta(minutes=settings.THROTTLE_LONGEST_WAIT_MINUTES),
    )


def client_ip(request: HttpRequest) -> str:
    """The visitor's address: the connection's own, unless the connection comes from a
    trusted proxy (`settings.TRUSTED_PROXIES`). Then X-Forwarded-For is read from the right,
    past every trusted proxy, to the first address no trusted proxy has: the one that
    connected to our outermost proxy. Entries further left are whatever the visitor chose
    to send, and so is the whole header from anyone else: a visitor cannot dodge a
    throttle by sending a new address with every try."""
    remote = request.META.get("REMOTE_ADDR", "")
    address = remote
    if not trusted_proxy(remote):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    for entry in reversed(forwarded.split(",")):
        entry = entry.strip()
        if not _is_address(entry):
            break  # not written by a proxy of ours: keep the last hop we trust
        address = entry
        if not trusted_proxy(entry):
            break
    return address


def _is_address(text: str) -> bool:
    try:
        ip_address(text)
    except ValueError:
        return False
    return True


def trusted_proxy(address: str) -> bool:
    """Whether a connection from ``address`` comes from one of our proxies
    (`settings.TRUSTED_PROXIES`), whose headers about the request are believed."""
    try:
        parsed = ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in settings.TRUSTED_PROXIES)


def _address(address: str) -> str:
    return (address or "")[:64]


def login_keys(*, username: str | None, address: str) -> list[Key]:
    """The username as typed, whether or not an account has it: the wait then says
    nothing about which usernames exist. Case folded, so "Anke" counts with "anke"."""
    subject = (username or "").replace("\x00", "").casefold()[:150]
    address = _address(address)
    return [
        Key(ThrottleScope.LOGIN_ACCOUNT, subject, address),
        Key(ThrottleScope.LOGIN_ADDRESS, "", address),
    ]


def invite_keys(*, player_id: int | None, address: str) -> list[Key]:
    """A wrong code has no player of its own: it counts against the player the link names
    (from this address only), and without a link against the address alone."""
    address = _address(address)
    keys = [Key(ThrottleScope.INVITE_ADDRESS, "", address)]
    if player_id is not None:
        keys.insert(0, Key(ThrottleScope.INVITE_PLAYER, str(player_id), address))
    return keys


def _matching(keys: list[Key]) -> Q:
    query = Q(pk__in=[])
    for key in keys:
        query |= Q(scope=key.scope, subject=key.subject, address=key.address)
    return query


def minutes(wait: timedelta) -> int:
    """A wait as people are told it: whole minutes, rounded up."""
    return max(1, math.ceil(wait.total_seconds() / 60))


def wait_message(wait_minutes: int) -> str:
    """The same words for every key: they never tell whether a username exists."""
    return ngettext(
        "Too many failed attempts. Try again in %(minutes)d minute.",
        "Too many failed attempts. Try again in %(minutes)d minutes.",
        wait_minutes,
    ) % {"minutes": wait_minutes}


def mail_wait_message(wait_minutes: int) -> str:
    """For mails that a visitor's typing sends (clubs/views.py, hosting/, config/security.py)."""
    return ngettext(
        "Too many mails. Try again in %(minutes)d minute.",
        "Too many mails. Try again in %(minutes)d minutes.",
        wait_minutes,
    ) % {"minutes": wait_minutes}


def throttle_wait(keys: list[Key], *, now: datetime | None = None) -> int:
    """Minutes until these keys may try again; 0 when they may now. One query."""
    now = now or timezone.now()
    until = Throttle.objects.filter(_matching(keys), locked_until__gt=now).aggregate(
        until=Max("locked_until")
    )["until"]
    return minutes(until - now) if until is not None else 0


@transaction.atomic
def throttle_fail(keys: list[Key], *, now: datetime | None = None) -> int:
    """Count a failure under every key; the minutes they now wait (0: none yet)."""
    now = now or timezone.now()
    until = None
    for key in keys:
        row, _created = row_lock(Throttle.objects).get_or_create(
            scope=key.scope,
            subject=key.subject,
            address=key.address,
            defaults={"last_failure_at": now},
        )
        if now - row.last_failure_at > FORGET_AFTER:
            row.failures = 0
        row.failures += 1
        row.last_failure_at = now
        wait = policy(key.scope).wait(row.failures)
        row.locked_until = now + wait if wait else None
        row.save(update_fields=["failures", "last_failure_at", "locked_until"])
        if row.locked_until is not None and (until is None or row.locked_until > until):
            until = row.locked_until
    return minutes(until - now) if until is not None else 0


def throttle_clear(keys: list[Key]) -> None:
    """A success forgets the failures of these keys (not of the address: an attacker
    would otherwise reset it with an account of their own)."""
    Throttle.objects.filter(_matching(keys)).delete()
