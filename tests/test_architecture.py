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
