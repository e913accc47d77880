"""The wheel, built from this checkout and installed into a virtual environment outside it,
and `bordpunt` run from there: what a club's laptop gets from `pipx install`.

Built and installed once per test session (a few seconds). The new environment gets the
wheel alone (`--no-deps`); the libraries it needs are found in this environment's
site-packages, named in a .pth file: a plain path line, so this environment's own
editable install of the checkout (its finder, in a .pth of its own) is not loaded. Every
module of Bordpunt then comes from the wheel, which the tests check.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path

    @property
    def python(self) -> Path:
        return self.venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

    @property
    def command(self) -> Path:
        return self.venv / ("Scripts/bordpunt.exe" if os.name == "nt" else "bin/bordpunt")

    def run(
        self, args: list[str], *, home: Path, cwd: Path, **env: str
    ) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.command), *args],
            cwd=cwd,
            env=environment(home, **env),
            capture_output=True,
            text=True,
            timeout=120,
        )


def environment(home: Path, **extra: str) -> dict[str, str]:
    """This process's environment without Django's, Bordpunt's or pytest's settings."""
    clean = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "BORDPUNT_", "PYTEST_", "EMAIL_"))
        and name not in {"DATABASE_URL", "PYTHONPATH", "REDIS_URL"}
    }
    return {**clean, "BORDPUNT_HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1", **extra}


def build_and_install(where: Path) -> Installed:
    dist = where / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(dist)],
        check=True,
        capture_output=True,
        cwd=where,
    )
    (wheel,) = dist.glob("bordpunt-*.whl")
    venv = where / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, cwd=where
    )
    installed = Installed(wheel=wheel, venv=venv)
    purelib = subprocess.run(
        [str(installed.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(installed.python),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        cwd=where,
    )
    return installed


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Running:
    process: subprocess.Popen
    url: str
    lines: list[str]


@contextmanager
def running(installed: Installed, home: Path, cwd: Path, *args: str) -> Iterator[Running]:
    """`bordpunt run --no-browser` until it says where it serves; stopped (SIGTERM, as a
    service manager would) on leaving."""
    process = subprocess.Popen(
        [str(installed.command), "run", "--no-browser", "--port", str(free_port()), *args],
        cwd=cwd,
        env=environment(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    url = ""
    assert process.stdout is not None
    for line in process.stdout:  # ends when the process does
        lines.append(line)
        if "http://" in line:
            url = line.split("http://", 1)[1].split()[0]
            url = "http://" + url
            break
    try:
        assert url, "".join(lines)
        yield Running(process=process, url=url, lines=lines)
    finally:
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=60)
        lines.append(rest)


MAKE_CLUB = """
import django; django.setup()
from hosting.services import club_first_run
club_first_run(club_name="De Goudse Letters", secretary_name="Anke", username="anke",
               password="lange-letters-zijn-fijn", rules="gouds8", competition_name="Competitie")
"""


def python(installed: Installed, home: Path, cwd: Path, *args: str) -> None:
    """The installed Python with Django set up for `home`: `args` must succeed."""
    done = subprocess.run(
        [str(installed.python), *args],
        cwd=cwd,
        env=environment(home, DJANGO_SETTINGS_MODULE="config.settings"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
