"""The cyclic garbage collector paused while a computation makes many small objects and no
cycles: the collector, run over and over while they pile up, scans every object of the
process each time it reaches its oldest generation.

The figures: the ratings of 300 evenings of 45,000 games, 1.2 s with it and 0.5 s without
(`competition.core.ratings.compute`); a season's import of 16 results files and its
ranking (`benchmarks/ranking.py`, SQLite), a median of 560 to 600 ms with it and 470 to
510 without, one full collection costing 51 ms of it.

The collector is the process's, not the thread's: a server's threads pause it together,
and it runs again when the last of them ends (a count under a lock: the first to pause
it remembers whether it ran, the last to end restores that).

Pure: the standard library only.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
#: The computations running with the collector paused, in every thread.
_running = 0
#: Whether the collector ran before the first of them paused it.
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off until the last computation that paused it ends, also on an error."""
    global _running, _was_enabled
    with _lock:
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and _was_enabled:
                gc.enable()
