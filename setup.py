"""What the wheel carries: every app's package, and the templates, static files and
translations, which live at the top of the checkout (`make run` and the tests use them
there) and travel in the wheel as data of the `bordpunt` package (config/settings.py finds
them there once installed). Everything else is in pyproject.toml; only this mapping of
folders without an __init__.py into a package needs code.

setuptools counts every folder of data as a package of its own (a namespace package), and
warns about each one that is not listed: so every folder is listed, each with its files.
"""

from setuptools import find_namespace_packages, find_packages, setup

APPS = [
    "bordpunt",
    "config",
    "rules",
    "clubs",
    "events",
    "persons",
    "games",
    "competition",
    "duplicate",
    "pairing",
    "interchange",
    "archives",
    "demo",
    "ranking",
    "notifications",
    "hosting",
    "privacy",
]
SHARED = ["templates", "static", "locale"]
#: Folders of data inside the apps, with the files they carry.
APP_DATA = {"rules.data": ["*"], "games.demo": ["*.gcg"]}


def folders(top: str) -> list[str]:
    """`top` and every folder below it, as the packages setuptools sees in them."""
    below = find_namespace_packages(where=top, exclude=["*__pycache__*"])
    return [f"bordpunt.{top}", *(f"bordpunt.{top}.{name}" for name in below)]


SHARED_PACKAGES = [package for top in SHARED for package in folders(top)]

setup(
    packages=[
        *find_packages(include=[name for app in APPS for name in (app, f"{app}.*")]),
        *APP_DATA,
        *SHARED_PACKAGES,
    ],
    package_dir={f"bordpunt.{top}": top for top in SHARED},
    package_data={**{package: ["*"] for package in SHARED_PACKAGES}, **APP_DATA},
    exclude_package_data={package: ["*.po"] for package in SHARED_PACKAGES},
)
