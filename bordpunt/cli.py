"""`bordpunt`: run Bordpunt from its home folder on a club's laptop (docs/installed.md).

    bordpunt run [--port 8000] [--host 127.0.0.1] [--no-browser] [--lan]
    bordpunt version | backup [FILE] | restore [FILE] | demo | lexicon LIST

Everything the person at the keyboard reads is in their language (bordpunt.i18n), and a
refusal says why and leaves the data as it was: exit status 2 with one message, no
traceback.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bordpunt import backups, i18n
from bordpunt.home_lock import HomeInUse, held
from bordpunt.i18n import _
from config.home import Home, default_home

if TYPE_CHECKING:
    from rules.lexicon_source import WordListError


class Refused(Exception):
    """A reason not to go on, for the person at the keyboard."""


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        # None only: argparse asks with "" for a subcommand's own name ("bordpunt run").
        if prefix is None:
            prefix = _("usage: ")
        return super().add_usage(usage, actions, groups, prefix)


def parser() -> argparse.ArgumentParser:
    """The command's arguments, described in the active language."""
    top = argparse.ArgumentParser(
        prog="bordpunt",
        description=_("Bordpunt on this computer: the club's data stays in its home folder."),
        formatter_class=_Formatter,
        add_help=False,
    )
    _common(top)
    top._positionals.title = _("commands")
    commands = top.add_subparsers(dest="command", metavar=_("COMMAND"))

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name, help=help, description=help, formatter_class=_Formatter, add_help=False
        )
        _common(sub, sub=True)
        return sub

    for name, help in (
        ("run", _("start Bordpunt and open it in the browser")),
        ("demo", _("start Bordpunt with demo data, in a home of its own")),
    ):
        sub = command(name, help)
        sub.add_argument(
            "--host", default="127.0.0.1", metavar=_("ADDRESS"), help=_("address to serve on")
        )
        sub.add_argument(
            "--port", type=int, default=8000, metavar=_("PORT"), help=_("port to serve on")
        )
        sub.add_argument("--no-browser", action="store_true", help=_("do not open the browser"))
        sub.add_argument(
            "--lan",
            action="store_true",
            help=_("serve in the club's network, for the players' phones (shows a QR code)"),
        )
    command("version", _("print the version"))
    sub = command("backup", _("back up the database"))
    sub.add_argument("file", nargs="?", type=Path, metavar=_("FILE"))
    sub = command("restore", _("restore a backup; without a file: list the backups"))
    sub.add_argument("file", nargs="?", type=Path, metavar=_("FILE"))
    sub = command("lexicon", _("build the club's own word list from a text file"))
    sub.add_argument("file", type=Path, metavar=_("FILE"))
    sub.add_argument(
        "--kind", metavar=_("KIND"), help=_("keep only the words of this kind (gouds8, standard)")
    )
    return top


