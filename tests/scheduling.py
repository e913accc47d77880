"""The order of a run on pytest-xdist's workers: the costly tests spread over the workers and
first in each one's share (`make check`, `make test`: `-n 2 --dist worksteal`).

worksteal hands worker i the i-th equal slice of the collection, in order, and an idle
worker takes half of what another still has to run, from its end. In file order the
site-wide walks and the crawl (minutes each) fell where they fell: two in one share, or
one started last while the other worker had nothing left to take. docs/testing.md has the
figures.
"""

from __future__ import annotations

import pytest

#: What a test costs when it has no `long` mark: a browser test some 10 s on CI's
#: PostgreSQL (a context, a live server, the flush after it), any other well under one.
BROWSER_TEST_SECONDS = 10


def cost(item: pytest.Item) -> float:
    """A test's rough cost in seconds, for the order of a run on several workers: its `long`
    mark's figure, else `BROWSER_TEST_SECONDS` for a browser test, else 0."""
    if (mark := item.get_closest_marker("long")) is not None:
        return float(mark.args[0])
    return BROWSER_TEST_SECONDS if item.get_closest_marker("e2e") else 0.0


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """After the deselection (`-m`, `-k`), on each of xdist's workers: the order of
    `worksteal_order` (a worker is not told the mode; the others send tests in the
    collection's order, which this changes only in which comes first). Every worker collects
    the same tests and computes the same order, as xdist requires."""
    workers = getattr(config, "workerinput", {}).get("workercount")
    if not workers or not items:
        return
    order = worksteal_order(
        [cost(item) for item in items], [_django_order(i) for i in items], workers
    )
    items[:] = [items[index] for index in order]


def worksteal_order(costs: list[float], classes: list[int], workers: int) -> list[int]:
    """The tests' new order, as indices into the old: the slices cut as worksteal will cut
    them (worker i the i-th of `workers` nearly equal slices), the costly tests (cost > 0)
    dealt out greedily, the costliest to the slice with the least cost so far, and the
    cheap ones filling the slices in their order. Within a slice the costly come first in
    each of pytest-django's classes (`classes`: 0 database, 1 commits, 2 no database),
    whose order still holds.

    >>> worksteal_order([0, 0, 300, 0, 100, 0, 120, 0], [0] * 8, 2)
    [2, 0, 1, 3, 6, 4, 5, 7]
    """
    sizes, left = [], len(costs)
    for remaining in range(workers, 0, -1):
        sizes.append(left // remaining)
        left -= sizes[-1]
    slices: list[list[int]] = [[] for _ in sizes]
    totals = [0.0] * workers
    for index in sorted((i for i, c in enumerate(costs) if c), key=lambda i: -costs[i]):
        chosen = min(
            (i for i in range(workers) if len(slices[i]) < sizes[i]), key=totals.__getitem__
        )
        slices[chosen].append(index)
        totals[chosen] += costs[index]
    cheap = iter(i for i, c in enumerate(costs) if not c)
    for piece, size in zip(slices, sizes, strict=True):
        piece.extend(next(cheap) for _ in range(size - len(piece)))
        piece.sort(key=lambda i: (classes[i], -costs[i], i))
    return [index for piece in slices for index in piece]


def _django_order(item: pytest.Item) -> int:
    """pytest-django's class of a test: 0 reads the database in a transaction rolled back,
    1 commits (`transaction=True`, a live server), 2 opens no database."""
    mark = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    if (mark and mark.kwargs.get("transaction")) or {"transactional_db", "live_server"} & fixtures:
        return 1
    return 0 if mark or "db" in fixtures else 2
