"""Word lists: which words may be played.

The shipped default is built from OpenTaal's Dutch word list as packaged by Debian in
``wdutch`` (``/usr/share/dict/dutch``; BSD or CC-BY 3.0, see ``rules/data/README.md``).
``rules.lexicon_build`` turns that list, or a club's own plain text list, into a compact
`marisa-trie <https://github.com/pytries/marisa-trie>`_ file that loads by ``mmap``.

Normalisation (:func:`normalise`), after the Gouds 8 rule text ("Hoofdletters doen niet
ter zake. Woorden met spaties, punten, komma's, boventekens, ondertekens,
verbindingsstreepjes en apostrofs mogen worden gelegd met weglating van die
bijzonderheden. Woorden met cijfers kunnen niet gelegd worden."):

1. An entry containing a digit (any Unicode digit, so also ``²`` and ``₂``) is dropped.
2. ``ß`` becomes ``SS``; ``æ``, ``œ``, ``ø``, ``ł``, ``đ``, ``ð``, ``þ`` become ``AE``,
   ``OE``, ``O``, ``L``, ``D``, ``D``, ``TH``.
3. Unicode NFKD, then combining marks are removed: ``é``/``ë``/``è``/``ç``/``å`` lose
   their accent, the ligature ``ĳ``/``Ĳ`` becomes ``IJ``.
4. Spaces (any whitespace), dots, commas, hyphens (``-`` and the Unicode hyphens and
   dashes) and apostrophes (``'``, ``’``, ``‘``, ``ʼ`` and the backtick) are removed.
5. The rest is uppercased; if it is not entirely ``A``-``Z`` (``&``, ``+``, ``/``,
   ``@``, ``€``, ...) the entry is dropped.

Only words of length ``MIN_LENGTH`` (2) to ``MAX_LENGTH`` (15) are kept: a single letter
never forms a word on the board, and a 15x15 board cannot hold a longer one.

Classification (:func:`classify`) looks at the entry as printed and returns a
:class:`Trait` flag set. The entry is split into parts on whitespace, commas and
hyphens:

* ``MULTIWORD``: whitespace or a comma in the entry (split expressions, "ter orde komen").
* ``HYPHEN`` / ``APOSTROPHE``: the entry contains one ("NAVO-verdrag", "pH's").
* ``ABBREVIATION``: a dot in the entry ("enz.", "a.m."); or a part whose letters are all
  uppercase ("RTL", "vitamine C"); or a part that starts lowercase and has an uppercase
  letter later ("kW", "pH", "iPad"); or an all-lowercase entry without any vowel
  ``a e i o u y`` ("btw", "cm", "kg", "dvd") except the interjections in
  :data:`VOWELLESS_WORDS` ("brr", "hm", "pst", "st", "tss", ...). Lowercase
  abbreviations that do contain a vowel ("hbo", "apk") cannot be told from words and
  count as words.
* ``NAME``: a part that starts with an uppercase letter and has a lowercase letter
  ("Dodoma", "Nestlé", "Dokkumer", "McCain").
* ``DIACRITIC``: a non-ASCII letter (informational only: accents are dropped in
  every kind).
* ``NUMERAL``: a digit, or the whole entry is an uppercase Roman numeral of two or
  more letters ("XIV",
  "MCMLXVIII"; Dutch calls them "Romeinse cijfers", so "woorden met cijfers" covers
  them). Never playable.
* ``SYMBOL``: the entry does not normalise to ``A``-``Z``. Never playable.

Kinds (:data:`KINDS`):

* ``"gouds8"``: every entry that normalises, names, abbreviations and split expressions
  included ("namen en afkortingen mogen wel, tenminste als ze als zodanig in Het Groene
  Boekje staan"; the OpenTaal list stands in for Het Groene Boekje).
* ``"standard"``: leaves out entries with ``NAME``, ``ABBREVIATION``, ``MULTIWORD``,
  ``HYPHEN`` or ``APOSTROPHE`` ("Niet toegestaan: eigennamen, afkortingen, woorden met
  een apostrof of koppelteken. Woorden met accenten speel je zonder accent.").

A normalised word belongs to a kind when at least one listed entry of that kind
normalises to it, so "standard" is a subset of "gouds8".

Lookups: ``word in lexicon`` expects a normalised word (uppercase ``A``-``Z``) and is
case-sensitive: lowercase is not accepted there, because any fallback needs a
Python-level ``__contains__``, which measured 1.07 to 1.26 M lookups/s against 1.29 to
1.47 M/s for the trie's own C-level one that :class:`Lexicon` inherits. Use
:meth:`Lexicon.accepts` for a raw entry (any case, accents, hyphens, ...).

The file format is a saved ``marisa_trie.Trie`` opened with ``mmap``: loading takes a
fraction of a millisecond and the pages are shared between processes. A ``frozenset``
would look up about twice as fast but takes 200 ms to build and 46 MB per process; see
``rules/data/README.md`` for the measurements.
"""

from __future__ import annotations

import enum
import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import marisa_trie

