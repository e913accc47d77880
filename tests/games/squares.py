"""What a board's square says to a screen reader, read from a page's HTML: the square's
content without its tags (`games.board._cell` puts the square's name there, then what it
shows and what its colour or slant means)."""

from __future__ import annotations

import re


def said(page: str, square: str) -> str:
    """The name of `square` ("H8 W 5"; "A1 3W triple word score"), or "" when the page
    has no such square."""
    found = re.search(rf'data-square="{square}"[^>]*>(.*?)</(?:div|button)>', page)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else ""


def shown(page: str, square: str) -> str:
    """The square and its tile ("H8 W"), or the square alone when it is empty."""
    return " ".join(said(page, square).split()[:2])
