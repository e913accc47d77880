"""The operator's pages speak one language: no English word on a Dutch page, no Dutch word
on an English one (the check of tests/test_page_languages.py, whose crawl visits as
secretary, player, visitor and admin, to whom these pages are refused)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from clubs.models import ClubStatus
from tests.factories import ClubFactory, HistoryEntryFactory, competition_with_results
from tests.test_page_languages import page_words, word_lists

pytestmark = pytest.mark.django_db

#: Names of the data on the pages, not words of either language.
NAMES = {"goudse", "letters", "gouda", "stille", "club", "stil", "delft"}


@pytest.fixture
def pages(operator_client, club):
    competition_with_results(entrants=3, rounds=1, club=club)
    HistoryEntryFactory(club=club, at=timezone.now() - timedelta(days=1))
    ClubFactory(name="Stille Club", slug="stil", city="Delft", status=ClubStatus.PENDING)
    operator_client.post(
        reverse("operator_suspend", kwargs={"club": "stil"}), {"reason": "betaalt niet"}
    )
    operator_client.post(reverse("operator_act", kwargs={"club": "gouda"}), {"reason": "hulp"})
    return [
        reverse("operator_clubs"),
        reverse("operator_clubs") + "?status=suspended",
        reverse("operator_history"),
        reverse("operator_club", kwargs={"club": "gouda"}),
        reverse("operator_club", kwargs={"club": "stil"}),
        reverse("club", kwargs={"club": "stil"}),  # the suspended notice, the acting banner
    ]


def test_no_foreign_word_on_the_operators_pages(operator_client, pages):
    english_only, dutch_only = word_lists()
    wrong = []
    for address in pages:
        for language, foreign in (("nl", english_only), ("en", dutch_only)):
            operator_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            response = operator_client.get(address)
            assert response.status_code == 200, address
            seen = page_words(response.content.decode()) - NAMES
            if seen & foreign:
                wrong.append(f"{address} [{language}]: {', '.join(sorted(seen & foreign))}")
    assert wrong == []
