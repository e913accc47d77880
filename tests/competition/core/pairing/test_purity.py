"""The pairing package is pure Python: no Django, no ORM, no other app of the project."""

from __future__ import annotations

import ast
from pathlib import Path

import competition.core.pairing

ALLOWED_ROOTS = {
    "__future__",
    "collections",
    "dataclasses",
    "fractions",
    "itertools",
    "math",
    "random",
    "typing",
    "rustworkx",
}


def test_pairing_imports_only_the_standard_library_and_rustworkx():
    package = Path(competition.core.pairing.__file__).parent
    for source in sorted(package.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside the package
                    continue
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert roots <= ALLOWED_ROOTS, f"{source.name} imports {roots - ALLOWED_ROOTS}"
