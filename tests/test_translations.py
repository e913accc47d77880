"""The Dutch translation is complete, and the compiled catalogue matches its source.

Complete means: every message that `makemessages` finds in our code and templates (run in
a copy of the project, so the tracked catalogue stays as it is) is in
locale/nl/LC_MESSAGES/django.po with a translation, and the compiled django.mo that Django
reads holds exactly the entries of the .po, each with the same translation.
"""

import ast
import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"


def entries(po: Path = PO) -> list[dict]:
    """Each entry of the .po file: its flags and its msgctxt/msgid/msgstr fields, unquoted.
    An entry starts at its comments or its first keyword after the previous one's msgstr
    (msgfmt needs no blank line between entries, so neither does this)."""
    found: list[dict] = []
    entry: dict = {"flags": set()}
    key = None

    def close() -> None:
        nonlocal entry
        if entry.get("msgid"):
            found.append(entry)
        entry = {"flags": set()}

    for line in po.read_text(encoding="utf-8").splitlines():
        starts_anew = line.startswith("#") or line.startswith(("msgctxt ", "msgid "))
        if starts_anew and any(name.startswith("msgstr") for name in entry):
            close()
        if line.startswith("#,"):
            entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#") or not line.strip():
            continue  # a comment, or an obsolete entry (#~)
        elif line.startswith('"') and key:
            entry[key] += ast.literal_eval(line)
        else:
            key, _space, quoted = line.partition(" ")
            entry[key] = ast.literal_eval(quoted)
    close()
    return found


def test_every_message_has_a_dutch_translation():
    missing = [
        entry["msgid"]
        for entry in entries()
        if "fuzzy" in entry["flags"]
        or not entry.get("msgstr", entry.get("msgstr[0]"))
        or entry.get("msgstr[1]") == ""
    ]
    assert missing == []
    assert len(entries()) > 400


def test_the_compiled_catalogue_is_current():
    with PO.with_suffix(".mo").open("rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    stale = [
        entry["msgid"]
        for entry in entries()
        if "msgstr" in entry and catalogue.gettext(entry["msgid"]) != entry["msgstr"]
    ]
    assert stale == []


def compiled() -> dict:
    """The compiled catalogue as Django reads it: msgid (or "context\\x04msgid", or a plural's
    (msgid, form)) -> translation, the header left out."""
    with PO.with_suffix(".mo").open("rb") as mo:
        catalogue = gettext.GNUTranslations(mo)
    return {key: value for key, value in catalogue._catalog.items() if key != ""}


def test_the_compiled_catalogue_holds_the_po_entry_for_entry():
    """Plural forms and contexts included; an entry compiled from an older .po (a message
    removed, a translation changed) is a difference too."""
    expected = {}
    for entry in entries():
        key = (
            entry["msgid"] if "msgctxt" not in entry else f"{entry['msgctxt']}\x04{entry['msgid']}"
        )
        if "msgid_plural" in entry:
            for form in (0, 1):
                expected[(key, form)] = entry[f"msgstr[{form}]"]
        else:
            expected[key] = entry["msgstr"]
    assert compiled() == expected


def test_every_message_of_the_code_is_in_the_catalogue(tmp_path):
    """`makemessages` over a copy of the project (its code and templates, not the tests):
    each message it finds must be in our .po, translated. A `{% translate %}` whose text
    holds a % is looked up with it doubled (Django's rule), so its .po entry must be too."""
    if not shutil.which("xgettext"):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("xgettext not found: .ci/run installs gettext")
        pytest.skip("xgettext not found; install gettext")
    copy = tmp_path / "project"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "tests",
            "benchmarks",
            "docs",
            "node_modules",
            # The databases, a test worker's too (test-db.sqlite3_gw1, its -wal and lock
            # files), which that worker may remove while this copies.
            "*.sqlite3*",
            "staticfiles",
            "build",  # what a wheel's build leaves in the checkout: a copy of older code
            "*.egg-info",
        ),
    )
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "nl", "--no-obsolete", "--no-location"],
        cwd=copy,
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(copy)},
    )
    ours = {(entry.get("msgctxt"), entry["msgid"]): entry for entry in entries()}
    missing = []
    for entry in entries(copy / PO.relative_to(ROOT)):
        known = ours.get((entry.get("msgctxt"), entry["msgid"]))
        if known is None or not known.get("msgstr", known.get("msgstr[0]")):
            missing.append(entry["msgid"])
    assert missing == []
