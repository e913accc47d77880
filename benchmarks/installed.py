"""The installed Bordpunt (issue 42): the wheel's size, the time from `bordpunt run` to the
first page on an empty home and on a home with the demo club's season, and the memory of
the running server.

Builds the wheel from this checkout and installs it outside it, as tests/packaging does
(the libraries from this environment), then starts `bordpunt run --no-browser` on a fresh
home. Target: the first page within 5 s on the club's laptop.

    .venv/bin/python benchmarks/installed.py
"""

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.packaging.installed import build_and_install, environment, free_port  # noqa: E402


def resident_kb(pid: int) -> int:
    """The process's resident memory (Linux: /proc; elsewhere 0)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return 0
    for line in status.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def first_page(installed, home: Path, cwd: Path) -> tuple[float, float, int]:
    """Seconds from the start to the address printed and to the first page's last byte,
    and the server's memory after it (KB)."""
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(installed.command), "run", "--no-browser", "--port", str(port)],
        cwd=cwd,
        env=environment(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    url = ""
    for line in process.stdout:
        if "http://" in line:
            url = "http://" + line.split("http://", 1)[1].split()[0]
            break
    announced = time.perf_counter() - started
    with urllib.request.urlopen(url) as page:
        page.read()
    served = time.perf_counter() - started
    memory = resident_kb(process.pid)
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=60)
    return announced, served, memory


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        started = time.perf_counter()
        installed = build_and_install(where)
        print(
            f"wheel: {installed.wheel.name}, {installed.wheel.stat().st_size / 1e6:.1f} MB "
            f"(built and installed in {time.perf_counter() - started:.1f} s)"
        )
        cwd = where / "elsewhere"
        cwd.mkdir()
        empty = where / "empty-home"
        announced, served, memory = first_page(installed, empty, cwd)
        print(
            f"empty home: address after {announced:.2f} s, first page after {served:.2f} s "
            f"(migrations included), server {memory / 1024:.0f} MB"
        )
        announced, served, memory = first_page(installed, empty, cwd)
        print(
            f"second start: address after {announced:.2f} s, first page after {served:.2f} s, "
            f"server {memory / 1024:.0f} MB"
        )
        demo = where / "demo-home"
        demo.mkdir()
        for command in (["migrate", "--verbosity=0"], ["seed_demo", "--force"]):
            subprocess.run(
                [str(installed.python), "-m", "django", *command],
                cwd=cwd,
                env=environment(demo, DJANGO_SETTINGS_MODULE="config.settings"),
                check=True,
                capture_output=True,
            )
        announced, served, memory = first_page(installed, demo, cwd)
        print(
            f"home with the demo club's season: first page after {served:.2f} s, "
            f"server {memory / 1024:.0f} MB"
        )


if __name__ == "__main__":
    os.environ.pop("DJANGO_SETTINGS_MODULE", None)
    main()
