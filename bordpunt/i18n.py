"""The command's language: Dutch, or English when asked (--lang en, or LC_ALL, LC_MESSAGES
or LANG starting with "en"). Its messages are in the site's own catalogue (locale/), read
with Python's gettext: the command speaks before Django is set up, and without it. So are
argparse's own words and the system's reasons for a refusal: one language in one output.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gettext
import os
import sqlite3
from collections.abc import Iterator, Sequence

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


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural message in the command's language."""
    return _translation.ngettext(singular, plural, count)


@contextlib.contextmanager
def argparse_speaking() -> Iterator[None]:
    """argparse's own words (an unknown option, a missing file, a bad number) in the
    command's language while the block runs: argparse asks `gettext` of its module, which
    knows only the environment's language and no catalogue of ours."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = _, ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def reason(error: BaseException) -> str:
    """Why the system refused, in the command's language: the system's own words
    (`strerror`, SQLite's message) are English whatever the language. An error without a
    message of ours is named by its code (ENOSPC, SQLITE_IOERR).

    >>> activate("en"); reason(FileExistsError(errno.EEXIST, "File exists"))
    'a file of that name is in the way'
    """
    cause = error if isinstance(error, OSError | sqlite3.Error) else error.__cause__
    if isinstance(cause, sqlite3.Error):
        name = getattr(cause, "sqlite_errorname", "") or type(cause).__name__
        return _reason_messages().get(name, name)
    if isinstance(cause, OSError) and cause.errno is not None:
        name = errno.errorcode.get(cause.errno, str(cause.errno))
        return _reason_messages().get(name, name)
    return type(error).__name__


def _reason_messages() -> dict[str, str]:
    return {
        "EACCES": _("no permission"),
        "EPERM": _("no permission"),
        "EROFS": _("the disk is read-only"),
        "ENOSPC": _("the disk is full"),
        "SQLITE_FULL": _("the disk is full"),
        "EEXIST": _("a file of that name is in the way"),
        "ENOTDIR": _("a file of that name is in the way"),
        "EISDIR": _("it is a folder"),
        "ENOENT": _("it does not exist"),
        "EADDRINUSE": _("the port is taken"),
        "EADDRNOTAVAIL": _("not an address of this computer"),
        "SQLITE_READONLY": _("the database is read-only"),
        "SQLITE_BUSY": _("the database is busy"),
        "SQLITE_CORRUPT": _("the database is damaged"),
        "SQLITE_NOTADB": _("not a database"),
    }
