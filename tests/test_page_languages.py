"""No English word on a Dutch page, no Dutch word on an English page.

Every page of the crawl's list (`tests.crawl`: the URL configuration filled from the demo
data) is fetched with Django's test client as the secretary, the player, a visitor and the
admin, in Dutch and in English, the language chosen as the site's switch chooses it (the
language cookie). Its visible text (and the texts a screen reader reads: title,
aria-label, placeholder, alt, a button's value) is split into words and checked against
word lists taken from the catalogue itself: words that occur only in the English msgids
(not in any Dutch msgstr) must not show on a Dutch page, words only in the Dutch msgstrs
not on an English page. So the check follows new messages by itself. Left out: the demo's
names, Scrabble words (written in capitals), text marked with a `lang` of its own (the
language switch names each language in itself), and `SHARED`.
"""

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

from clubs.models import Club, Player
from competition.models import Competition
from tests.crawl import Demo, addresses
from tests.demo_copy import seed
from tests.test_translations import entries

#: Words written the same in both languages that the catalogue happens to use in one only.
SHARED = {
    "admin", "bordpunt", "csv", "duplicate", "gcg", "glicko", "elo", "html", "json", "id",
    "ok", "pdf", "qr", "rating", "ratings", "scrabble", "solo", "top", "tops", "tsh", "wifi",
    "zip", "bye", "gouds", "naspa", "sbnl", "ntsv", "fisf", "swiss", "django",
}  # fmt: skip
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}|<[^>]+>")
WORD = re.compile(r"[^\W\d_]{2,}")
READ_ALOUD = ("title", "aria-label", "placeholder", "alt")

pytestmark = [pytest.mark.django_db, pytest.mark.walk]


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(PLACEHOLDER.sub(" ", text))}


def word_lists() -> tuple[set[str], set[str]]:
    """(English only, Dutch only), from the catalogue."""
    english, dutch = set(), set()
    for entry in entries():
        english |= words(entry["msgid"] + " " + entry.get("msgid_plural", ""))
        dutch |= words(" ".join(value for key, value in entry.items() if key.startswith("msgstr")))
    return english - dutch - SHARED, dutch - english - SHARED


class VisibleText(HTMLParser):
    """The words a person sees or hears on the page, each with its element."""

    SKIPPED = {"script", "style", "template", "svg"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._stack: list[tuple[str, bool]] = []  # (tag, skipped)

    def _skipping(self) -> bool:
        return any(skipped for _tag, skipped in self._stack)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        skipped = tag in self.SKIPPED or "lang" in attributes
        void = tag in {"input", "img", "meta", "link", "br", "hr", "area", "source", "col"}
        if not skipped and not self._skipping():
            for name in READ_ALOUD:
                if attributes.get(name):
                    self.texts.append(attributes[name])
            if tag == "input" and attributes.get("type") in {"submit", "button"}:
                self.texts.append(attributes.get("value") or "")
        if not void:
            self._stack.append((tag, skipped))

    def handle_endtag(self, tag):
        for index in range(len(self._stack) - 1, -1, -1):
            if self._stack[index][0] == tag:
                del self._stack[index:]
                break

    def handle_data(self, data):
        if not self._skipping():
            self.texts.append(data)


def page_words(html: str) -> set[str]:
    """The page's words as written, Scrabble words (capitals) left out."""
    parser = VisibleText()
    parser.feed(html)
    found = set()
    for text in parser.texts:
        for word in WORD.findall(PLACEHOLDER.sub(" ", text)):
            if not word.isupper():
                found.add(word.lower())
    return found


def demo_names() -> set[str]:
    names = " ".join(
        [*Player.objects.values_list("name", flat=True)]
        + [f"{club.name} {club.city}" for club in Club.objects.all()]
        + [*Competition.objects.values_list("name", flat=True)]
    )
    return words(names)


@pytest.fixture(scope="module")
def pages_in_both_languages(django_db_setup, django_db_blocker):
    """Per address and language, the words of the page (one person's view each: the
    first person, of secretary, player, visitor and admin, to whom it is a page)."""
    found: dict[tuple[str, str], set[str]] = {}
    with django_db_blocker.unblock():
        seed()
        try:
            demo = Demo.read()
            names = demo_names()
            every = addresses(demo)
            for role in ("secretary", "player", "visitor", "admin"):
                client = Client()
                if (user := Demo.user_of(role)) is not None:
                    client.force_login(user)
                for address in every:
                    if (address, "nl") in found or address.startswith("/admin/") != (
                        role == "admin"
                    ):
                        continue
                    for language in ("nl", "en"):
                        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
                        response = client.get(address)
                        html = response.content[:200_000].decode(errors="replace")
                        if response.status_code != 200 or "<html" not in html[:300].lower():
                            break
                        found[(address, language)] = page_words(html) - names
        finally:
            call_command("flush", interactive=False, verbosity=0)
    return found


def test_no_english_word_on_a_dutch_page_nor_dutch_on_an_english_one(pages_in_both_languages):
    english_only, dutch_only = word_lists()
    assert len(english_only) > 300 and len(dutch_only) > 300
    wrong = []
    for (address, language), seen in sorted(pages_in_both_languages.items()):
        foreign = seen & (english_only if language == "nl" else dutch_only)
        if foreign:
            wrong.append(f"{address} [{language}]: {', '.join(sorted(foreign))}")
    pages = {address for address, _language in pages_in_both_languages}
    assert len(pages) > 150
    assert wrong == [], f"{len(wrong)} pages:\n" + "\n".join(wrong)
