"""The layers are one list: the import-linter contracts in pyproject.toml. Every app of ours
is placed in them, and docs/architecture.md's table names each app with the same layer and
says exactly what the contracts forbid it (and each pure core) to import."""

import re
import tomllib
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return config["contracts"]


def layers_contract() -> dict[str, Any]:
    (layered,) = [c for c in contracts() if c["type"] == "layers"]
    return layered


def layer_apps(layer: str) -> list[str]:
    """A layer's apps: "a | b" (independent of each other) or "a : b" (not)."""
    return re.split(r"\s*[|:]\s*", layer)


def contract_layers() -> list[list[str]]:
    """The layers from the bottom (`rules`) up, each as its apps in the contract's order."""
    return [layer_apps(layer) for layer in reversed(layers_contract()["layers"])]


def must_never_import(module: str) -> str:
    """What the contracts forbid `module` (an app or a module of one) to import, in words:
    the layers contract's apps above its app (and beside it, in an independent layer), and
    every forbidden contract whose source is the module or holds it. Apps are named from the
    nearest up; all of them but its own is "every other app" (`rules` is the library, not an
    app); `<app>.*` forbidden to a module of `<app>` is "the rest of `<app>/`"; an import a
    contract ignores for it is a "but"."""
    package = module.split(".")[0]
    order = [name for layer in contract_layers() for name in layer]
    forbidden: set[str] = set()
    for layer in layers_contract()["layers"]:  # from the top down to the module's own
        names = layer_apps(layer)
        if package in names:
            forbidden |= {name for name in names if name != package and "|" in layer}
            break
        forbidden |= set(names)
    allowed: list[str] = []
    for contract in contracts():
        sources = contract.get("source_modules", [])
        if contract["type"] == "forbidden" and any(
            module == s or module.startswith(s + ".") for s in sources
        ):
            forbidden |= set(contract["forbidden_modules"])
            allowed += [
                ignored.split(" -> ")[1].removesuffix(".**")
                for ignored in contract.get("ignore_imports", [])
            ]
    words = ["Django"] if "django" in forbidden else []
    other_apps = {name for name in order if name not in {package, "rules"}}
    if other_apps <= forbidden:
        app_words = ["every other app" if package != "rules" else "every app"]
        app_words += [name for name in order if name in forbidden - other_apps]
    else:
        app_words = [name for name in order if name in forbidden]
    for module_allowed in allowed:
        app = module_allowed.split(".")[0]
        at = app_words.index(app) if app in app_words else 0
        app_words[at] += f" but `{module_allowed}`"
    words += app_words
    for expression in sorted(forbidden - set(order) - {"django"}):
        own = expression == f"{package}.*"
        words.append(f"the rest of `{package}/`" if own else f"`{expression}`")
    return ", ".join(words) or "–"


def documented_must_never_import() -> dict[str, str]:
    """docs/architecture.md's table: each row's module (`competition/core/` is
    `competition.core`, `ranking/core.py` is `ranking.core`) and its last column."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    rows = re.findall(r"^\| `([\w/.]+)` \| \w+ \| .* \| ([^|]*) \|$", page, flags=re.MULTILINE)
    return {path.removesuffix(".py").strip("/").replace("/", "."): cell for path, cell in rows}


def our_apps() -> set[str]:
    return {app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT.resolve()}


def test_every_app_of_ours_has_a_layer():
    layered = set().union(*contract_layers())
    assert our_apps() - layered == set()
    assert {"config", "rules"} <= layered


def test_the_architecture_page_gives_each_app_its_contract_layer():
    page = (ROOT / "docs" / "architecture.md").read_text()
    documented = {
        name: layer
        for name, layer in re.findall(r"^\| `(\w+)/` \| (\w+) \|", page, flags=re.MULTILINE)
    }
    expected = {"rules": "library"}
    for number, layer in enumerate(contract_layers()[1:], start=1):
        expected |= {name: str(number) for name in layer}
    assert documented == expected


def test_every_contract_is_one_the_table_can_say():
    """must_never_import() reads the one layers contract and forbidden contracts with these
    options only; another kind would go unsaid in the table, so teach it first."""
    kinds = [c["type"] for c in contracts()]
    assert sorted(kinds) == ["forbidden"] * (len(kinds) - 1) + ["layers"]
    assert set(layers_contract()) <= {"name", "type", "layers", "ignore_imports"}
    for contract in contracts():
        if contract["type"] == "forbidden":
            assert set(contract) <= {
                "name",
                "type",
                "source_modules",
                "forbidden_modules",
                "ignore_imports",
            }, contract["name"]


def test_the_architecture_page_says_exactly_what_the_contracts_forbid():
    """A row for every app and for every source of a forbidden contract, and its "must never
    import" column in the words of must_never_import(): the failure shows the text to write."""
    documented = documented_must_never_import()
    sources = {s for c in contracts() if c["type"] == "forbidden" for s in c["source_modules"]}
    expected = {m: must_never_import(m) for m in set().union(*contract_layers()) | sources}
    wrong = sorted(
        m for m in documented.keys() | expected.keys() if documented.get(m) != expected.get(m)
    )
    assert wrong == [], "\n".join(
        f"{m}: {expected[m]}" if m in expected else f"{m}: no contract names it, no row"
        for m in wrong
    )


def test_no_app_holds_much_more_than_thirty_percent_of_the_code():
    """Issue 39: an app that grows past this is split along its seams (migrations aside)."""
    lines = {
        name: sum(
            len(path.read_text(encoding="utf-8").splitlines())
            for path in (ROOT / name).rglob("*.py")
            if "migrations" not in path.parts
        )
        for name in set().union(*contract_layers())
    }
    total = sum(lines.values())
    shares = {name: round(count / total, 3) for name, count in lines.items()}
    assert max(shares.values()) <= 0.32, shares
