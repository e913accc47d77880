"""QR codes for paper: a table's code on the pairing list and the scoresheet opens its game.

Drawn here as inline SVG (segno, no network, no image files): sharp at any print size, and
free of inline styles, which the Content-Security-Policy refuses. Imports nothing from the apps.

Django: returns safe HTML for the templates.
"""

from functools import lru_cache

import segno
from django.utils.safestring import SafeString, mark_safe

#: Error correction "M" (15 %): survives a crease or a coffee ring on a sheet of paper.
ERROR_CORRECTION = "m"


def qr_code(data: str) -> segno.QRCode:
    """The QR code of `data`; never a Micro QR, which phone cameras do not read."""
    return segno.make(data, error=ERROR_CORRECTION, micro=False)


def qr_svg(data: str, *, title: str) -> SafeString:
    """`data` as an inline SVG that scales to its box (a viewBox, no fixed size).

    segno escapes the title and draws the code as one path, so the result is safe to insert.
    """
    return mark_safe(_svg(data, title))


@lru_cache(maxsize=1024)
def _svg(data: str, title: str) -> str:
    # A code takes segno 10 to 30 ms (it tries eight masks); the same game's code is drawn
    # again for its scoresheet and each reprint. Read-only: the same input, the same code.
    return qr_code(data).svg_inline(
        scale=1, omitsize=True, title=title, svgclass="qr", lineclass=None
    )
