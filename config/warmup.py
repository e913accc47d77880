"""A server process does its slow first-time work before it answers anyone.

Django imports the views, compiles a template and reads a translation catalogue the first
time a request needs them, and the engine loads a word list on first use: together about
half a second, paid by whoever reaches a fresh worker first. Under gunicorn (`make serve`)
that is the first player after every restart, in the middle of an evening, and while that
worker stalls the requests behind it wait too. `warm_up` runs in each worker as it loads
the application (config/wsgi.py), before it takes a request. It reads no database: a
worker opens its own connection when a request needs one.
"""

from __future__ import annotations

from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.template.autoreload import get_template_directories
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation

from config.home import SHARED_DIR
from rules.dawg import Dawg
from rules.lexicon import KINDS, Lexicon


def project_templates() -> list[str]:
    """The names of Bordpunt's own templates (not those of Django or the libraries)."""
    # Ours: the shared folder and our apps' own, wherever they are (a checkout, or an
    # installed wheel's site-packages beside the libraries' templates).
    ours = {SHARED_DIR / "templates"} | {
        Path(apps.get_app_config(name).path) / "templates" for name in settings.PROJECT_APPS
    }
    names: set[str] = set()
    for directory in get_template_directories():
        if directory in ours:
            names.update(
                path.relative_to(directory).as_posix() for path in directory.rglob("*.html")
            )
    return sorted(names)


def warm_up() -> None:
    """Import every view, compile every template, read the catalogues and the word lists."""
    get_resolver().reverse_dict  # noqa: B018 - builds the URL patterns, importing the views
    for name in project_templates():
        get_template(name)  # the cached loader keeps the compiled template for the process
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            translation.gettext("Bordpunt")
    for kind in KINDS:
        Lexicon.default(kind)
        Dawg.default(kind)
