"""The browser tests' guard: every console error, uncaught page error, failed request and
response of 400 or more in any page a test opens is collected, and the test fails at
teardown with the list unless it said it expects them (`@pytest.mark.browser_errors`).

A visitor never sees the console, but an error there is a page that did not work as it was
written (a refused inline style, a script that threw, a stylesheet that did not load).
"""

import contextlib
import re
from collections.abc import Iterable

from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request, Response


def cancelled(request: Request) -> bool:
    """Cancelled, not failed: the page went on to another address before the request was
    answered (a favicon when a test navigates right after a redirect), or a download."""
    return request.failure == "net::ERR_ABORTED"


class BrowserGuard:
    """Listens to every page of every watched context; `problems` is what it heard."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.contexts: list[BrowserContext] = []
        self._closing: set[int] = set()

    def watch_context(self, context: BrowserContext) -> None:
        if context in self.contexts:
            return
        self.contexts.append(context)
        context.on("page", self.watch_page)
        for page in context.pages:
            self.watch_page(page)

    def watch_page(self, page: Page) -> None:
        if getattr(page, "_bordpunt_guarded", False):
            return
        page._bordpunt_guarded = True  # type: ignore[attr-defined]

        def heard(text: str) -> None:
            # Requests cut off because the test closes its page or context are not the site's.
            if id(page) not in self._closing and id(page.context) not in self._closing:
                self.problems.append(f"{text} [on {page.url}]")

        def console(message: ConsoleMessage) -> None:
            if message.type == "error":
                url = message.location.get("url", "")
                heard(f"console error: {message.text} ({url})")

        def failed(request: Request) -> None:
            if cancelled(request):
                return
            heard(f"request failed: {request.failure} {request.method} {request.url}")

        def response(answer: Response) -> None:
            if answer.status >= 400:
                heard(f"response {answer.status} {answer.request.method} {answer.url}")

        page.on("console", console)
        page.on("pageerror", lambda error: heard(f"page error: {error}"))
        page.on("requestfailed", failed)
        page.on("response", response)

    def closing(self, target: Page | BrowserContext) -> None:
        self._closing.add(id(target))

    def settle(self) -> None:
        """One round trip to every open page, so the events sent before it are heard."""
        for context in self.contexts:
            for page in context.pages:
                if not page.is_closed():
                    # A page going away meanwhile has nothing more to say.
                    with contextlib.suppress(Exception):
                        page.evaluate("0")
            self.closing(context)

    def close_all(self) -> None:
        """Close every context the test opened and left open: a page that polls (the room
        screen, a phone's slip page) would go on asking the live server during the tests
        after it."""
        for context in self.contexts:
            self.closing(context)
            with contextlib.suppress(Exception):  # closed already, by the test or the fixture
                context.close()

    def unexpected(self, patterns: Iterable[str]) -> list[str]:
        """The problems that none of the expected `patterns` (regular expressions) matches."""
        compiled = [re.compile(pattern) for pattern in patterns]
        return [
            problem
            for problem in self.problems
            if not any(pattern.search(problem) for pattern in compiled)
        ]
