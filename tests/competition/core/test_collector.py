"""The cyclic collector paused by computations in several threads at once: off while any
of them runs, on again when the last one ends, as it was before the first."""

import gc
import threading

import pytest

from competition.core.collector import collector_paused


@pytest.fixture(autouse=True)
def collector_on():
    gc.enable()
    yield
    gc.enable()


def test_paused_inside_on_again_after_also_nested_and_on_an_error():
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), collector_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


@pytest.mark.parametrize("first_to_end", ["A", "B"])
def test_two_threads_the_collector_runs_again_when_the_last_ends(first_to_end):
    """A starts, B starts, one ends while the other still runs (off), then the other (on)."""
    started = {name: threading.Event() for name in "AB"}
    end = {name: threading.Event() for name in "AB"}
    ended = {name: threading.Event() for name in "AB"}

    def computation(name):
        with collector_paused():
            started[name].set()
            end[name].wait(10)
        ended[name].set()

    threads = {name: threading.Thread(target=computation, args=(name,)) for name in "AB"}
    threads["A"].start()
    started["A"].wait(10)
    threads["B"].start()
    started["B"].wait(10)
    second_to_end = "B" if first_to_end == "A" else "A"
    end[first_to_end].set()
    ended[first_to_end].wait(10)
    assert not gc.isenabled(), f"{second_to_end} still runs"
    end[second_to_end].set()
    for thread in threads.values():
        thread.join(10)
    assert gc.isenabled()