__all__ = [
    "DATA_DIR",
    "DEFAULT_KIND",
    "KINDS",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "UNPLAYABLE",
    "VOWELLESS_WORDS",
    "Lexicon",
    "Trait",
    "UnknownLexiconKind",
    "classify",
    "default_manifest",
    "default_path",
    "in_kind",
    "kind_word",
    "normalise",
    "read_entries",
]

MIN_LENGTH = 2
MAX_LENGTH = 15

DATA_DIR = Path(__file__).resolve().parent / "data"
MANIFEST_NAME = "manifest.json"
SUFFIX = ".marisa"

DEFAULT_KIND = "gouds8"


class Trait(enum.Flag):
    """What :func:`classify` found in a list entry (see the module docstring)."""

    NONE = 0
    NAME = enum.auto()
    ABBREVIATION = enum.auto()
    MULTIWORD = enum.auto()
    HYPHEN = enum.auto()
    APOSTROPHE = enum.auto()
    DIACRITIC = enum.auto()
    NUMERAL = enum.auto()
    SYMBOL = enum.auto()


#: Traits that make an entry unplayable in every kind.
UNPLAYABLE = Trait.NUMERAL | Trait.SYMBOL

#: Per kind, the traits that exclude an entry.
KINDS: dict[str, Trait] = {
    "gouds8": UNPLAYABLE,
    "standard": UNPLAYABLE
    | Trait.NAME
    | Trait.ABBREVIATION
    | Trait.MULTIWORD
    | Trait.HYPHEN
    | Trait.APOSTROPHE,
}

#: Lowercase entries without a vowel that are words (interjections), not abbreviations.
VOWELLESS_WORDS = frozenset(
    {"brr", "grr", "hm", "hmm", "mmm", "pff", "pfff", "pst", "psst", "sh", "sst", "st", "tss"}
    | {"zzz"}
)


class UnknownLexiconKind(ValueError):
    """Raised for a lexicon kind that is not in :data:`KINDS`."""

    def __init__(self, kind: str) -> None:
        known = ", ".join(sorted(KINDS))
        super().__init__(f"unknown lexicon kind {kind!r}; known kinds: {known}")
        self.kind = kind


_APOSTROPHES = "'’‘`ʼ"
_HYPHENS = "-‐‑‒–—−"
_REMOVE = re.compile(f"[\\s.,{re.escape(_APOSTROPHES + _HYPHENS)}]+")
_SPLIT_PARTS = re.compile(f"[\\s,{re.escape(_HYPHENS)}]+")
_A_TO_Z = re.compile(r"[A-Z]+")
_ROMAN = re.compile(r"M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_VOWELS = frozenset("aeiouy")
_SPECIAL_LETTERS = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "SS",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "TH",
    }
)


def _has_digit(entry: str) -> bool:
    return any(ch.isdigit() for ch in entry)


def normalise(entry: str) -> str | None:
    """The playable form of a list entry (uppercase ``A``-``Z``), or None if unplayable.

    Does not apply the length limits; see :func:`kind_word`.
    """
    if _has_digit(entry):
        return None
    text = unicodedata.normalize("NFKD", entry.translate(_SPECIAL_LETTERS))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _REMOVE.sub("", text).upper()
    if not text or not _A_TO_Z.fullmatch(text):
        return None
    return text


def classify(entry: str) -> Trait:
    """The :class:`Trait` flags of a list entry as printed (see the module docstring)."""
    entry = entry.strip()
    traits = Trait.NONE
    if _has_digit(entry) or (len(entry) > 1 and _ROMAN.fullmatch(entry)):
        traits |= Trait.NUMERAL
    if not traits & Trait.NUMERAL and normalise(entry) is None:
        traits |= Trait.SYMBOL
    if any(ch.isspace() or ch == "," for ch in entry):
        traits |= Trait.MULTIWORD
    if any(ch in _HYPHENS for ch in entry):
        traits |= Trait.HYPHEN
    if any(ch in _APOSTROPHES for ch in entry):
        traits |= Trait.APOSTROPHE
    if "." in entry:
        traits |= Trait.ABBREVIATION
    if any(ch.isalpha() and not ch.isascii() for ch in entry):
        traits |= Trait.DIACRITIC
    for part in _SPLIT_PARTS.split(entry):
        letters = [ch for ch in part if ch.isalpha()]
        if not letters:
            continue
        if all(ch.isupper() for ch in letters):
            traits |= Trait.ABBREVIATION
        elif letters[0].isupper():
            traits |= Trait.NAME
        elif any(ch.isupper() for ch in letters):
            traits |= Trait.ABBREVIATION
    if (
        entry.isalpha()
        and entry.isascii()
        and entry.islower()
        and not _VOWELS.intersection(entry)
        and entry not in VOWELLESS_WORDS
    ):
        traits |= Trait.ABBREVIATION
    return traits


def _check_kind(kind: str) -> Trait:
    try:
        return KINDS[kind]
    except KeyError:
        raise UnknownLexiconKind(kind) from None


def in_kind(entry: str, kind: str) -> bool:
    """Whether a list entry belongs to ``kind`` (before normalisation and length limits)."""
    return not classify(entry) & _check_kind(kind)


