"""Every control on every page is at least 44×44 CSS px on a phone (360×740, touch), for a
player holding a phone at the board: WCAG 2.5.5's target size.

The pages are every route of the site with the values of `tests.test_odd_forms`' evening
(a finished round, tonight's published round with a dispute, a draft round), as a visitor,
as a player with a game tonight and as the club's secretary; each one a full HTML page for
that person is opened in Chromium, the navigation menu opened once per person, and every
visible a, button, input, select, textarea, summary and [role=button] measured.

Exempt, and only these:
- a link inside running text (WCAG 2.5.5's *inline* exception: "the target is in a sentence
  or block of text"): an inline `<a>` whose block holds words besides the link's own;
- a checkbox or radio button whose label is at least 44×44: the label takes the tap too
  (WCAG counts it as part of the target);
- the board's squares (`.board`): the `board` task sizes them, its test measures them.
"""

import pytest
from django.test import Client
from playwright.sync_api import Browser

from tests import test_odd_forms
from tests.test_odd_forms import NOT_POSTED, page_addresses

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

evening = test_odd_forms.evening  # the fixture: the same evening as the odd forms

PHONE = {"width": 360, "height": 740}
MINIMUM = 44

MEASURE = """(minimum) => {
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary,'
    + ' [role=button]';
  const blockOf = (element) => {
    let parent = element.parentElement;
    while (parent && ['inline', 'contents'].includes(getComputedStyle(parent).display)) {
      parent = parent.parentElement;
    }
    return parent;
  };
  const inRunningText = (element) => {
    if (element.tagName !== 'A' || getComputedStyle(element).display !== 'inline') return false;
    const block = blockOf(element);
    const around = block ? block.textContent.replace(element.textContent, '') : '';
    return /\\p{L}{2,}/u.test(around);
  };
  const describe = (element) => {
    const text = (element.innerText || element.value || element.getAttribute('aria-label') || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 40);
    return element.tagName.toLowerCase()
      + (element.id ? '#' + element.id : '')
      + (element.name ? `[name=${element.name}]` : '')
      + (element.type && element.tagName === 'INPUT' ? `[type=${element.type}]` : '')
      + (text ? ` "${text}"` : '')
      + ` in ${element.parentElement.tagName.toLowerCase()}`
      + [...element.parentElement.classList].map((name) => '.' + name).join('');
  };
  const small = [];
  for (const element of document.querySelectorAll(controls)) {
    if (element.closest('.board')) continue;
    if (!element.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    if (getComputedStyle(element).pointerEvents === 'none') continue;
    const box = element.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // visually hidden until focused
    if (inRunningText(element)) continue;
    const boxes = [box];
    if (['checkbox', 'radio'].includes(element.type)) {
      for (const label of element.labels) boxes.push(label.getBoundingClientRect());
    }
    const fits = boxes.some((b) => b.width + 0.01 >= minimum && b.height + 0.01 >= minimum);
    if (!fits) {
      small.push(`${describe(element)} ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return small;
}"""


def pages_of(client: Client, values: dict[str, list[str]]) -> list[str]:
    """The addresses that give this person a full HTML page (no fragment, no download)."""
    pages = []
    for address in page_addresses(values):
        if address in NOT_POSTED:
            continue
        response = client.get(address)
        if (
            response.status_code == 200
            and "html" in response.get("Content-Type", "")
            and b"<html" in response.content[:200]
        ):
            pages.append(address)
    return pages


@pytest.mark.parametrize("who", ["visitor", "anna", "secretary"])
def test_every_control_on_every_page_is_big_enough_to_tap(
    browser: Browser,
    live_server,
    evening,
    who,
):
    client = Client()
    if who != "visitor":
        client.force_login(evening[who])
    pages = pages_of(client, evening["values"])
    assert len(pages) >= (10 if who == "visitor" else 20), pages
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="nl-NL")
    if who != "visitor":
        session = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
    page = context.new_page()
    too_small = []
    for number, address in enumerate(pages):
        page.goto(live_server.url + address)
        if number == 0:
            page.locator(".navbar-toggler").tap()
            page.locator("#nav.show").wait_for()
        too_small += [f"{address}: {element}" for element in page.evaluate(MEASURE, MINIMUM)]
    context.close()
    assert not too_small, f"{len(too_small)} controls under {MINIMUM}×{MINIMUM} px:\n" + "\n".join(
        too_small
    )


def test_the_score_is_right_checkbox_is_big_enough_to_tap(browser: Browser, live_server, evening):
    """The *klopt* checkbox shows only after an implausible score was refused: the page the
    walk above cannot reach by opening addresses."""
    client = Client()
    client.force_login(evening["secretary"])
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="nl-NL")
    session = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/gouda/clubcompetitie/beheer/ronde/2/uitslagen/")
    page.locator("#id_form-1-score_a").fill("612")
    page.locator("#id_form-1-score_b").fill("300")
    page.locator("#id_form-1-score_b").press("Enter")
    checkbox = page.locator("#id_form-1-confirm")
    checkbox.wait_for()
    assert page.evaluate(MEASURE, MINIMUM) == []
    # The label takes the tap: one tap on the word ticks the box.
    page.get_by_text("klopt").first.tap()
    assert checkbox.is_checked()
    context.close()
