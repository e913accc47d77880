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


def test_the_tiers_hold_what_their_markers_say(request):
    """`make check` (docs/testing.md) leaves out the tests marked `e2e` and `installed`,
    markers that tests/conftest.py gives by what a test uses: every test of this run that
    needs Playwright's browser is `e2e`, and exactly the installed wheel's are `installed`.
    Under `make check` this run holds no browser test and no wheel test at all (in CI's
    SQLite step no walk of the site either); under `make test` it holds every test, and
    each one's marks are checked."""
    packaging = REPO / "tests" / "packaging"
    items = request.session.items
    for item in items:
        if "browser" in item.fixturenames:
            assert item.get_closest_marker("e2e"), item.nodeid
        in_packaging = packaging in Path(item.path).parents
        assert bool(item.get_closest_marker("installed")) == in_packaging, item.nodeid
    left_out = {
        marker
        for marker in ("e2e", "installed", "walk")
        if f"not {marker}" in request.config.getoption("markexpr")
    }
    for marker in left_out:
        assert not [item for item in items if item.get_closest_marker(marker)], marker


def test_the_pure_tests_read_no_database_and_are_the_pure_codes(request):
    """CI runs the tests marked `pure` on one database only (docs/testing.md): they are the
    tests of `rules/` and of the apps' `core` modules, none of which may open the database
    (pytest-django refuses a test without its database fixtures)."""
    for item in request.session.items:
        if not item.get_closest_marker("pure"):
            continue
        parts = Path(item.path).relative_to(REPO).parts
        assert (
            parts[0] == "rules"
            or parts[:2] == ("tests", "rules")
            or "core" in str(Path(*parts).with_suffix("")).split("/")
        ), item.nodeid
        assert not item.get_closest_marker("django_db"), item.nodeid
        assert "db" not in item.fixturenames and "transactional_db" not in item.fixturenames
