"""Every page of the site in Chromium, as each kind of person, on a phone and a desktop.

The pages are every route of the URL configuration filled from the demo data
(`tests.crawl`): public, the player's, the secretary's (who is also the duplicate
evening's spelleider), the Django admin's as a superuser, the print pages. Every address
is first asked in-process with Django's test client as that person: a download (CSV,
JSON, GCG, ZIP, TSH), a redirect, a fragment (an htmx part) or a refusal is recorded as
such, a server error is a problem; a full HTML page is opened in Chromium, in one browser
context per person and size: a phone (360×740, touch) and a desktop (1280×900). On it:

- no console error, page error, failed request or response of 400 or more (BrowserGuard);
- nothing wider than the screen: `document.documentElement.scrollWidth <= innerWidth`;
- on the phone, every control at least 44×44 px (`test_tap_targets.MEASURE`, with its
  documented exemptions and WCAG 2.5.8's spacing exception);
- no serious or critical violation of axe-core (the script shipped in the PyPI package
  axe-playwright-python, never a CDN's), run on the phone on the first address of each
  route per person, on the desktop on the first address of each route (the first person
  to have it as a page; the secretary, who sees the most, comes first): the other
  addresses of a route show other data in the same template. axe runs the rules of its
  default run that can find a serious or critical violation, no others.

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

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page

from tests.crawl import ROLES, Demo, routes_of
from tests.demo_copy import seed
from tests.e2e.conftest import wait_for_the_live_server_to_finish
from tests.e2e.guard import BrowserGuard
from tests.e2e.test_tap_targets import MEASURE, MINIMUM

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

OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"
#: The rules of axe-core's default run (enabled, not experimental) that can report a
#: serious or critical violation (a rule's impact is the most its checks can find); the
#: others (landmarks, headings, the slow "region") only ever report moderate or minor ones,
#: which the crawl does not count. Its experimental rules are not run either: one of them
#: (css-orientation-lock) reads the stylesheets by writing <style> elements, which the
#: Content-Security-Policy refuses, and the console errors were axe's, not the page's.
AXE_RULES = (
    "(impacts) => axe._audit.rules.filter((rule) => rule.enabled"
    " && !rule.tags.includes('experimental') && impacts.includes(rule.impact))"
    ".map((rule) => rule.id)"
)
AXE_RUN = (
    "(rules) => axe.run(document, {runOnly: {type: 'rule', values: rules},"
    " resultTypes: ['violations']})"
)


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
    axe: list[str] = field(default_factory=list)
    axe_exempt: list[str] = field(default_factory=list)
    axe_runs: int = 0
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
            f"crawl: {distinct} distinct pages; pages per person (phone+desktop): {per}; "
            f"answers per person: {dict(sorted(kinds.items()))}; "
            f"{self.measured} controls measured, {len(self.small)} under {MINIMUM} px; "
            f"{len(self.overflow)} pages wider than the screen; {self.axe_runs} axe runs, "
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


def answers(role: str, addresses: list[str], report: Report) -> dict[str, str]:
    """What each address is to `role`, asked in-process (no browser, no HTTP): a server
    error is a problem."""
    client = Client(raise_request_exception=False)
    if (user := Demo.user_of(role)) is not None:
        client.force_login(user)
    kinds = {}
    for address in addresses:
        response = client.get(address)
        if response.status_code >= 500:
            report.problems.append(f"response {response.status_code} GET {address} as {role}")
        kinds[address] = kind_of(response)
        if response.streaming:  # read to its end, which closes it (a backup's file)
            b"".join(response.streaming_content)
    return kinds


#: Where a browser context keeps axe's script (572 kB) between the pages it audits: sent
#: over the wire once per context instead of once per page (the sending took longer than
#: running the script), then evaluated from there on each page it audits. Playwright's
#: evaluation is the browser's own, not bound by the page's Content-Security-Policy, for the
#: eval as for the script itself; the pages' own script keeps nothing under this key.
AXE_KEY = "bordpunt-crawl-axe"
AXE_KEEP = "([key, script]) => localStorage.setItem(key, script)"
AXE_LOAD = "(key) => (0, eval)(localStorage.getItem(key))"


class Auditor:
    """axe-core on an open page: the package's script, injected only where axe runs."""

    def __init__(self) -> None:
        self.rules: list[str] = []
        self.kept_in: set[BrowserContext] = set()

    def violations(self, page: Page) -> list[dict]:
        if page.context not in self.kept_in:
            page.evaluate(AXE_KEEP, [AXE_KEY, AXE_SCRIPT])
            self.kept_in.add(page.context)
        page.evaluate(AXE_LOAD, AXE_KEY)
        if not self.rules:
            self.rules = page.evaluate(AXE_RULES, SEVERE)
            assert {"color-contrast", "label", "scrollable-region-focusable"} <= set(self.rules)
        found = page.evaluate(AXE_RUN, self.rules)["violations"]
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
    pages: dict[str, str],
    report: Report,
    audited: set[tuple[str, ...]],
) -> None:
    """Open `pages` (address -> route) as `role` at both sizes; axe runs on the first
    address of each route on the phone, and of each route not `audited` for another
    person before on the desktop."""
    guard = BrowserGuard()
    auditor = Auditor()
    cookies = []
    if (user := Demo.user_of(role)) is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies["sessionid"].value
        cookies = [{"name": "sessionid", "value": session, "url": base}]
    for size, options in SIZES.items():
        # Reduced motion: Bootstrap then sets no transitions, and axe reads the colours a
        # control settles on, not a frame of its fade (an autofocused button's, on the
        # board's "who starts" form, measured mid-way now and then).
        context = browser.new_context(locale="nl-NL", reduced_motion="reduce", **options)
        guard.watch_context(context)
        context.add_cookies(cookies)
        page = context.new_page()
        for number, (address, route) in enumerate(pages.items()):
            report.visits.append(Visit(role, size, address, "page"))
            clock = time.monotonic()
            page.goto(base + address)
            report.timings[f"open {size}"] += time.monotonic() - clock
            where = f"{role} {size} {address}"
            if (wider := page.evaluate(OVERFLOW)) > 0:
                report.overflow.append(f"{where}: {wider} px wider")
            if size == "phone":
                if number == 0 and page.locator(".navbar-toggler").count():
                    page.locator(".navbar-toggler").tap()
                    page.locator("#nav.show").wait_for()
                clock = time.monotonic()
                measured = page.evaluate(MEASURE, MINIMUM)
                report.timings["measure"] += time.monotonic() - clock
                report.measured += measured["measured"]
                report.small += [f"{where}: {control}" for control in measured["small"]]
            key = (size, route, role) if size == "phone" else (size, route)
            if key in audited:
                continue
            audited.add(key)
            clock = time.monotonic()
            report.axe_runs += 1
            for violation in auditor.violations(page):
                targets = [",".join(node["target"][-1:]) for node in violation["nodes"]]
                line = f"{where}: {violation['id']} ({violation['impact']}) " + " ".join(
                    targets[:4]
                )
                if exempt(violation["id"], address, targets):
                    report.axe_exempt.append(line)
                else:
                    report.axe.append(line)
            report.timings["axe"] += time.monotonic() - clock
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
            audited: set[tuple[str, ...]] = set()
            for role in os.environ.get("CRAWL_ROLES", "secretary,player,visitor,admin").split(","):
                mine = [a for a in every if a.startswith("/admin/") == (role == "admin")]
                if role != "admin":
                    mine.append("/admin/login/")
                clock = time.monotonic()
                kinds = answers(role, mine, report)
                report.timings["ask"] += time.monotonic() - clock
                for size in SIZES:
                    report.visits += [
                        Visit(role, size, address, kind)
                        for address, kind in kinds.items()
                        if kind != "page"
                    ]
                pages = {address: every[address] for address in mine if kinds[address] == "page"}
                crawl_role(browser, live_server.url, role, pages, report, audited)
        finally:
            wait_for_the_live_server_to_finish()
            call_command("flush", interactive=False, verbosity=0)
    report.seconds = time.monotonic() - started
    report.timings["CPU of this process"] = sum(os.times()[:2]) - sum(cpu[:2])
    print("\n" + report.summary())
    if path := os.environ.get("CRAWL_REPORT"):  # every finding, for whoever fixes them
        with open(path, "w", encoding="utf-8") as out:
            for name in ("small", "overflow", "axe", "axe_exempt", "problems"):
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
        (f"controls under {MINIMUM} px on the phone", crawl.small),
        (f"serious/critical axe violations {dict(by_rule)}", crawl.axe),
    ):
        if found:
            failures.append(f"{len(found)} {name}:\n" + "\n".join(found))
    assert failures == [], "\n\n".join(failures)
