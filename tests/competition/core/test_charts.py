"""The history charts are drawn from numbers alone: no database, no Django."""

import re

from competition.core.charts import BOTTOM, HEIGHT, TOP, Point, chart_svg, nice_ticks

PLOT_BOTTOM = HEIGHT - BOTTOM


def circles(svg: str) -> list[tuple[float, float]]:
    return [
        (float(x), float(y)) for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', svg)
    ]


def bars(svg: str) -> list[tuple[float, float]]:
    """(top, height) of each bar."""
    return [
        (float(y), float(h))
        for y, h in re.findall(
            r'<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"', svg
        )
    ]


def test_a_line_chart_scales_to_its_viewbox_without_a_fixed_size():
    svg = chart_svg([Point("1", 2), Point("2", 4), Point("3", 4)], title="Wedstrijdpunten", low=0)
    assert svg.startswith('<svg class="chart" viewBox="0 0 400 220"')
    assert "width=" not in svg.split(">", 1)[0]  # the page decides the size
    assert "style=" not in svg  # the Content-Security-Policy refuses inline styles
    assert "<title>Wedstrijdpunten</title>" in svg
    points = circles(svg)
    assert len(points) == 3
    xs = [x for x, _y in points]
    assert xs == sorted(xs)  # left to right in round order
    # Ticks 0, 1, 2, 3, 4 (step 1 for a span of 4): 4 is the top line, 2 halfway down.
    assert points[1][1] == points[2][1] == TOP
    assert points[0][1] == (TOP + PLOT_BOTTOM) / 2


def test_a_rank_chart_puts_first_place_on_top():
    svg = chart_svg(
        [Point("1", 3), Point("2", 1), Point("3", 9)], title="Plaats", invert=True, low=1, high=9
    )
    (_x1, third), (_x2, first), (_x3, ninth) = circles(svg)
    assert first == TOP
    assert ninth > third > first
    assert ">1</text>" in svg  # the top tick is rank 1, not 0


def test_bars_grow_from_zero_in_proportion():
    svg = chart_svg([Point("1", 300), Point("2", 150)], title="Bordpunten", kind="bar")
    (top_300, height_300), (top_150, height_150) = bars(svg)
    assert top_300 + height_300 == top_150 + height_150  # one base line
    assert abs(height_300 - 2 * height_150) < 0.2


def test_texts_are_escaped():
    svg = chart_svg([Point("<b>", 1)], title="Anna & <Bert>")
    assert "<title>Anna &amp; &lt;Bert&gt;</title>" in svg
    assert "<b>" not in svg


def test_no_points_still_draws_the_frame():
    svg = chart_svg([], title="Nog niets")
    assert svg.endswith("</svg>") and "<circle" not in svg and "<path" not in svg


def test_nice_ticks_are_round_numbers_covering_the_range():
    assert nice_ticks(0, 10) == [0, 2, 4, 6, 8, 10]
    assert nice_ticks(0, 7) == [0, 2, 4, 6, 8]  # 7 / 5 = 1.4: step 2, up to 8 above 7
    assert nice_ticks(5, 5) == [5]


def test_rank_ticks_start_at_one_without_crowding_it():
    svg = chart_svg([Point("1", 7), Point("2", 9)], title="Plaats", invert=True, low=1, high=9)
    labels = re.findall(r'text-anchor="end">(\d+)</text>', svg)
    assert labels == ["1", "4", "6", "8", "10"]  # step 2 from 0: 0 and 2 give way to 1
