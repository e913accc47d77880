"""Clubs' own word lists for tests: a list needs MIN_WORDS words (rules/lexicon_source.py),
so a test's few words go with filler words that no play can ever make."""

import itertools
import string

from rules.lexicon_source import MIN_WORDS


def filler(count: int = MIN_WORDS) -> list[str]:
    """`count` words of four Qs (qqqqaaaa, qqqqaaab, ...): the Dutch set has one Q and two
    blanks, so no rack and no board make one, and no top or analysis finds one."""
    endings = itertools.product(string.ascii_lowercase, repeat=3)
    return ["qqqqa" + "".join(ending) for ending in itertools.islice(endings, count)]


def club_list(*lines: str) -> str:
    """A list's text: `lines` first, then the filler."""
    return "\n".join([*lines, *filler()]) + "\n"
