"""The clubs' own word lists: found by name in `settings.WORD_LISTS_DIR`, opened once.

A rule set names the list it plays with (`rules.RuleSet.word_list`: the club's choice,
copied into every new game and duplicate evening, so a later choice leaves those played
as they were); this module gives the engine the list itself: the marisa trie that checks
the words of a game, the DAWG that finds the duplicate tops (both made by `bordpunt
lexicon`, docs/installed.md). Without a name, the shipped list of the rule set's kind.

A named list whose files are gone (a home restored on another laptop without its
`lexicons/` folder) does not stop an evening: the shipped list stands in, the log says
so, and the club's settings page says the list is missing.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from django.conf import settings

import rules
from rules.dawg import SUFFIX as DAWG_SUFFIX
from rules.dawg import Dawg
from rules.lexicon import SUFFIX as LEXICON_SUFFIX
from rules.lexicon import Lexicon
from rules.ruleset import WORD_LIST_NAME

logger = logging.getLogger(__name__)


def folder() -> Path:
    return Path(settings.WORD_LISTS_DIR)


def _files(name: str) -> tuple[Path, Path]:
    return folder() / f"{name}{LEXICON_SUFFIX}", folder() / f"{name}{DAWG_SUFFIX}"


def exists(name: str) -> bool:
    """Whether the list `name` is there whole: its marisa file and its DAWG."""
    return bool(WORD_LIST_NAME.fullmatch(name)) and all(path.is_file() for path in _files(name))


def available() -> list[str]:
    """The names of the lists in the folder that a club may choose."""
    if not folder().is_dir():
        return []
    return sorted(
        path.stem
        for path in folder().glob(f"*{LEXICON_SUFFIX}")
        if WORD_LIST_NAME.fullmatch(path.stem) and exists(path.stem)
    )


def missing() -> list[tuple[str, str]]:
    """The clubs whose chosen list is not there whole: (the club's name, the list's)."""
    from clubs.models import Club  # the models import this module's name check

    chosen = Club.objects.exclude(word_list="").values_list("name", "word_list")
    return [(club, name) for club, name in chosen if not exists(name)]


def lexicon(ruleset: rules.RuleSet) -> Lexicon:
    """The words a game under `ruleset` may play."""
    path = _own(ruleset, 0)
    if path is None:
        return Lexicon.default(ruleset.lexicon)
    return _opened_lexicon(str(path), *_identity(path))


def dawg(ruleset: rules.RuleSet) -> Dawg:
    """The move generator's list for a duplicate evening under `ruleset`."""
    path = _own(ruleset, 1)
    if path is None:
        return Dawg.default(ruleset.lexicon)
    return _opened_dawg(str(path), *_identity(path))


def _own(ruleset: rules.RuleSet, which: int) -> Path | None:
    """The file of the rule set's own list, or None: no own list, or it is missing."""
    if not ruleset.word_list:
        return None
    if not exists(ruleset.word_list):
        logger.warning(
            "The word list %r is missing from %s: the shipped list %r stands in.",
            ruleset.word_list,
            folder(),
            ruleset.lexicon,
        )
        return None
    return _files(ruleset.word_list)[which]


def _identity(path: Path) -> tuple[int, int]:
    """The file as it is now: a list built again under the same name is opened anew."""
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=8)
def _opened_lexicon(path: str, mtime_ns: int, size: int) -> Lexicon:
    return Lexicon.open(path)


@functools.lru_cache(maxsize=8)
def _opened_dawg(path: str, mtime_ns: int, size: int) -> Dawg:
    return Dawg.open(path)
