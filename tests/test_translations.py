"""The Dutch translation is complete, and the compiled catalogue matches its source."""

import ast
import gettext
from pathlib import Path

PO = Path(__file__).resolve().parents[1] / "locale" / "nl" / "LC_MESSAGES" / "django.po"


def entries() -> list[dict]:
    """Each entry of the .po file: its flags and its msgid/msgstr fields, unquoted."""
    found = []
    for block in PO.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": set()}
        key = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"') and key:
                entry[key] += ast.literal_eval(line)
            else:
                key, _space, quoted = line.partition(" ")
                entry[key] = ast.literal_eval(quoted)
        if entry.get("msgid"):
            found.append(entry)
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
