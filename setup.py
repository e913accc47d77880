"""What the wheel carries: every app's package, and the templates, static files and
translations, which live at the top of the checkout (`make run` and the tests use them
there) and travel in the wheel as data of the `bordpunt` package (config/settings.py finds
them there once installed). Everything else is in pyproject.toml; only this mapping of
folders without an __init__.py into a package needs code.
"""

from setuptools import find_packages, setup

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

setup(
    packages=[
        *find_packages(include=[name for app in APPS for name in (app, f"{app}.*")]),
        *(f"bordpunt.{folder}" for folder in SHARED),
    ],
    package_dir={f"bordpunt.{folder}": folder for folder in SHARED},
    package_data={
        **{f"bordpunt.{folder}": ["**/*"] for folder in SHARED},
        "rules": ["data/*"],
        "games": ["demo/*.gcg"],
    },
    exclude_package_data={
        f"bordpunt.{folder}": ["**/*.po", "**/__pycache__/*"] for folder in SHARED
    },
)
