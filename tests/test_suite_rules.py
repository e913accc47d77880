"""The test suite's own rules: docstring examples run, and CI never passes untested.

The conformance tests read real recorded games from ../shared/gcg. A developer without
them sees the tests skipped with the reason; in CI (CI=true) their absence fails the run.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CONFORMANCE = [
    "tests/rules/test_gcg.py::test_real_games_replay_to_the_recorded_scores",
    "tests/rules/test_gcg.py::test_real_games_events",
    "tests/rules/test_cli.py::test_replay_text",
]


def run_pytest(*args: str, ci: bool, gcg_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "BORDPUNT_GCG_DIR": str(gcg_dir), "CI": "true" if ci else ""}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "--no-header", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_missing_recorded_games_fail_in_ci_and_skip_elsewhere(tmp_path):
    missing = tmp_path / "geen-gcg"
    in_ci = run_pytest(*CONFORMANCE, ci=True, gcg_dir=missing)
    assert in_ci.returncode == 1, in_ci.stdout
    assert "3 failed" in in_ci.stdout and "skipped" not in in_ci.stdout
    at_home = run_pytest(*CONFORMANCE, "-rs", ci=False, gcg_dir=missing)
    assert at_home.returncode == 0, at_home.stdout
    assert "3 skipped" in at_home.stdout and f"{missing} is missing" in at_home.stdout


def test_docstring_examples_run(pytestconfig):
    assert pytestconfig.getoption("doctestmodules")


@pytest.mark.parametrize(
    "folder", ["rules", "clubs", "competition", "games", "duplicate", "config"]
)
def test_every_app_is_searched_for_examples(pytestconfig, folder):
    assert folder in pytestconfig.getini("testpaths")


def collected(*args: str) -> set[str]:
    """The test ids pytest collects with `args`, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "--collect-only", "-q", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return {line for line in done.stdout.splitlines() if "::" in line}


def test_make_check_leaves_out_exactly_the_browser_and_installed_wheel_tests():
    """`make check` (docs/testing.md) selects by the markers that tests/conftest.py gives
    by what a test uses: no browser test and no installed-wheel test gets into the fast
    tier, and nothing else is left out: the points test's parameter named `page` is no
    browser page."""
    paths = ["tests/e2e", "tests/packaging", "tests/competition/test_points_agree.py"]
    slow = collected("-m", "e2e or installed", *paths)
    fast = collected("-m", "not e2e and not installed", *paths)
    assert {test.split("/")[1] for test in slow} == {"e2e", "packaging"}
    assert fast and {test.split("::")[0] for test in fast} == {paths[2]}
