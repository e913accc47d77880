"""pytest plugin: the rules tests against the compiled engine (``make compiled``).

Loaded with ``-p tests.compiled_rules`` before any other plugin imports ``rules``: it puts
``build/compiled`` first on ``sys.path`` and refuses to run when ``rules`` is not the
compiled package there. Only ``tests/rules`` is run this way. The examples in the rules'
docstrings are not: doctest finds no examples in compiled functions and classes (they are
builtins to ``inspect``, with no source lines), so ``--doctest-modules`` would collect
nothing from them; the pure run checks those examples.
"""

import os
import sys
from pathlib import Path

import pytest

BUILD = Path(__file__).resolve().parents[1] / "build" / "compiled"

sys.path.insert(0, str(BUILD))
# Processes the tests start (the command line) import the compiled engine too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(BUILD), os.environ.get("PYTHONPATH")]))

import rules  # noqa: E402
import rules.movegen  # noqa: E402

if not Path(rules.movegen.__file__ or "").name.endswith(".so"):
    raise pytest.UsageError(f"rules is not compiled ({rules.movegen.__file__}): run make compiled")
