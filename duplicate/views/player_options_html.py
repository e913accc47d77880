"""The jury room's list of players as HTML of our own: the one place in `duplicate/views`
that writes markup in Python instead of a template or `format_html`, because a benchmark
shows Django's way missing the target.

`benchmarks/jury.py` (6 jury members type a turn's 150 slips at once; each slip's post is
followed by the jury room page; target p95 < 300 ms): Django's `Select` widget renders
each of the room's 150 options through a template of its own, and a template loop formats
each number and compares the chosen value again (together half of the page's 56 ms CPU);
`format_html_join` took 6.2 ms a page (each value escaped through `keep_lazy`'s wrapper,
each row formatted and marked safe on its own); this, 0.3 ms (the 150 options, 200 runs,
the shared machine at load average 9, 2026-12-07). The labels are escaped here with the
standard library's `html.escape`, which `django.utils.html.escape` calls; the ids are
integers.
"""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe


def player_options(players: list[tuple[int, str]], chosen: object) -> SafeString:
    """The `<option>`s of `players` ((id, label), in order), `chosen` (the id as the form
    holds it, or None) selected."""
    selected = "" if chosen is None else str(chosen)
    # Safe: each label escaped here, each id an int.
    return mark_safe(
        "".join(
            f'<option value="{int(pk)}"{" selected" if str(pk) == selected else ""}>'
            f"{escape(label)}</option>"
            for pk, label in players
        )
    )
