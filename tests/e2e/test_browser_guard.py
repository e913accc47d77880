"""The guard of every browser test hears what a visitor's browser would complain about: a
missing page, a script that throws, a console error, a request that fails."""

import pytest
from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_guard_hears_every_kind_of_problem(
    page: Page, browser: Browser, live_server, browser_guard
):
    page.goto(f"{live_server.url}/bestaat-niet/")
    page.evaluate("console.error('kapot')")
    page.evaluate("setTimeout(() => { throw new Error('gegooid') })")
    page.route("**/afgebroken/", lambda route: route.abort("internetdisconnected"))
    page.evaluate("fetch('/afgebroken/').catch(() => null)")
    # A page the test opened on its own is watched too.
    other = browser.new_page()
    other.goto(f"{live_server.url}/ook-niet/")
    browser_guard.settle()
    heard = "\n".join(browser_guard.problems)
    assert "response 404 GET" in heard and "/bestaat-niet/" in heard
    assert "console error: kapot" in heard
    assert "page error: gegooid" in heard
    assert "request failed: net::ERR_INTERNET_DISCONNECTED GET" in heard
    assert "/ook-niet/" in heard
    assert browser_guard.unexpected([r"/bestaat-niet/|kapot|gegooid|afgebroken|ook-niet"]) == []
    browser_guard.problems.clear()  # heard: the test itself passes
    other.context.close()


@pytest.mark.browser_errors(r"response 404 GET .*/bestaat-niet/", r"status of 404")
def test_a_test_may_expect_the_problems_it_provokes(page: Page, live_server):
    page.goto(f"{live_server.url}/bestaat-niet/")
    assert page.locator("h1").inner_text() == "Pagina niet gevonden"
