"""Every page of the site in Chromium, as each kind of person, on a phone and a desktop.

The pages are every route of the URL configuration filled from the demo data
(`tests.crawl`): public, the player's, the secretary's (who is also the duplicate
evening's spelleider), the Django admin's as a superuser, the print pages. Every address
is first asked in-process with Django's test client as that person: a download (CSV,
JSON, GCG, ZIP, TSH), a redirect, a fragment (an htmx part) or a refusal is recorded as
such, a server error is a problem. Of the full HTML pages, each thing is checked once:

- **One address per route and person** is opened in Chromium, in one browser context per
  person and size: a phone (360×740, touch) and a desktop (1280×900). The other addresses
  of a route fill the same template with other data; one of them is opened too only when
  it shows a control or table that the route's opened addresses do not (`shapes`: each
  control's tag, type and classes, each table's classes and width in cells), so a draft
  round's buttons are measured as well as a finished round's scores. On every opened page:
  no console error, page error, failed request or response of 400 or more (BrowserGuard);
  nothing wider than the screen (`document.documentElement.scrollWidth` at most the
  screen's width, print pages included); every data table in a scroll container that
  shows it scrolls (`tests.e2e.width`); on the phone, every control at least 44×44 px
  (`test_tap_targets.MEASURE`, with its documented exemptions and WCAG 2.5.8's spacing
  exception), a row of links one target each.
- **axe-core once per template and size** (the release vendored in static/vendor/axe-core,
  its version pinned in `tests.axe`, never a CDN's), on the page of that template with the
  most controls and tables: every rule its default run has on (experimental ones too,
  where the release turns them on) that can find a serious or critical violation. No
  serious or critical violation.
- **The colour-contrast rule where the CSS changes it**: on the desktop on every audited
  page; on the phone only on what a phone's media queries restyle (`PHONE_RESTYLED`: the
  elements matched by the style rules of the page's stylesheets whose media query holds
  on the phone and not on the desktop). Everything else has the same colours on both, and
  the rule takes 60 to 75% of an axe run (docs/testing.md).

Exempt from axe, and only there: see `AXE_EXEMPT`.

One test holds every check, so that `pytest -n 2` never runs the crawl twice (pytest-xdist
may hand the tests of one module to both workers, each then building the module's
fixture). `pytest -s tests/e2e/test_crawl.py` prints the figures: pages per person and
size, controls measured, axe runs and violations, browser problems, time spent.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page

from tests import axe
from tests.crawl import ROLES, Demo, cover, routes_of
from tests.demo_copy import seed
from tests.e2e.conftest import wait_for_the_live_server_to_finish
from tests.e2e.guard import BrowserGuard
from tests.e2e.test_tap_targets import MEASURE, MINIMUM
from tests.e2e.width import overflow

pytestmark = pytest.mark.e2e

SIZES = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 900}},
}
#: Fewest full pages per person: a crawl that silently reaches nothing fails.
MINIMUM_PAGES = {"visitor": 30, "player": 40, "secretary": 80, "admin": 40}
SEVERE = ["serious", "critical"]
#: axe rules the Django admin's own markup cannot meet: rule -> (the admin addresses, the
#: elements, why). Nothing of our own pages is exempt.
AXE_EXEMPT: dict[str, tuple[re.Pattern[str], re.Pattern[str], str]] = {
    "aria-prohibited-attr": (
        re.compile(r"^/admin/auth/user/\d+/change/$"),
        re.compile(r"\.help-tooltip\.search-label-icon$"),
        # The user's groups and permissions: Django's SelectFilter2.js builds the two lists'
        # search boxes with a magnifying-glass <span> that carries aria-label and title but
        # no role, where ARIA prohibits a name; the script writes it at page load, beyond
        # any template of ours. The search box itself is labelled.
        "Django's filter_horizontal widget",
    ),
}

#: The rules of axe-core's default run (enabled, and no tag the release leaves out by
#: default: in 4.14 "experimental" and "deprecated", so a rule the release has made
#: standard, such as label-content-name-mismatch, runs) that can report a serious or
#: critical violation (a rule's impact is the most its checks can find); the others
#: (landmarks, headings, the slow "region") only ever report moderate or minor ones, which
#: the crawl does not count. What the release leaves out is not run either: one such rule
#: (css-orientation-lock) reads the stylesheets by writing <style> elements, which the
#: Content-Security-Policy refuses, and the console errors were axe's, not the page's.
AXE_RULES = (
    "(impacts) => axe._audit.rules.filter((rule) => rule.enabled"
    " && !rule.tags.some((tag) => axe._audit.tagExclude.includes(tag))"
    " && impacts.includes(rule.impact)).map((rule) => rule.id)"
)
#: axe on the whole page, or on the elements `marked` with an attribute.
AXE_RUN = (
    "([marked, rules]) => axe.run("
    "marked ? {include: [...document.querySelectorAll(`[${marked}]`)]} : document,"
    " {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']})"
)
CONTRAST = "color-contrast"
#: What a style rule changes that the colour-contrast rule reads: the colours, whether the
#: text shows at all, and its size and weight (large text needs 3:1, other text 4.5:1).
CONTRAST_PROPERTIES = (
    "color|background|opacity|filter|mix-blend-mode|font|display|visibility|-webkit-text-fill"
)
#: The media queries of the page's stylesheets (the sheets of our own origin: Bootstrap's
#: and ours), each with whether it holds at this size.
MEDIA_HOLDING = """() => {
  const found = {};
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule instanceof CSSMediaRule) {
        found[rule.conditionText] = matchMedia(rule.conditionText).matches;
        walk(rule.cssRules);
      }
    }
  };
  for (const sheet of document.styleSheets) {
    try { walk(sheet.cssRules); } catch (error) { /* another origin's sheet: none here */ }
  }
  return found;
}"""
#: The elements matched by the style rules under a media query that holds here and not on
#: the desktop, or on the desktop and not here, and that change what the colour-contrast
#: rule reads (`CONTRAST_PROPERTIES`): what the phone restyles. Each is marked with the
#: attribute `RESTYLED`, which no stylesheet reads, for axe's context; the count returned.
RESTYLED = "data-crawl-restyled"
PHONE_RESTYLED = r"""([onDesktop, properties, mark]) => {
  const reads = new RegExp('^(' + properties + ')');
  const selectors = new Set();
  const walk = (rules, differs) => {
    for (const rule of rules) {
      if (rule instanceof CSSMediaRule) {
        const here = matchMedia(rule.conditionText).matches;
        walk(rule.cssRules, differs || here !== onDesktop[rule.conditionText]);
      } else if (differs && rule instanceof CSSStyleRule
          && [...rule.style].some((name) => reads.test(name))) {
        for (const selector of rule.selectorText.split(/,(?![^(]*\))/)) {
          selectors.add(selector.trim());
        }
      }
    }
  };
  for (const sheet of document.styleSheets) {
    try { walk(sheet.cssRules, false); } catch (error) { /* another origin's sheet */ }
  }
  let marked = 0;
  for (const selector of selectors) {
    let elements = [];
    try { elements = document.querySelectorAll(selector); } catch (error) { /* ::before */ }
    for (const element of elements) {
      if (!document.body.contains(element)) continue;  // axe audits what the body shows
      if (!element.hasAttribute(mark)) marked += 1;
      element.setAttribute(mark, '');
    }
  }
  return marked;
}"""


@dataclass
class Visit:
    role: str
    size: str
    address: str
    kind: str  # page, download, redirect, fragment, refused


@dataclass
class Report:
    visits: list[Visit] = field(default_factory=list)
    small: list[str] = field(default_factory=list)
    overflow: list[str] = field(default_factory=list)
    unscrolled: list[str] = field(default_factory=list)  # data tables outside a scroll container
    axe: list[str] = field(default_factory=list)
    axe_exempt: list[str] = field(default_factory=list)
    axe_runs: int = 0
    restyled: int = 0  # elements the phone's colour-contrast runs were given
    asked: int = 0  # addresses asked in-process, every person's
    templates: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    measured: int = 0
    seconds: float = 0.0
    timings: Counter = field(default_factory=Counter)

    def pages(self, role: str, size: str | None = None) -> set[str]:
        return {
            visit.address
            for visit in self.visits
            if visit.role == role and visit.kind == "page" and size in (None, visit.size)
        }

    def summary(self) -> str:
        per = ", ".join(
            f"{role} {len(self.pages(role, 'phone'))}+{len(self.pages(role, 'desktop'))}"
            for role in ROLES
        )
        kinds = Counter(visit.kind for visit in self.visits if visit.size == "phone")
        distinct = len({visit.address for visit in self.visits if visit.kind == "page"})
        return (
            f"crawl: {self.asked} addresses asked, {distinct} distinct pages opened, "
            f"{len(self.templates)} templates; pages per person (phone+desktop): {per}; "
            f"answers per person: {dict(sorted(kinds.items()))}; "
            f"{self.measured} controls measured, {len(self.small)} under {MINIMUM} px; "
            f"{len(self.overflow)} pages wider than the screen; "
            f"{len(self.unscrolled)} data tables outside a scroll container; "
            f"{self.axe_runs} axe runs "
            f"({self.restyled} elements restyled on the phone), "
            f"{len(self.axe)} serious/critical violations ({len(self.axe_exempt)} exempt); "
            f"{len(self.problems)} browser problems; "
            f"{self.seconds:.0f} s ("
            + ", ".join(f"{what} {seconds:.0f} s" for what, seconds in self.timings.items())
            + ")"
        )


def kind_of(response) -> str:
    if 300 <= response.status_code < 400:
        return "redirect"
    if response.status_code >= 400:
        return "refused"
    if (
        response.streaming
        or "attachment" in response.get("Content-Disposition", "")
        or "html" not in response.get("Content-Type", "")
    ):
        return "download"
    return "page" if b"<html" in response.content[:300].lower() else "fragment"


@dataclass(frozen=True)
class Answer:
    kind: str  # page, download, redirect, fragment, refused
    template: str = ""  # a page's own template (the first one rendered)
    shapes: frozenset[str] = frozenset()  # a page's controls and tables (`Shapes`)


class Shapes(HTMLParser):
    """What of a page the browser's checks measure: each control as its tag, type and
    classes (a tap target, an axe node), each table as its classes and its widest row in
    cells (what makes a page wider than a phone). Two pages with the same shapes differ
    only in their text."""

    CONTROLS = {"a", "button", "input", "select", "textarea", "summary"}

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()
        self.tables: list[list] = []  # open tables: [classes, widest row, cells in this row]

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        classes = ".".join(sorted((attributes.get("class") or "").split()))
        if tag in self.CONTROLS or attributes.get("role") == "button":
            kind = attributes.get("type") or ""
            if not (tag == "input" and kind == "hidden") and not (
                tag == "a" and "href" not in attributes
            ):
                self.found.add(f"{tag}[{kind}].{classes}")
        elif tag == "table":
            self.tables.append([classes, 0, 0])
        elif tag == "tr" and self.tables:
            self.tables[-1][2] = 0
        elif tag in ("td", "th") and self.tables:
            table = self.tables[-1]
            table[2] += 1
            table[1] = max(table[1], table[2])

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.tables:
            classes, widest, _cells = self.tables.pop()
            self.found.add(f"table.{classes}:{widest}")


def shapes_of(html: str) -> frozenset[str]:
    parser = Shapes()
    parser.feed(html)
    return frozenset(parser.found)


def answers(role: str, addresses: list[str], report: Report) -> dict[str, Answer]:
    """What each address is to `role`, asked in-process (no browser, no HTTP): a server
    error is a problem."""
    client = Client(raise_request_exception=False)
    if (user := Demo.user_of(role)) is not None:
        client.force_login(user)
    found = {}
    for address in addresses:
        response = client.get(address)
        if response.status_code >= 500:
            report.problems.append(f"response {response.status_code} GET {address} as {role}")
        kind = kind_of(response)
        if kind == "page":
            template = response.templates[0].name if response.templates else address
            found[address] = Answer(kind, template, shapes_of(response.content.decode()))
        else:
            found[address] = Answer(kind)
        if response.streaming:  # read to its end, which closes it (a backup's file)
            b"".join(response.streaming_content)
    return found


def opened(pages: dict[str, tuple[str, Answer]]) -> list[str]:
    """Of `pages` (address -> its route and answer), the addresses to open in the browser:
    per route the one with the most shapes, and another only while it shows a shape that
    the route's chosen ones do not."""
    by_route: dict[str, list[tuple[str, set[str]]]] = defaultdict(list)
    for address, (route, answer) in pages.items():
        by_route[route].append((address, set(answer.shapes) | {"a page"}))
    return [address for items in by_route.values() for address in cover(items)]