def kind_word(entry: str, kind: str | None = None) -> str | None:
    """The normalised word for ``entry`` if it is playable in ``kind``, else None.

    ``kind=None`` keeps every entry that normalises (a club's list "as listed"). The
    length limits ``MIN_LENGTH``..``MAX_LENGTH`` apply in every case.
    """
    if kind is not None and not in_kind(entry, kind):
        return None
    word = normalise(entry)
    if word is None or not MIN_LENGTH <= len(word) <= MAX_LENGTH:
        return None
    return word


def default_path(kind: str) -> Path:
    """Where the shipped file for ``kind`` lives."""
    _check_kind(kind)
    return DATA_DIR / f"{kind}{SUFFIX}"


def default_manifest() -> dict[str, Any]:
    """Source, version and counts of the shipped default lists (``manifest.json``)."""
    import json  # only here: keeps importing this module cheap

    with (DATA_DIR / MANIFEST_NAME).open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


class Lexicon(marisa_trie.Trie):  # type: ignore[misc]  # marisa_trie ships no type hints
    """A set of playable words (uppercase ``A``-``Z``), backed by a marisa trie.

    ``Lexicon`` *is* a ``marisa_trie.Trie``, so ``word in lexicon``, ``len(lexicon)`` and
    ``iter(lexicon)`` run in C without a Python frame per call: that is what makes
    lookups fast enough (see ``benchmarks/lexicon.py``). The trie's other methods
    (``keys(prefix)``, ``iterkeys(prefix)``, ...) are available as well.

    ``word in lexicon`` wants the normalised word: uppercase ``A``-``Z``. Lowercase
    is *not* uppercased there (that would put a Python call on every lookup); a
    non-``str`` raises ``AttributeError``. :meth:`accepts` takes a raw entry.
    """

    __slots__ = ("name",)

    def __init__(self, words: Iterable[str] = (), name: str = "") -> None:
        """A lexicon of the given *normalised* words (see :meth:`from_words` for raw ones)."""
        super().__init__(words)
        self.name = name

    def __repr__(self) -> str:
        return f"<Lexicon {self.name or '(unnamed)'}: {len(self)} words>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle, (self.tobytes(), self.name))

    def accepts(self, entry: str) -> bool:
        """Whether a raw entry, as a player might type it ("één", "ter orde"), is listed."""
        word = normalise(entry)
        return word is not None and word in self

    def has_prefix(self, prefix: str) -> bool:
        """Whether some word starts with ``prefix`` (uppercase), e.g. for move search."""
        return next(iter(self.iterkeys(prefix)), None) is not None

    # -- construction ---------------------------------------------------------------

    @classmethod
    def default(cls, kind: str = DEFAULT_KIND) -> Lexicon:
        """The shipped OpenTaal-based list for ``kind``; loaded once per kind and cached.

        Raises :class:`UnknownLexiconKind` (a ``ValueError``) for an unknown kind.
        """
        _check_kind(kind)
        return _load_default(kind)

    @classmethod
    def from_words(
        cls, entries: Iterable[str], *, kind: str | None = None, name: str = ""
    ) -> Lexicon:
        """A lexicon from raw list entries, normalised as in :func:`kind_word`.

        With ``kind`` the entries are also filtered by :func:`classify`; without it
        every entry that normalises is kept.
        """
        if kind is not None:
            _check_kind(kind)
        words = {w for e in entries if (w := kind_word(e, kind)) is not None}
        return cls(sorted(words), name=name)

    @classmethod
    def from_file(
        cls, path: str | Path, *, kind: str | None = None, encoding: str = "utf-8"
    ) -> Lexicon:
        """A lexicon from a plain text list, one entry per line (``#`` starts a comment)."""
        path = Path(path)
        with path.open(encoding=encoding) as fh:
            return cls.from_words(read_entries(fh), kind=kind, name=path.name)

    @classmethod
    def open(cls, path: str | Path, *, name: str = "") -> Lexicon:
        """A lexicon from a file written by :meth:`save` (memory-mapped, not copied)."""
        lexicon = cls(name=name or Path(path).stem)
        lexicon.mmap(str(path))
        return lexicon

    def save(self, path: str | Path) -> None:
        """Write the compact file (replaced atomically, safe while others map it)."""
        path = Path(path)
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            super().save(str(tmp))
            tmp.replace(path)
        except BaseException:
            tmp.unlink(missing_ok=True)  # a full disk leaves no half file behind
            raise


def _unpickle(data: bytes, name: str) -> Lexicon:
    lexicon = Lexicon(name=name)
    lexicon.frombytes(data)
    return lexicon


def read_entries(lines: Iterable[str]) -> Iterator[str]:
    """The non-empty entries of a plain text list; ``#`` lines are comments."""
    for line in lines:
        entry = line.strip()
        if entry and not entry.startswith("#"):
            yield entry


@functools.cache
def _load_default(kind: str) -> Lexicon:
    path = default_path(kind)
    if not path.exists():
        raise FileNotFoundError(
            f"shipped word list {path} is missing; rebuild it with `python -m rules "
            "build-lexicon` (see rules/data/README.md)"
        )
    return Lexicon.open(path, name=kind)
