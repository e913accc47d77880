"""The pure cores stay pure: `competition.core`, `pairing.core`, `interchange.core` and
`rules` import without Django.

Each check imports every module of the package in a fresh interpreter where Django is not
configured, then looks at `sys.modules`: a module of Django (or a Django add-on) or of the
apps there means some import reached it, directly or through another module.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# Every package of ours, as import-linter knows them (a new app is in that list or unchecked).
APPS = tuple(
    tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
)

PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module({package!r})
names = [package.__name__] + [
    info.name
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
    if not info.name.endswith(".__main__")  # the command line: runs, not imports
]
for name in names:
    importlib.import_module(name)
print(json.dumps({{"imported": names, "loaded": sorted(sys.modules)}}))
"""


def _import_all(package: str) -> tuple[list[str], list[str]]:
    """(the package's modules, every module loaded) after importing them all afresh."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(package=package)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    return result["imported"], result["loaded"]


def _foreign(loaded: list[str], allowed: tuple[str, ...]) -> list[str]:
    """Loaded modules of Django or of the apps, other than the `allowed` packages."""
    return [
        name
        for name in loaded
        if name.split(".")[0].startswith("django")
        or (
            name.split(".")[0] in APPS
            and name not in {"competition", "pairing", "interchange"}
            and not any(name == a or name.startswith(a + ".") for a in allowed)
        )
    ]


@pytest.mark.parametrize(
    ("package", "allowed", "expected"),
    [
        # rules is a library of its own: it may not even reach back into the competition app.
        ("rules", ("rules",), {"rules.gcg", "rules.game"}),
        ("competition.core", ("competition.core", "rules"), {"competition.core.standings"}),
        ("pairing.core", ("pairing.core",), {"pairing.core.swiss", "pairing.core.tables"}),
        (
            "interchange.core",
            ("interchange.core", "competition.core", "rules"),
            {"interchange.core.tsh"},
        ),
    ],
)
def test_the_package_imports_without_django_or_the_apps(package, allowed, expected):
    imported, loaded = _import_all(package)
    assert expected <= set(imported)  # the walk found the package's modules
    assert _foreign(loaded, allowed) == []


@pytest.mark.parametrize("app", ["competition", "pairing", "interchange"])
def test_the_core_imports_only_the_standard_library_and_rustworkx(app):
    """Stricter than the above for third-party code: a new dependency is a decision.
    `rules` is the project's own pure library (who beat whom is `rules.result`'s); another
    pure core may be imported, nothing else of an app."""
    allowed = set(sys.stdlib_module_names) | {"rustworkx", "rules"}
    apps_with_a_core = {"competition", "pairing", "interchange"}
    core = ROOT / app / "core"
    for source in sorted(core.rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                root = module.split(".")[0]
                if root in apps_with_a_core:
                    assert module.startswith(f"{root}.core"), f"{source}: {module}"
                elif root not in allowed:
                    pytest.fail(f"{source.relative_to(ROOT)} imports {module}")