def audited(found: dict[str, dict[str, tuple[str, Answer]]]) -> set[tuple[str, str]]:
    """(person, address) of the page audited by axe for each template: the page of that
    template with the most shapes, the first person's (the secretary's) on a tie."""
    best: dict[str, tuple[int, str, str]] = {}
    for order, (role, pages) in enumerate(found.items()):
        for address, (_route, answer) in pages.items():
            rank = (-len(answer.shapes), order)
            if answer.template not in best or rank < best[answer.template][0]:
                best[answer.template] = (rank, role, address)
    return {(role, address) for _rank, role, address in best.values()}


#: Where a browser context keeps axe's script (654 kB) between the pages it audits: sent
#: over the wire once per context instead of once per page (the sending took longer than
#: running the script), then evaluated from there on each page it audits. Playwright's
#: evaluation is the browser's own, not bound by the page's Content-Security-Policy, for the
#: eval as for the script itself; the pages' own script keeps nothing under this key.
AXE_KEY = "bordpunt-crawl-axe"
AXE_KEEP = "([key, script]) => localStorage.setItem(key, script)"
AXE_LOAD = "(key) => (0, eval)(localStorage.getItem(key))"


class Auditor:
    """axe-core on an open page: the vendored script, injected only where axe runs."""

    def __init__(self) -> None:
        self.rules: list[str] = []
        self.kept_in: set[BrowserContext] = set()
        self.script = axe.script()

    def violations(self, page: Page, *, restyled: int | None = None) -> list[dict]:
        """Every rule on the desktop (`restyled` None); on the phone every rule but the
        colour-contrast one on the whole page, and that one on the elements marked
        `RESTYLED` (`restyled` of them)."""
        if page.context not in self.kept_in:
            page.evaluate(AXE_KEEP, [AXE_KEY, self.script])
            self.kept_in.add(page.context)
        page.evaluate(AXE_LOAD, AXE_KEY)
        if not self.rules:
            assert page.evaluate("() => axe.version") == axe.VERSION
            self.rules = page.evaluate(AXE_RULES, SEVERE)
            assert {
                CONTRAST,
                "label",
                "scrollable-region-focusable",
                "label-content-name-mismatch",
            } <= set(self.rules)
        if restyled is None:
            found = page.evaluate(AXE_RUN, [None, self.rules])["violations"]
        else:
            others = [rule for rule in self.rules if rule != CONTRAST]
            found = page.evaluate(AXE_RUN, [None, others])["violations"]
            if restyled:
                found += page.evaluate(AXE_RUN, [RESTYLED, [CONTRAST]])["violations"]
        return [violation for violation in found if violation["impact"] in SEVERE]


