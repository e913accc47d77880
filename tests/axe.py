"""The axe-core the browser crawl runs (tests/e2e/test_crawl.py): the release vendored in
static/vendor/axe-core, never a CDN's nor the older copy inside a Python package, and the
version it must be (tests/test_axe_version.py reads the file's own header)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

#: The release in static/vendor/axe-core; the crawl checks `axe.version` in the browser.
VERSION = "4.14.1"
SCRIPT_PATH = Path(settings.BASE_DIR) / "static" / "vendor" / "axe-core" / "axe.min.js"


def script() -> str:
    return SCRIPT_PATH.read_text(encoding="utf-8")
