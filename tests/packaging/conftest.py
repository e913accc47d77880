import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.packaging.installed import MAKE_CLUB, Installed, build_and_install, python


@contextmanager
def once_per_run(tmp_path_factory, name: str) -> Iterator[Path]:
    """A folder shared by the run's xdist workers, held under a lock: the first worker to
    take it makes what goes in it, the others wait, then use it. (Without xdist the base
    folder's parent is shared by every run: not that one.)"""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield shared


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
    with once_per_run(tmp_path_factory, "installed-wheel") as shared:
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


@pytest.fixture(scope="session")
def club_home_made(installed, tmp_path_factory) -> Path:
    """A home whose club was made by this version, once per run (as the wheel is built):
    the migrations and the club cost some 6 CPU seconds in the installed Python."""
    with once_per_run(tmp_path_factory, "club-home") as shared:
        home = shared / "home"
        if not (shared / "made").exists():
            outside = shared / "elsewhere"
            for folder in (home, outside):
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
            python(installed, home, outside, "-m", "django", "migrate", "--verbosity=0")
            python(installed, home, outside, "-c", MAKE_CLUB)
            (shared / "made").touch()
    return home


@pytest.fixture
def club_home(club_home_made, tmp_path) -> Path:
    """A home whose club was made by this version, the server stopped: a copy of the
    run's one."""
    return shutil.copytree(club_home_made, tmp_path / "home")


# The browser as tests/e2e launches it: Debian's Chromium, skipped without it (not in CI).
from tests.e2e.conftest import (  # noqa: E402, F401
    browser_context_args,
    browser_type_launch_args,
    pytest_collection_modifyitems,
)
