"""Memory and time of `import_club` refusing hostile archives and restoring a big club.

Each case runs the command in a subprocess of its own and prints that process's peak
memory (VmHWM, including Python and Django: the first line shows them alone) and its time
(with Django's start). The cases:

- a zip bomb like the tester's: 270 kB that unpack to 270 MB (target: under 200 MB);
- the same bomb with a header that understates its size (refused by the packing ratio);
- dense JSON within the size limits (`[{},{},...]`, refused before it is parsed);
- a real 300-player club (300 entrants x 30 rounds, 4,500 games, 40 move by move: the
  club `benchmarks/backup.py` builds), restored under another short name.

    .venv/bin/python benchmarks/restore_safety.py [--entrants 300] [--rounds 30]
"""

import argparse
import io
import os
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fresh_database import django_on_a_fresh_database  # noqa: E402


def _zipped(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, value in members:
            archive.writestr(name, value)
    return buffer.getvalue()


def _understated(data: bytes, name: str, declared: int) -> bytes:
    """`data` with `name`'s unpacked size in both its headers replaced by `declared`."""
    raw = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        struct.pack_into("<L", raw, archive.getinfo(name).header_offset + 22, declared)
    at = 0
    while (at := raw.find(b"PK\x01\x02", at)) >= 0:
        length = struct.unpack_from("<H", raw, at + 28)[0]
        if raw[at + 46 : at + 46 + length] == name.encode():
            struct.pack_into("<L", raw, at + 24, declared)
        at += 4
    return bytes(raw)


#: The child: the command as manage.py runs it, then its own peak memory (VmHWM: the
#: high-water mark of this process after exec, unlike ru_maxrss, which a child inherits from
#: the parent that forked it).
_CHILD = """
import runpy, sys
sys.argv = ["manage.py", *sys.argv[1:]]
try:
    runpy.run_path("manage.py", run_name="__main__")
finally:
    peak = [line for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
    print("PEAK", int(peak.split()[1]) // 1024, file=sys.stderr)
"""


def _run(label: str, path: Path | None, *args: str) -> None:
    """The command in a child process: its peak memory, time and first line of output."""
    start = time.perf_counter()
    command = ["import_club", str(path), *args] if path else ["import_club", "--help"]
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *command],
        capture_output=True,
        text=True,
        env=os.environ,
        cwd=ROOT,
    )
    elapsed = time.perf_counter() - start
    peak = next(line for line in done.stderr.splitlines() if line.startswith("PEAK")).split()[1]
    said = [
        line
        for line in (done.stdout + done.stderr).splitlines()
        if line.strip() and not line.startswith("PEAK")
    ]
    size = f"{path.stat().st_size / 1024:6.0f} KiB" if path else " " * 10
    print(
        f"{label:34s} {size}  {elapsed:5.1f} s  peak {int(peak):4d} MB  "
        f"exit {done.returncode}: {said[0][:70] if said else ''}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--with-moves", type=int, default=40)
    args = parser.parse_args()

    django_on_a_fresh_database()
    # The children use the same database (DATABASE_URL is set now) and production settings.
    from archives.backup import club_archive
    from benchmarks.backup import big_club

    folder = Path(tempfile.mkdtemp())
    small = [("history.json", b"[]")]
    _run("Python and Django alone (--help)", None)
    bomb = folder / "bomb.zip"
    bomb.write_bytes(_zipped([*small, ("club.json", b"[" + b" " * (270 * 1024 * 1024))]))
    _run("zip bomb (declared 270 MB)", bomb)
    liar = folder / "liar.zip"
    liar.write_bytes(_understated(bomb.read_bytes(), "club.json", 100 * 1024 * 1024))
    _run("zip bomb (header says 100 MB)", liar)
    dense = folder / "dense.zip"
    dense.write_bytes(_zipped([*small, ("club.json", b"[" + b"{}," * 333_000 + b"{}]")]))
    _run("dense JSON (1 MB of [{},{},...])", dense)

    start = time.perf_counter()
    competition = big_club(args.entrants, args.rounds, args.with_moves)
    real = folder / "club.zip"
    real.write_bytes(club_archive(club=competition.club))
    database_kind = os.environ["DATABASE_URL"].split(":")[0]
    print(
        f"built {args.entrants} entrants x {args.rounds} rounds in "
        f"{time.perf_counter() - start:.1f} s ({database_kind})"
    )
    _run(f"real club ({args.entrants} players)", real, "--slug", "bench-kopie")


if __name__ == "__main__":
    main()
