"""What the suite spends, in CPU seconds per test file: `pytest -p tests.cpu_time ...`.

On a shared machine the wall time says how busy the neighbours were; the CPU time of a test
and of the processes it started (Chromium, servers, `manage.py`) says what the test costs.
Each test's CPU is this process's (every thread: the live server's too) plus that of its
child processes: those still running, read from /proc (Linux), and those that ended and
were waited for. A child that ended under a grandchild's parent (a Chromium renderer) is
counted only while it ran at the two readings, so browser tests read a little low.

With xdist each worker writes its figures to CPU_TIME_DIR (default: a folder in the
temporary directory) and the controller prints the files that cost most, and the sum.

Chromium's renderers end under the browser process, not under pytest, between the two
readings: the columns above miss most of a browser test's cost (the crawl: 150 of its 380
CPU seconds). Run in one process (`-p no:xdist`) on an otherwise idle machine, the plugin
adds the column "machine": the CPU the whole machine spent while the test ran
(/proc/stat), which counts every process, and ranks by it.
docs/testing.md has the figures this measured.
"""

from __future__ import annotations

import json
import os
import resource
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")
SHOWN = 30


def _descendants_cpu() -> float:
    """CPU seconds of this process's living descendants (not of itself)."""
    me = os.getpid()
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        parent[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / TICKS
    total = 0.0
    for pid, seconds in cpu.items():
        ancestor = parent.get(pid, 0)
        while ancestor > 1 and ancestor != me:
            ancestor = parent.get(ancestor, 0)
        if ancestor == me:
            total += seconds
    return total


def _machine_cpu() -> float:
    """CPU seconds the whole machine has been busy (every process, the kernel's work for
    them): /proc/stat's first line without idle and I/O wait."""
    with open("/proc/stat") as stat:
        user, nice, system, _idle, _iowait, irq, softirq, steal = map(
            int, stat.readline().split()[1:9]
        )
    return (user + nice + system + irq + softirq + steal) / TICKS


def _reading() -> tuple[float, float, float, float]:
    """(wall, this process's CPU, its children's CPU, the machine's CPU) now."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (
        time.perf_counter(),
        time.process_time(),
        children.ru_utime + children.ru_stime + _descendants_cpu(),
        _machine_cpu(),
    )


def _folder() -> Path:
    return Path(os.environ.get("CPU_TIME_DIR", Path(tempfile.gettempdir()) / "bordpunt-cpu"))


_figures: dict[str, list[float]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = _reading()
    yield
    after = _reading()
    _figures[item.nodeid] = [round(b - a, 3) for a, b in zip(before, after, strict=True)]


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput"):  # the controller, or a run without xdist
        folder = _folder()
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.json"):
            old.unlink()


def pytest_sessionfinish(session):
    folder = _folder()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    if _figures:
        (folder / f"{worker}.json").write_text(
            json.dumps({"tests": _figures, "process": usage.ru_utime + usage.ru_stime})
        )


def pytest_terminal_summary(terminalreporter):
    tests: dict[str, list[float]] = {}
    files = list(_folder().glob("*.json"))
    for path in files:
        tests.update(json.loads(path.read_text())["tests"])
    # The machine's CPU during a test is that test's only when nothing else ran beside it:
    # one process (`-p no:xdist` or `-n 1`) on an otherwise idle machine.
    alone = len(files) == 1
    per_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0])
    for nodeid, (wall, own, children, machine) in tests.items():
        row = per_file[nodeid.split("::")[0]]
        for column, value in enumerate((wall, own, children, machine, 1)):
            row[column] += value
    write = terminalreporter.write_line
    terminalreporter.section("CPU seconds per test file (tests.cpu_time)")
    write(
        f"{'CPU':>8} {'own':>7} {'children':>8} {'wall':>8} {'tests':>5}"
        + (f" {'machine':>8}" if alone else "")
        + "  file"
    )
    ranked = sorted(
        per_file.items(), key=lambda item: -(item[1][3] if alone else item[1][1] + item[1][2])
    )
    for name, (wall, own, children, machine, count) in ranked[:SHOWN]:
        write(
            f"{own + children:8.1f} {own:7.1f} {children:8.1f} {wall:8.1f} {int(count):5d}"
            + (f" {machine:8.1f}" if alone else "")
            + f"  {name}"
        )
    own, children, machine = (sum(row[i] for row in per_file.values()) for i in (1, 2, 3))
    write(
        f"{own + children:8.1f} {own:7.1f} {children:8.1f}"
        + (f" {'':>8} {'':>5} {machine:8.1f}" if alone else "")
        + f"  in all, {len(tests)} tests"
    )
