"""A club's own word list as a file: read line by line and checked before anything is built.

Every way in reads it here (``bordpunt lexicon``, ``python -m rules build-lexicon
--club-list``), so a list the clubs may choose is one that passed these checks:

* refused: a file that holds no entries (``empty``), or fewer than :data:`MIN_WORDS` words
  once normalised (``too_few_words``: the list replaces the shipped one of some 400,000, so
  a short one would refuse nearly every word on the board); a binary file (a NUL byte) or
  one in UTF-16 (``binary``, ``utf16``); a line not in UTF-8 (``not_utf8``); a line longer
  than :data:`MAX_LINE` characters (``line_too_long``: no word is that long; the file is
  not one word a line). The file is streamed: a long line is refused at that line, read
  no further than the limit, before anything is built.
* cleaned, and said: a byte-order mark (Windows Notepad's UTF-8 starts with one) is
  dropped, so the first entry stays a word; an entry with spaces ("ter zake") becomes one
  word ("TERZAKE"), as the Gouds 8 rules play split expressions; the report counts them
  and gives the first, so a line of several words is noticed.

Pure Python, no Django: :class:`WordListError` carries a stable ``code`` and ``params``
for the caller to say in its own language.

>>> WordListError("line_too_long", line=3, limit=MAX_LINE).params
{'line': 3, 'limit': 200}
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.lexicon import kind_word

#: At most this many characters a line, a comment too: a word has at most 15 letters, with
#: its spaces, hyphens and accents far fewer than this.
MAX_LINE = 200
#: At least this many words: fewer is a mistake (a list of the club's extra words alone, or
#: the wrong file), not a list to play with.
MIN_WORDS = 1000
BYTE_ORDER_MARK = "\ufeff"
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")

MESSAGES = {
    "empty": "it holds no words",
    "too_few_words": "it holds {words} words; a word list needs at least {minimum}",
    "binary": "it is not a text file (line {line} holds a NUL byte)",
    "utf16": "it is saved as UTF-16; save it as UTF-8",
    "not_utf8": "line {line} is not UTF-8",
    "line_too_long": (
        "line {line} is longer than {limit} characters: a word list has one word a line"
    ),
}

#: What surrogateescape makes of a byte that is not UTF-8 (the range built with chr():
#: mypyc, which compiles rules/ for hosted servers, refuses surrogates in string literals).
_NOT_UTF8 = re.compile(f"[{chr(0xDC80)}-{chr(0xDCFF)}]")


class WordListError(ValueError):
    """Why a file is no word list: a stable ``code``, its ``params`` and an English message."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(MESSAGES[code].format(**params))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.code, self.params))


def _rebuild(code: str, params: dict[str, Any]) -> WordListError:
    return WordListError(code, **params)


@dataclass
class ClubList:
    """A checked list: its words (normalised, sorted) and what reading it cleaned."""

    words: list[str]
    entries: int = 0
    byte_order_mark: bool = False
    #: Entries with spaces that became one word each, and the first of them with its word.
    joined: int = 0
    first_joined: tuple[str, str] | None = None
    #: Entries that are not words of the kind, or not 2 to 15 letters once normalised.
    dropped: int = 0


def read_club_list(path: Path, kind: str | None = None) -> ClubList:
    """The words of the list at ``path`` (of ``kind``, or every entry that normalises),
    checked as the module says; WordListError when it is no word list."""
    found = ClubList(words=[])
    words: set[str] = set()
    for entry in _entries(path, found):
        found.entries += 1
        word = kind_word(entry, kind)
        if word is None:
            found.dropped += 1
            continue
        if any(ch.isspace() for ch in entry):
            found.joined += 1
            found.first_joined = found.first_joined or (entry, word)
        words.add(word)
    if not found.entries:
        raise WordListError("empty")
    if len(words) < MIN_WORDS:
        raise WordListError("too_few_words", words=len(words), minimum=MIN_WORDS)
    found.words = sorted(words)
    return found


def _entries(path: Path, found: ClubList) -> Iterator[str]:
    """The entries of the file, line by line, each line checked before it is used."""
    with path.open("rb") as binary:
        if binary.peek(2)[:2] in UTF16_MARKS:
            raise WordListError("utf16")
        # Universal newlines (\n, \r\n, \r); a byte that is not UTF-8 is kept as a
        # surrogate, so the line that holds it can be named.
        text = io.TextIOWrapper(binary, encoding="utf-8", errors="surrogateescape")
        for number, line in enumerate(iter(lambda: text.readline(MAX_LINE + 1), ""), 1):
            line = line.removesuffix("\n")
            if "\x00" in line:
                raise WordListError("binary", line=number)
            if _NOT_UTF8.search(line):
                raise WordListError("not_utf8", line=number)
            if len(line) > MAX_LINE:  # read no further: the rest of it may be megabytes
                raise WordListError("line_too_long", line=number, limit=MAX_LINE)
            if line.startswith(BYTE_ORDER_MARK):
                found.byte_order_mark = True
                line = line.removeprefix(BYTE_ORDER_MARK)
            entry = line.strip()
            if entry and not entry.startswith("#"):
                yield entry
