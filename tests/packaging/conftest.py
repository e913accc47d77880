import fcntl
import os
from pathlib import Path

import pytest

from tests.packaging.installed import MAKE_CLUB, Installed, build_and_install, python


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Installed:
    """The wheel built from this checkout and installed outside it, once per session; or
    the one .ci/run installed with its dependencies from the index, as a club would
    (BORDPUNT_TEST_WHEEL and BORDPUNT_TEST_VENV name it)."""
    if os.environ.get("BORDPUNT_TEST_VENV"):
        return Installed(
            wheel=Path(os.environ["BORDPUNT_TEST_WHEEL"]),
            venv=Path(os.environ["BORDPUNT_TEST_VENV"]),
        )
    # One build for the whole run: xdist's workers share the session's base folder, and the
    # first to take the lock builds; the others wait, then use it.
    # (Without xdist the base folder's parent is shared by every run: not that one.)
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "installed-wheel"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "venv").exists():
            return build_and_install(shared)
    (wheel,) = (shared / "dist").glob("bordpunt-*.whl")
    return Installed(wheel=wheel, venv=shared / "venv")


@pytest.fixture
def outside(tmp_path) -> Path:
    """A working directory that is not the checkout."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


@pytest.fixture
def club_home(installed, outside, tmp_path) -> Path:
    """A home whose club was made by this version, the server stopped."""
    home = tmp_path / "home"
    home.mkdir()
    python(installed, home, outside, "-m", "django", "migrate", "--verbosity=0")
    python(installed, home, outside, "-c", MAKE_CLUB)
    return home


# The browser as tests/e2e launches it: Debian's Chromium, skipped without it (not in CI).
from tests.e2e.conftest import (  # noqa: E402, F401
    browser_context_args,
    browser_type_launch_args,
    pytest_collection_modifyitems,
)
