"""The `bordpunt` command: Bordpunt installed on a club's laptop (docs/installed.md).

In the wheel this package also carries the templates, static files and translations
(setup.py); in a checkout they stay at the top, where `make run` uses them.
"""

from importlib.metadata import PackageNotFoundError, version


def __getattr__(name: str) -> str:
    if name == "__version__":
        try:
            return version("bordpunt")
        except PackageNotFoundError:  # a checkout that was never installed
            return "0+checkout"
    raise AttributeError(name)
