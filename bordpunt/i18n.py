"""The command's language: Dutch, or English when asked (--lang en, or LC_ALL, LC_MESSAGES
or LANG starting with "en"). Its messages are in the site's own catalogue (locale/), read
with Python's gettext: the command speaks before Django is set up, and without it.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Sequence

from config.home import SHARED_DIR

LANGUAGES = ("nl", "en")
_translation: gettext.NullTranslations = gettext.NullTranslations()


def language_from(argv: Sequence[str], environ: dict[str, str] | os._Environ[str]) -> str:
    """--lang X (or --lang=X) on the command line, else the environment's, else Dutch.

    >>> language_from(["--lang", "en", "version"], {}), language_from([], {"LANG": "en_GB.UTF-8"})
    ('en', 'en')
    >>> language_from([], {"LANG": "nl_NL.UTF-8"}), language_from([], {})
    ('nl', 'nl')
    """
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv) and argv[index + 1] in LANGUAGES:
            return argv[index + 1]
        if arg.startswith("--lang=") and arg.removeprefix("--lang=") in LANGUAGES:
            return arg.removeprefix("--lang=")
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "en" if value.lower().startswith("en") else "nl"
    return "nl"


def activate(language: str) -> None:
    """Speak `language` from now on (English: the messages as written)."""
    global _translation
    if language == "en":
        _translation = gettext.NullTranslations()
    else:
        _translation = gettext.translation(
            "django", localedir=SHARED_DIR / "locale", languages=[language], fallback=True
        )


def _(message: str) -> str:
    """The message in the command's language."""
    return _translation.gettext(message)
