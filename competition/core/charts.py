"""Small charts for the player's history, drawn as SVG from plain numbers.

Pure: imports nothing from Django or the apps, so it is tested without a database. The
SVG has a viewBox and no fixed size (it scales to its box on a phone and on paper), uses
presentation attributes only (the Content-Security-Policy refuses inline styles), and
escapes every text it is given.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Literal

WIDTH, HEIGHT = 400, 220
LEFT, RIGHT, TOP, BOTTOM = 42, 12, 12, 34
FONT_SIZE = 13
INK, GRID, LINE, BAR = "#212529", "#dee2e6", "#198754", "#0d6efd"


@dataclass(frozen=True)
class Point:
    """One value of a chart: `label` under the x axis (a round number), `value` up the y axis."""

    label: str
    value: float


def nice_ticks(low: float, high: float, *, count: int = 5, whole: bool = False) -> list[float]:
    """Round values from `low` to `high`, about `count` of them, 1-2-5 spaced; `whole`
    numbers only for counts (no 0.5 match point when every value is whole).

    >>> nice_ticks(0, 10)
    [0, 2, 4, 6, 8, 10]
    >>> nice_ticks(1, 1)
    [1]
    >>> nice_ticks(180, 452)  # (452 - 180) / 5 = 54.4: the step is 100
    [100, 200, 300, 400, 500]
    >>> nice_ticks(0, 2), nice_ticks(0, 2, whole=True)
    ([0, 0.5, 1, 1.5, 2], [0, 1, 2])
    """
    if high <= low:
        return [low]
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    if whole:
        step = max(step, 1)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step:
        ticks.append(int(value) if float(value).is_integer() else round(value, 6))
        if value >= high:
            break
        value += step
    return ticks


def chart_svg(
    points: Sequence[Point],
    *,
    title: str,
    kind: Literal["line", "bar"] = "line",
    invert: bool = False,
    low: float | None = None,
    high: float | None = None,
    decimal_separator: str = ".",
) -> str:
    """A line or bar chart of `points`, left to right, as an SVG element.

    `invert` puts the lowest value on top (a rank: 1 is best). `low` and `high` widen the
    y axis (a rank chart runs from 1 to the number of players). Without points: an empty
    frame with the title, so the page keeps its layout. `decimal_separator` is the
    reader's: the numbers it writes are read by people ("1,5" in Dutch); the coordinates
    keep their point.
    """

    def number(value: float) -> str:
        return _number(value).replace(".", decimal_separator)

    values = [point.value for point in points]
    bottom_value = min([*values, *([low] if low is not None else [])], default=0)
    top_value = max([*values, *([high] if high is not None else [])], default=1)
    if kind == "bar":
        bottom_value = min(bottom_value, 0)
    if invert:
        bottom_value = max(bottom_value, 1)
    ticks = nice_ticks(
        bottom_value, top_value, whole=all(float(value).is_integer() for value in values)
    )
    if invert:
        # A rank starts at 1, the top of the chart; a tick just under it would crowd it.
        step = ticks[1] - ticks[0] if len(ticks) > 1 else 1
        ticks = [1, *(tick for tick in ticks if tick > 1 + step / 2)]
    y_min, y_max = min(ticks[0], bottom_value), max(ticks[-1], top_value)
    span = (y_max - y_min) or 1
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        share = (value - y_min) / span
        return TOP + (share if invert else 1 - share) * plot_height

    slot = plot_width / max(len(points), 1)

    def x_of(index: int) -> float:
        return LEFT + slot * (index + 0.5)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'font-size="{FONT_SIZE}" font-family="system-ui, sans-serif" fill="{INK}">',
        f"<title>{escape(title)}</title>",
    ]
    for tick in ticks:
        y = y_of(tick)
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{number(tick)}</text>'
        )
    for index in _labelled(points, slot):
        point = points[index]
        parts.append(
            f'<text x="{x_of(index):.1f}" y="{HEIGHT - BOTTOM + 18}" '
            f'text-anchor="middle">{escape(point.label)}</text>'
        )
    if kind == "bar":
        base = y_of(max(y_min, 0))
        bar_width = max(slot * 0.6, 1)
        for index, point in enumerate(points):
            y = y_of(point.value)
            parts.append(
                f'<rect x="{x_of(index) - bar_width / 2:.1f}" y="{min(y, base):.1f}" '
                f'width="{bar_width:.1f}" height="{abs(base - y):.1f}" fill="{BAR}">'
                f"<title>{escape(point.label)}: {number(point.value)}</title></rect>"
            )
    elif points:
        path = " ".join(
            f"{'M' if index == 0 else 'L'}{x_of(index):.1f} {y_of(point.value):.1f}"
            for index, point in enumerate(points)
        )
        parts.append(f'<path d="{path}" fill="none" stroke="{LINE}" stroke-width="2.5"/>')
        for index, point in enumerate(points):
            parts.append(
                f'<circle cx="{x_of(index):.1f}" cy="{y_of(point.value):.1f}" r="3.5" '
                f'fill="{LINE}"><title>{escape(point.label)}: {number(point.value)}</title>'
                "</circle>"
            )
    parts.append(
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_height}" '
        f'y2="{TOP + plot_height}" stroke="{INK}"/>'
        f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + plot_height}" stroke="{INK}"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _labelled(points: Sequence[Point], slot: float) -> list[int]:
    """Which points get their label under the axis: as many as fit side by side (a date
    is wider than a round number), evenly spaced, the last point always.

    >>> _labelled([Point(str(n), n) for n in range(1, 8)], slot=40)
    [0, 1, 2, 3, 4, 5, 6]
    >>> _labelled([Point("13 okt 2026", n) for n in range(7)], slot=40)
    [0, 3, 6]
    >>> _labelled([Point("13 okt 2026", n) for n in range(8)], slot=40)
    [0, 3, 7]
    """
    if not points:
        return []
    widest = max(len(point.label) for point in points) * FONT_SIZE * 0.6 + 8
    every = max(1, math.ceil(widest / slot), math.ceil(len(points) / 16))
    labelled = list(range(0, len(points), every))
    last = len(points) - 1
    if labelled[-1] != last:
        if last - labelled[-1] < every and len(labelled) > 1:
            labelled[-1] = last
        else:
            labelled.append(last)
    return labelled


def _number(value: float) -> str:
    """1.0 as "1", 1.5 as "1.5": match points can be halves."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
