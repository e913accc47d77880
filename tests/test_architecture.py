"""The layers are one list: the import-linter contract in pyproject.toml. Every app of ours
is placed in it, and docs/architecture.md names each app with the same layer."""

import re
import tomllib
from pathlib import Path

from django.apps import apps
from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def contract_layers() -> list[set[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layered,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return [set(re.split(r"\s*[|:]\s*", layer)) for layer in reversed(layered["layers"])]


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