def _common(parser: argparse.ArgumentParser, *, sub: bool = False) -> None:
    """-h, --lang and --home, before the command or after it. After it they set a value
    only when given (SUPPRESS): else the command's default would undo the one before. One
    group of options, the command's own after these, under a title in the language."""
    options = parser._optionals
    options.title = _("options")
    default: dict[str, Any] = {"default": argparse.SUPPRESS} if sub else {}
    options.add_argument("-h", "--help", action="help", help=_("show this help and stop"))
    options.add_argument("--lang", choices=i18n.LANGUAGES, help=_("language: nl (default) or en"))
    options.add_argument(
        "--home",
        type=Path,
        metavar=_("FOLDER"),
        help=_("home folder (default: BORDPUNT_HOME or the user's data folder)"),
        **default,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `bordpunt` and `python -m bordpunt`; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    i18n.activate(i18n.language_from(args_list, os.environ))
    with i18n.argparse_speaking():
        args = parser().parse_args(args_list)
    home = Home(args.home if args.home else default_home())
    try:
        if args.command == "version":
            from bordpunt import __version__

            print(f"bordpunt {__version__}")
            return 0
        if args.command == "backup":
            return backup(home, args.file)
        if args.command == "restore":
            return restore(home, args.file)
        if args.command == "lexicon":
            return lexicon(home, args.file, args.kind)
        if args.command in {"run", "demo"}:
            from bordpunt.server import run

            if args.command == "demo":
                home = Home(home.root / "demo")
            host, shown = args.host, None
            if args.lan:
                host, shown = "0.0.0.0", lan(args.port)
            return run(
                home,
                host=host,
                shown=shown,
                port=args.port,
                browser=not args.no_browser,
                demo=args.command == "demo",
            )
        with i18n.argparse_speaking():
            parser().print_help()
        return 0
    except (Refused, backups.BackupError, HomeInUse) as refusal:
        print(f"bordpunt: {refusal}", file=sys.stderr)
        return 2


def lan(port: int) -> str:
    """Prepare serving in the club's network: its address allowed (settings read the
    environment when the server sets Django up), shown with its QR code; the address."""
    from bordpunt.lan import lan_address, lan_environment, lan_url
    from competition.qr import qr_code

    address = lan_address()
    os.environ.update(lan_environment(address, port))
    url = lan_url(address, port)
    print(_("In the club's network, phones open %(url)s (or scan this code):") % {"url": url})
    qr_code(url).terminal(compact=True)
    if address == "127.0.0.1":
        print(_("This computer is in no network: only its own browser can reach Bordpunt."))
    return address


def writable(home: Home) -> None:
    """Prepare the home, or refuse with the reason it cannot be written."""
    try:
        home.prepare()
    except OSError as error:
        raise Refused(
            _("The home folder %(home)s cannot be written (%(reason)s); nothing was changed.")
            % {"home": home.root, "reason": i18n.reason(error)}
        ) from None


def backup(home: Home, file: Path | None) -> int:
    if not backups.holds_data(home.database):
        raise Refused(_("There is no database in %(home)s yet.") % {"home": home.root})
    writable(home)
    target = file
    try:
        if file:
            backups.copy_database(home.database, file)
        else:
            target = backups.backup_into(home.database, home.backups, "backup")
    except (OSError, sqlite3.Error) as error:  # SQLite says a full disk as its own error
        raise Refused(
            _("The backup could not be written to %(file)s (%(reason)s).")
            % {"file": target or home.backups, "reason": i18n.reason(error)}
        ) from None
    print(_("Backup made: %(file)s") % {"file": target})
    return 0


def restore(home: Home, file: Path | None) -> int:
    if file is None:
        made = backups.listed(home.backups)
        if not made:
            print(_("There are no backups in %(folder)s.") % {"folder": home.backups})
        for path in made:
            print(f"{backups.local_time(path)}  {path}")
        return 0
    backups.check(file)
    writable(home)
    # Never under a running server: its pages would meet another schema, its phones other
    # data; nor a run starting while the data is being put back.
    with held(home, "restore"):
        _refuse_newer(home, file)
        saved = backups.restore(file, home.database, home.backups)
    if saved:
        print(_("The data as it was is kept in %(file)s.") % {"file": saved})
    print(_("Restored from %(file)s.") % {"file": file})
    return 0


def _refuse_newer(home: Home, file: Path) -> None:
    """Refuse a backup made by a newer Bordpunt: this version cannot read it."""
    from bordpunt.server import known_migrations

    if backups.applied_migrations(file) - known_migrations(home):
        raise Refused(
            _(
                "%(file)s was made by a newer version of Bordpunt. Install that version "
                "to restore it; nothing was changed."
            )
            % {"file": file}
        )


def lexicon(home: Home, file: Path, kind: str | None) -> int:
    """Build the club's own list into the home; its name is the file's, as a short name
    (`Klub Lijst.txt`: `klub-lijst`), which the club's settings offer to choose. A file
    that is no word list (rules/lexicon_source.py) is refused before anything is built."""
    import io

    from rules.lexicon import KINDS
    from rules.lexicon_build import build_club_list
    from rules.lexicon_source import WordListError
    from rules.ruleset import WORD_LIST_NAME

    if not file.is_file():
        raise Refused(_("The file %(file)s does not exist.") % {"file": file})
    if kind is not None and kind not in KINDS:
        raise Refused(_("Unknown kind %(kind)s.") % {"kind": kind})
    name = list_name(file.stem)
    if not WORD_LIST_NAME.fullmatch(name):
        raise Refused(
            _(
                "The name %(name)s cannot name a word list: rename the file to letters, "
                "digits and hyphens (at most 40)."
            )
            % {"name": file.stem}
        )
    writable(home)
    output = home.lexicons / f"{name}.marisa"
    try:
        made = build_club_list(file, output, kind, io.StringIO())
    except WordListError as error:
        raise Refused(_word_list_refusal(error) % {"file": file, **error.params}) from None
    except OSError as error:
        raise Refused(
            _("The word list could not be written to %(folder)s (%(reason)s).")
            % {"folder": home.lexicons, "reason": i18n.reason(error)}
        ) from None
    if made.byte_order_mark:
        print(_("The byte order mark at the start of the file (Windows Notepad) was left out."))
    if made.first_joined:
        entry, word = made.first_joined
        print(
            _(
                "%(count)s entries with spaces became one word each, as the Gouds 8 rules "
                "play them (%(entry)s: %(word)s). Separate words go on lines of their own."
            )
            % {"count": made.joined, "entry": entry, "word": word}
        )
    print(
        _(
            "Word list %(name)s made: %(words)s words. A club plays with it once its "
            "secretary chooses it in the club's settings."
        )
        % {"name": name, "words": len(made.words)}
    )
    return 0


def _word_list_refusal(error: WordListError) -> str:
    """The message for a file that is no word list, by its code."""
    return {
        "empty": _("%(file)s holds no words; nothing was made."),
        "too_few_words": _(
            "%(file)s holds %(words)s words: too few to play with (at least %(minimum)s). "
            "The list replaces the shipped one: put the shipped words in it as well; "
            "nothing was made."
        ),
        "binary": _(
            "%(file)s is not a text file (line %(line)s holds a NUL byte); nothing was made."
        ),
        "utf16": _(
            "%(file)s is saved as UTF-16 (Unicode): save it as UTF-8 and try again; nothing "
            "was made."
        ),
        "not_utf8": _(
            "Line %(line)s of %(file)s is not UTF-8: save the file as UTF-8 and try again; "
            "nothing was made."
        ),
        "line_too_long": _(
            "Line %(line)s of %(file)s is longer than %(limit)s characters: no word is that "
            "long. A word list has one word a line; nothing was made."
        ),
    }[error.code]


def list_name(stem: str) -> str:
    """A file's name as a word list's name: lowercase ASCII, hyphens between words.

    >>> list_name("Clublijst Één 2026"), list_name("__")
    ('clublijst-een-2026', '')
    """
    import re
    import unicodedata

    ascii_name = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
