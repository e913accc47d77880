"""Compile the rules engine (the pure package ``rules/``) with mypyc, out of tree.

``make compiled`` runs it. The extension modules go to ``build/compiled/rules/`` with the
word lists (``rules/data/``) beside them; the checkout's ``rules/*.py`` stay as they are,
so editing them never silently runs stale compiled code. A server puts ``build/compiled``
first on ``sys.path`` (``PYTHONPATH``) to use the compiled engine; docs/deployment.md says
how. The wheel clubs install stays pure Python.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from mypyc.build import mypycify
from setuptools import Distribution

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "build" / "compiled"
#: Modules that stay Python in the compiled build. __main__.py: `python -m rules` needs a
#: code object to run, which an extension module has not. referee.py: mypyc 2.4 compiles
#: the generic dataclass SlipLine into a class that fails at import ("attribute
#: '__dict__' of 'type' objects is not writable"); the slip tally is not the hot path.
#: lexicon.py: its Lexicon subclasses marisa_trie's Trie (a C type) with __slots__, and
#: compiled it crashes the interpreter on iteration; its lookups run in C anyway.
PYTHON = ("__main__.py", "lexicon.py", "referee.py")


def main() -> None:
    os.chdir(REPO)
    sources = sorted(
        str(p.relative_to(REPO)) for p in (REPO / "rules").glob("*.py") if p.name not in PYTHON
    )
    shutil.rmtree(OUT, ignore_errors=True)
    # setuptools' Distribution itself, not setup(): setup() reads pyproject.toml, which
    # describes the whole Bordpunt wheel (its package discovery, its metadata), not this
    # one package's extension modules.
    dist = Distribution(
        {
            "name": "bordpunt-rules-compiled",
            # Its own mypy settings (deploy/compiled/mypyc.ini says why).
            "ext_modules": mypycify(
                ["--config-file", "deploy/compiled/mypyc.ini", *sources], opt_level="3"
            ),
        }
    )
    dist.script_args = [
        "build_ext",
        "--build-lib",
        str(OUT),
        "--build-temp",
        str(REPO / "build" / "compiled-temp"),
        "--parallel",
        str(os.cpu_count() or 1),
    ]
    dist.parse_command_line()
    dist.run_commands()
    shutil.copytree(REPO / "rules" / "data", OUT / "rules" / "data")
    for name in PYTHON:
        shutil.copy(REPO / "rules" / name, OUT / "rules" / name)
    print(f"compiled rules/ into {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