def exempt(rule: str, address: str, targets: list[str]) -> bool:
    if rule not in AXE_EXEMPT:
        return False
    addresses, elements, _why = AXE_EXEMPT[rule]
    return bool(addresses.search(address)) and all(elements.search(t) for t in targets)


def crawl_role(
    browser: Browser,
    base: str,
    role: str,
    addresses: list[str],
    report: Report,
    audit: set[str],
) -> None:
    """Open `addresses` as `role` on the desktop, then on the phone; axe runs on those in
    `audit` at both sizes."""
    guard = BrowserGuard()
    auditor = Auditor()
    on_desktop: dict[str, bool] = {}  # media query -> whether it holds on the desktop
    cookies = []
    if (user := Demo.user_of(role)) is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies["sessionid"].value
        cookies = [{"name": "sessionid", "value": session, "url": base}]
    for size in ("desktop", "phone"):
        # Reduced motion: Bootstrap then sets no transitions, and axe reads the colours a
        # control settles on, not a frame of its fade (an autofocused button's, on the
        # board's "who starts" form, measured mid-way now and then).
        context = browser.new_context(locale="nl-NL", reduced_motion="reduce", **SIZES[size])
        guard.watch_context(context)
        context.add_cookies(cookies)
        page = context.new_page()
        for number, address in enumerate(addresses):
            report.visits.append(Visit(role, size, address, "page"))
            clock = time.monotonic()
            page.goto(base + address)
            report.timings[f"open {size}"] += time.monotonic() - clock
            where = f"{role} {size} {address}"
            wider, tables = overflow(page)
            if wider > 0:
                report.overflow.append(f"{where}: {wider} px wider")
            report.unscrolled += [f"{where}: {table}" for table in tables]
            if size == "desktop":
                on_desktop.update(page.evaluate(MEDIA_HOLDING))
            else:
                if number == 0 and page.locator(".navbar-toggler").count():
                    page.locator(".navbar-toggler").tap()
                    page.locator("#nav.show").wait_for()
                clock = time.monotonic()
                measured = page.evaluate(MEASURE, MINIMUM)
                report.timings["measure"] += time.monotonic() - clock
                report.measured += measured["measured"]
                report.small += [f"{where}: {control}" for control in measured["small"]]
            if address not in audit:
                continue
            clock = time.monotonic()
            report.axe_runs += 1
            restyled = None
            if size == "phone":
                restyled = page.evaluate(
                    PHONE_RESTYLED, [on_desktop, CONTRAST_PROPERTIES, RESTYLED]
                )
                report.restyled += restyled
            for violation in auditor.violations(page, restyled=restyled):
                targets = [",".join(node["target"][-1:]) for node in violation["nodes"]]
                line = f"{where}: {violation['id']} ({violation['impact']}) " + " ".join(
                    targets[:4]
                )
                if exempt(violation["id"], address, targets):
                    report.axe_exempt.append(line)
                else:
                    report.axe.append(line)
            report.timings[f"axe {size}"] += time.monotonic() - clock
        guard.settle()
        guard.closing(context)
        context.close()
    report.problems += guard.problems


