"""Real-browser tests: Playwright driving Debian's Chromium against a live server.

Never a downloaded browser. Without /usr/bin/chromium the tests skip with the reason on a
developer machine, and fail in CI (CI=true), where .ci/run installs it.
"""

import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("BORDPUNT_CHROMIUM", "/usr/bin/chromium"))

# Playwright's sync API runs an event loop in the test thread; the test's own database
# calls (fixtures, asserts) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    # In CI a missing browser must fail the run: the launch below then fails loudly.
    if CHROMIUM.exists() or os.environ.get("CI", "").lower() == "true":
        return
    skip = pytest.mark.skip(
        reason=f"Chromium not found at {CHROMIUM}; install Debian's chromium package"
    )
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "nl-NL", "viewport": {"width": 1280, "height": 900}}
