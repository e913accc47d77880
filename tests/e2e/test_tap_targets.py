"""Every control on every page is at least 44×44 CSS px on a phone (360×740, touch), for a
player holding a phone at the board: WCAG 2.5.5's target size.

`MEASURE` is the measure; the crawl (tests/e2e/test_crawl.py) takes it to every page of
the site, as every kind of person, with the navigation menu opened once per person: every
visible a, button, input, select, textarea, summary and [role=button] is measured. This
module measures what no address opens: a form after a refused post.

Exempt, and only these:
- a link inside running text (WCAG 2.5.5's *inline* exception: "the target is in a sentence
  or block of text"): an inline `<a>` whose block holds words besides its links' own (a
  row of links separated by dots, a breadcrumb, is measured: `.link-row` in touch.css);
- a checkbox or radio button whose label is at least 44×44: the label takes the tap too
  (WCAG counts it as part of the target);
- the board's squares (`.board`): the `board` task sizes them, its test measures them;
- the Django admin's date and time shortcuts (`.datetimeshortcuts`): its own markup;
- a smaller target with room around it: WCAG 2.5.8's spacing exception at 44 px, a circle
  of 44 px on its centre meets no other target nor another small target's circle.
"""

import pytest
from django.test import Client
from playwright.sync_api import Browser

from tests import test_odd_forms

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
    // Words of the block besides its links': a row of links ("Print · Score sheets ·
    // JSON", a breadcrumb) is no sentence, each of its links is a target of its own.
    const block = blockOf(element);
    let around = block ? block.textContent : '';
    for (const link of block ? block.querySelectorAll('a') : []) {
      around = around.replace(link.textContent, '');
    }
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
  const targets = [];
  for (const element of document.querySelectorAll(controls)) {
    if (element.closest('.board')) continue;
    // The Django admin's date and time shortcuts ("Vandaag", "Nu", the calendar and clock):
    // its own markup, as its tables are (docs/testing.md).
    if (element.closest('.datetimeshortcuts')) continue;
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
    targets.push({element, box, fits});
  }
  // WCAG 2.5.8's spacing exception, at this size: a smaller target passes when a circle of
  // `minimum` diameter on its centre meets no other target, nor another small one's circle.
  const centre = (b) => [b.left + b.width / 2, b.top + b.height / 2];
  const distanceToBox = ([x, y], b) => Math.hypot(
    Math.max(b.left - x, 0, x - b.right), Math.max(b.top - y, 0, y - b.bottom));
  const spaced = (target) => targets.every((other) => {
    if (other === target) return true;
    const here = centre(target.box);
    if (distanceToBox(here, other.box) < minimum / 2) return false;
    if (other.fits) return true;
    const there = centre(other.box);
    return Math.hypot(here[0] - there[0], here[1] - there[1]) >= minimum;
  });
  const small = targets.filter((target) => !target.fits && !spaced(target)).map(
    ({element, box}) => `${describe(element)} ${Math.round(box.width)}×${Math.round(box.height)}`);
  return {measured: targets.length, small};
}"""


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
    assert page.evaluate(MEASURE, MINIMUM)["small"] == []
    # The label takes the tap: one tap on the word ticks the box.
    page.get_by_text("klopt").first.tap()
    assert checkbox.is_checked()
    context.close()
