"""The crawl's axe-core is the release pinned in `tests.axe.VERSION`, with its licence
beside it (issue 52: the crawl runs the current release, not an older bundled copy)."""

from tests import axe


def test_the_vendored_axe_core_is_the_pinned_release():
    header = axe.SCRIPT_PATH.read_text(encoding="utf-8")[:40]
    assert header.startswith(f"/*! axe v{axe.VERSION}\n")
    assert (
        (axe.SCRIPT_PATH.parent / "LICENSE")
        .read_text()
        .startswith("Mozilla Public License, version 2.0")
    )
