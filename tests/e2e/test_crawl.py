"""Every page of the site in Chromium, as each kind of person, on a phone and a desktop.

The pages are every route of the URL configuration filled from the demo data
(`tests.crawl`): public, the player's, the secretary's (who is also the duplicate
evening's spelleider), the Django admin's as a superuser, the print pages. Each person has
one browser context per size: a phone (360×740, touch) and a desktop (1280×900). Every
address is first asked without following redirects: a download (CSV, JSON, GCG, ZIP,
TSH), a redirect, a fragment (an htmx part) or a refusal is recorded as such; a full HTML
page is opened, and on it:

- no console error, page error, failed request or response of 400 or more (BrowserGuard);
- nothing wider than the screen: `document.documentElement.scrollWidth <= innerWidth`;
- on the phone, every control at least 44×44 px (`test_tap_targets.MEASURE`, with its
  documented exemptions and WCAG 2.5.8's spacing exception);
- no serious or critical violation of axe-core (the script shipped in the PyPI package
  axe-playwright-python), run once per person and address, on the phone.

Exempt from axe, and only there: see `AXE_EXEMPT`.

`pytest -s tests/e2e/test_crawl.py` prints the figures (pages per person and size, controls
measured, axe violations); the data are seeded once for the module.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser

from tests.crawl import ROLES, Demo, addresses, seed
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
SEVERE = {"serious", "critical"}
#: axe rules the Django admin's own markup cannot meet, per admin address pattern, each
#: with the reason; nothing of our own pages is exempt.
AXE_EXEMPT: dict[str, tuple[re.Pattern[str], str]] = {}

#: Browser problems of the Django admin's own code, each with the reason; only these.
BROWSER_EXEMPT = [
    (
        # jQuery, shipped inside the admin, probes the browser on the add and change forms
        # by writing elements with a style attribute; the site's Content-Security-Policy
        # (style-src 'self', config/settings.py) refuses inline styles, and the admin works
        # without the probe's answer. Relaxing the policy for the admin would be the price.
        re.compile(
            r"^console error: Applying inline style violates .*'style-src 'self''.*"
            r"\[on http://[^/]+/admin/\w+/\w+/(add|\d+/change)/\]$"
        ),
        "jQuery's probe in the admin's forms",
    ),
]

OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


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
            f"answers on the phone: {dict(sorted(kinds.items()))}; "
            f"{self.measured} controls measured, {len(self.small)} under {MINIMUM} px; "
            f"{len(self.overflow)} pages wider than the screen; "
            f"{len(self.axe)} serious/critical axe violations "
            f"({len(self.axe_exempt)} exempt); {len(self.problems)} browser problems; "
            f"{self.seconds:.0f} s ("
            + ", ".join(f"{what} {seconds:.0f} s" for what, seconds in self.timings.items())
            + ")"
        )


def kind_of(response) -> str:
    if 300 <= response.status < 400:
        return "redirect"
    if response.status >= 400:
        return "refused"
    content_type = response.headers.get("content-type", "")
    if "attachment" in response.headers.get("content-disposition", "") or "html" not in (
        content_type
    ):
        return "download"
    return "page" if b"<html" in response.body()[:300].lower() else "fragment"


def crawl_role(
    browser: Browser, base: str, role: str, pages: list[str], report: Report, checked: set[str]
) -> None:
    """Open `pages` as `role` at both sizes; axe runs on the phone, once per address
    (`checked`: the addresses it ran on for a person before)."""
    guard = BrowserGuard()
    axe = Axe()
    cookies = []
    if (user := Demo.user_of(role)) is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies["sessionid"].value
        cookies = [{"name": "sessionid", "value": session, "url": base}]
    for size, options in SIZES.items():
        context = browser.new_context(locale="nl-NL", **options)
        guard.watch_context(context)
        context.add_cookies(cookies)
        page = context.new_page()
        for number, address in enumerate(pages):
            clock = time.monotonic()
            answer = context.request.get(base + address, max_redirects=0)
            kind = kind_of(answer)
            report.timings["ask"] += time.monotonic() - clock
            report.visits.append(Visit(role, size, address, kind))
            if kind != "page":
                continue
            clock = time.monotonic()
            page.goto(base + address)
            report.timings[f"open {size}"] += time.monotonic() - clock
            where = f"{role} {size} {address}"
            if (wider := page.evaluate(OVERFLOW)) > 0:
                report.overflow.append(f"{where}: {wider} px wider")
            if size != "phone":
                continue
            if number == 0 and page.locator(".navbar-toggler").count():
                page.locator(".navbar-toggler").tap()
                page.locator("#nav.show").wait_for()
            clock = time.monotonic()
            measured = page.evaluate(MEASURE, MINIMUM)
            report.timings["measure"] += time.monotonic() - clock
            report.measured += measured["measured"]
            report.small += [f"{where}: {control}" for control in measured["small"]]
            if address in checked:
                continue
            checked.add(address)
            clock = time.monotonic()
            for violation in axe.run(page).response["violations"]:
                if violation["impact"] not in SEVERE:
                    continue
                targets = " ".join(",".join(node["target"][-1:]) for node in violation["nodes"][:4])
                line = f"{where}: {violation['id']} ({violation['impact']}) {targets}"
                exempt = AXE_EXEMPT.get(violation["id"])
                if exempt and exempt[0].search(address):
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
    started = time.monotonic()
    with django_db_blocker.unblock():
        seed()
        try:
            demo = Demo.read()
            every = addresses(demo)
            checked: set[str] = set()
            # The secretary first: their pages hold the most; axe checks each address once.
            for role in os.environ.get("CRAWL_ROLES", "secretary,player,visitor,admin").split(","):
                mine = [a for a in every if a.startswith("/admin/") == (role == "admin")]
                if role != "admin":
                    mine.append("/admin/login/")
                crawl_role(browser, live_server.url, role, mine, report, checked)
        finally:
            wait_for_the_live_server_to_finish()
            call_command("flush", interactive=False, verbosity=0)
    report.seconds = time.monotonic() - started
    print("\n" + report.summary())
    if path := os.environ.get("CRAWL_REPORT"):  # every finding, for whoever fixes them
        with open(path, "w", encoding="utf-8") as out:
            for name in ("small", "overflow", "axe", "axe_exempt", "problems"):
                out.write(f"== {name}\n" + "".join(f"{line}\n" for line in getattr(report, name)))
    return report


def test_the_crawl_reaches_every_persons_pages(crawl):
    reached = {role: len(crawl.pages(role)) for role in ROLES}
    assert all(reached[role] >= MINIMUM_PAGES[role] for role in ROLES), reached
    for role in ROLES:
        assert crawl.pages(role, "phone") == crawl.pages(role, "desktop")
    kinds = {visit.kind for visit in crawl.visits}
    assert {"page", "download", "redirect", "fragment", "refused"} <= kinds


def test_no_page_has_a_browser_problem(crawl):
    problems = [
        problem
        for problem in crawl.problems
        if not any(pattern.search(problem) for pattern, _why in BROWSER_EXEMPT)
    ]
    assert problems == [], "\n".join(problems)


def test_no_page_is_wider_than_the_screen(crawl):
    assert crawl.overflow == [], "\n".join(crawl.overflow)


def test_every_control_on_a_phone_is_big_enough_to_tap(crawl):
    assert crawl.measured > 1000
    assert crawl.small == [], f"{len(crawl.small)} controls under {MINIMUM} px:\n" + "\n".join(
        crawl.small
    )


def test_no_serious_or_critical_axe_violation(crawl):
    by_rule = defaultdict(int)
    for line in crawl.axe:
        by_rule[line.split(": ", 1)[1].split(" ")[0]] += 1
    assert crawl.axe == [], f"{dict(by_rule)}\n" + "\n".join(crawl.axe)