@pytest.fixture(scope="module")
def crawl(browser, live_server, django_db_setup, django_db_blocker) -> Report:
    """The demo data, seeded once, crawled as every person at both sizes."""
    report = Report()
    started, cpu = time.monotonic(), os.times()
    with django_db_blocker.unblock():
        clock = time.monotonic()
        seed()
        report.timings["seed"] += time.monotonic() - clock
        try:
            every = routes_of(Demo.read())
            roles = os.environ.get("CRAWL_ROLES", "secretary,player,visitor,admin").split(",")
            pages: dict[str, dict[str, tuple[str, Answer]]] = {}
            clock = time.monotonic()
            for role in roles:
                mine = [a for a in every if a.startswith("/admin/") == (role == "admin")]
                if role != "admin":
                    mine.append("/admin/login/")
                found = answers(role, mine, report)
                for size in SIZES:
                    report.visits += [
                        Visit(role, size, address, answer.kind)
                        for address, answer in found.items()
                        if answer.kind != "page"
                    ]
                pages[role] = {
                    address: (every[address], answer)
                    for address, answer in found.items()
                    if answer.kind == "page"
                }
                report.asked += len(mine)
                report.templates |= {answer.template for _route, answer in pages[role].values()}
            report.timings["ask"] += time.monotonic() - clock
            audit = audited(pages)
            for role in roles:
                crawl_role(
                    browser,
                    live_server.url,
                    role,
                    opened(pages[role]),
                    report,
                    {address for who, address in audit if who == role},
                )
        finally:
            wait_for_the_live_server_to_finish()
            call_command("flush", interactive=False, verbosity=0)
    report.seconds = time.monotonic() - started
    report.timings["CPU of this process"] = sum(os.times()[:2]) - sum(cpu[:2])
    print("\n" + report.summary())
    if path := os.environ.get("CRAWL_REPORT"):  # every finding, for whoever fixes them
        with open(path, "w", encoding="utf-8") as out:
            for name in ("small", "overflow", "unscrolled", "axe", "axe_exempt", "problems"):
                out.write(f"== {name}\n" + "".join(f"{line}\n" for line in getattr(report, name)))
    return report


