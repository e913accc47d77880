"""Whether a page fits its screen's width: one measure for the crawl and every browser test.

The width is the screen's (the viewport width the test gave the browser context or page),
never `window.innerWidth`: a mobile browser (`is_mobile`) zooms a page wider than the
screen out to fit it, and `innerWidth` grows with the page, so `scrollWidth <= innerWidth`
cannot fail there. A page without a viewport meta tag is laid out 980 px wide on a phone
and fails too.
"""

from __future__ import annotations

from playwright.sync_api import Page

#: How much wider than the screen's `width` the page is, and its data tables (a table with
#: header cells) outside a scroll container (.table-responsive, .sheet-scroll: the
#: container that shows a hint that it scrolls, js/bordpunt.js). Exempt from the containers:
#: the club room's screen (`body.screen`: a beamer's panels, sized to fit the screen, each
#: page of a long table shown in turn) and the Django admin (its own markup, its lists in a
#: scrolling `div.results` of its own).
OVERFLOW = """(width) => [
  document.documentElement.scrollWidth - width,
  document.body.matches('.screen') || location.pathname.startsWith('/admin/') ? []
    : [...document.querySelectorAll('table')]
    .filter((table) => table.querySelector('th')
      && !table.closest('.table-responsive, .sheet-scroll'))
    .map((table) => 'table' + (table.id ? '#' + table.id : '')
      + [...table.classList].map((name) => '.' + name).join('')),
]"""


def screen_width(page: Page) -> int:
    """The width of the screen the page is shown on: its viewport's, as the test set it."""
    viewport = page.viewport_size
    assert viewport is not None, "a page without a viewport has no screen width to fit"
    return viewport["width"]


def overflow(page: Page) -> tuple[int, list[str]]:
    """How many pixels the page is wider than its screen (0 or less: it fits), and its data
    tables outside a scroll container."""
    wider, tables = page.evaluate(OVERFLOW, screen_width(page))
    return wider, tables


def assert_fits(page: Page) -> None:
    """The page is no wider than its screen, and every data table scrolls in a container."""
    wider, tables = overflow(page)
    assert wider <= 0, f"{page.url} is {wider} px wider than the {screen_width(page)} px screen"
    assert not tables, f"{page.url}: data tables outside a scroll container: {tables}"
