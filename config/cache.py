"""The shared cache (Redis) as an accelerator: without it pages are slower, never broken.

Django's `RedisCache` raises redis's `ConnectionError` or `TimeoutError` from every call
while the server is down or out of reach, and every page that touches the cache answered
500 (issue 51: the login, every logged-in page through its session, and the public pages
whose standings or whole page are cached). Django has no setting to ignore them
(`IGNORE_EXCEPTIONS` is django-redis's, another library), hence this one subclass: while
Redis fails, a read finds nothing and a write keeps nothing, so every page computes what
it would have read; sessions (`cached_db`) are read from and written to the database;
the throttles count in the database anyway (clubs/throttle.py). Only `incr` and `decr`
still raise: a count that silently stopped counting would let a limit through.

After a failure this process does not ask Redis again for `RETRY_SECONDS`: an unreachable
host would cost the connect timeout on every call, several calls a page. The failure is
logged once per outage, and so is the recovery.

A write or delete that failed may have left an old entry in Redis (a session deleted at
logout while Redis was out of reach, not gone): the first call that reaches Redis again
after such a failure empties the cache (`clear`, a FLUSHDB: REDIS_URL's database is
Bordpunt's alone). Nothing in it is needed: every entry is made again from the database.

`/gezond/` asks `answers()`, past the pause, so a monitor sees the outage and its end at
once (config/health.py).

Imports nothing of the project.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError, TimeoutError

logger = logging.getLogger(__name__)

#: How long a process leaves Redis alone after a failure before it tries again.
RETRY_SECONDS = 5.0
#: What a failing Redis may cost one call: a server on the local network answers in a
#: millisecond; redis-py's own default is 5 s, several times a page.
CONNECT_TIMEOUT_SECONDS = 1.0
TIMEOUT_SECONDS = 1.0
FAILURES = (ConnectionError, TimeoutError)

T = TypeVar("T")


class _State:
    """One Redis location's state as this process sees it, shared by its threads (Django
    makes a cache backend per thread). Another server keeps its own view: nothing in it
    is needed elsewhere."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.paused_until = 0.0
        self.failing = False
        self.stale = False


_states: dict[str, _State] = {}
_states_lock = threading.Lock()


def _state(location: str) -> _State:
    with _states_lock:
        return _states.setdefault(location, _State())


class DegradingRedisCache(RedisCache):
    """Django's RedisCache that answers "nothing cached" while Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = {
            "socket_connect_timeout": CONNECT_TIMEOUT_SECONDS,
            "socket_timeout": TIMEOUT_SECONDS,
            **params.get("OPTIONS", {}),
        }
        super().__init__(server, {**params, "OPTIONS": options})
        self._state = _state(server)

    def _degrade(self, call: Callable[[], T], fallback: T, *, writes: bool) -> T:
        state = self._state
        if state.paused_until > time.monotonic():
            state.stale = state.stale or writes
            return fallback
        try:
            emptied = state.stale
            if emptied:
                super().clear()  # what failed writes may have left
                state.stale = False
            result = call()
        except FAILURES as error:
            self._failed(error, writes=writes)
            return fallback
        if state.failing:
            with state.lock:
                state.failing = False
            logger.warning("The cache (Redis) answers again%s.", " (emptied)" if emptied else "")
        return result

    def _failed(self, error: Exception, *, writes: bool) -> None:
        state = self._state
        with state.lock:
            state.paused_until = time.monotonic() + RETRY_SECONDS
            state.stale = state.stale or writes
            first = not state.failing
            state.failing = True
        if first:
            logger.error("The cache (Redis) fails, pages are computed without it: %s", error)

    def answers(self) -> bool:
        """Whether Redis answers right now, past the pause after a failure."""
        self._state.paused_until = 0.0
        return self._degrade(
            lambda: bool(self._cache.get_client(write=True).ping()), False, writes=False
        )

    # Django's cache API, each call degraded: what a failing Redis answers instead.

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._degrade(partial(super().add, key, value, timeout, version), False, writes=True)

    def get(self, key, default=None, version=None):
        return self._degrade(partial(super().get, key, default, version), default, writes=False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._degrade(partial(super().set, key, value, timeout, version), None, writes=True)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._degrade(partial(super().touch, key, timeout, version), False, writes=True)

    def delete(self, key, version=None):
        return self._degrade(partial(super().delete, key, version), False, writes=True)

    def get_many(self, keys, version=None):
        return self._degrade(partial(super().get_many, keys, version), {}, writes=False)

    def has_key(self, key, version=None):
        return self._degrade(partial(super().has_key, key, version), False, writes=False)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._degrade(
            partial(super().set_many, data, timeout, version), list(data), writes=True
        )

    def delete_many(self, keys, version=None):
        self._degrade(partial(super().delete_many, keys, version), None, writes=True)

    def clear(self):
        self._degrade(super().clear, None, writes=True)