def test_every_page_as_every_person_at_both_sizes(crawl):
    """The crawl reached every person's pages, and none of them has a browser problem, is
    wider than the screen, has a control too small to tap on the phone or a serious or
    critical axe violation. Every failing check is listed, not only the first."""
    failures = []
    reached = {role: len(crawl.pages(role)) for role in ROLES}
    if not all(reached[role] >= MINIMUM_PAGES[role] for role in ROLES):
        failures.append(f"too few pages reached: {reached}, at least {MINIMUM_PAGES}")
    kinds = {visit.kind for visit in crawl.visits}
    if not {"page", "download", "redirect", "fragment", "refused"} <= kinds:
        failures.append(f"answers seen: {sorted(kinds)}")
    if crawl.measured < 1000:
        failures.append(f"only {crawl.measured} controls measured")
    by_rule: dict[str, int] = defaultdict(int)
    for line in crawl.axe:
        by_rule[line.split(": ", 1)[1].split(" ")[0]] += 1
    for name, found in (
        ("browser problems", crawl.problems),
        ("pages wider than the screen", crawl.overflow),
        ("data tables outside a scroll container", crawl.unscrolled),
        (f"controls under {MINIMUM} px on the phone", crawl.small),
        (f"serious/critical axe violations {dict(by_rule)}", crawl.axe),
    ):
        if found:
            failures.append(f"{len(found)} {name}:\n" + "\n".join(found))
    assert failures == [], "\n\n".join(failures)
