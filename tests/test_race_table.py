"""docs/architecture.md's table of the writes two devices can send at once cannot drift:
every write of issue 50 has its row, every service it names exists, and every test it names
is a test function of that file. No database."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADING = "### Every write two devices can send at once"
TEST = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
DOTTED = re.compile(r"`([a-z_]+(?:\.[a-z_]+)+)`")

#: The writes the table must have (issue 50, point 6): each begins a row.
WRITES = (
    "results",
    "confirmations",
    "moves",
    "undo",
    "clock",
    "pairing",
    "publish",
    "merge",
    "erasure",
    "entry",
    "entry by federation number",
    "sign-up",
    "invitation",
    "slip",
    "jury typing",
    "presence",
    "redo",
    "results file",
    "official ranking version",
)


def _rows() -> list[list[str]]:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split(HEADING, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header, separator, *rows = lines
    assert header == "| write | service | lock | the loser's answer | test |"
    assert set(separator) <= {"|", "-"}
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]


def _functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_every_write_has_its_row():
    rows = _rows()
    assert all(len(row) == 5 for row in rows), [row[0] for row in rows if len(row) != 5]
    writes = [row[0] for row in rows]
    assert [write for write in WRITES if not any(w.startswith(write) for w in writes)] == []


def test_every_test_named_exists():
    missing = []
    for write, *_middle, tests in _rows():
        named = TEST.findall(tests)
        assert named, f"{write}: no test"
        for path, name in named:
            file = ROOT / path
            if not file.is_file() or name not in _functions(file):
                missing.append(f"{path}::{name}")
    assert missing == []


def test_every_service_named_exists():
    missing = []
    for write, service, *_rest in _rows():
        dotted = DOTTED.findall(service)
        assert dotted, f"{write}: no service"
        for name in dotted:
            module, attribute = name.rsplit(".", 1)
            if not hasattr(importlib.import_module(module), attribute):
                missing.append(name)
    assert missing == []
