"""A federation with a season, its official, and two clubs that play its interclubs."""

from datetime import date
from decimal import Decimal

import pytest
from django.utils import translation

from events.models import Season
from tests.factories import ClubFactory, secretary_of


@pytest.fixture(autouse=True)
def english_messages():
    """The services' messages in English, as the tests read them (a page: the reader's
    language; `test_dutch_by_default` reads one in Dutch)."""
    with translation.override("en"):
        yield


@pytest.fixture
def federation(db):
    return ClubFactory(name="NTSV", slug="ntsv", is_federation=True)


@pytest.fixture
def season(federation):
    return Season.objects.create(
        federation=federation,
        name="Seizoen 2026-2027",
        slug="2026-2027",
        start=date(2026, 8, 1),
        end=date(2027, 7, 31),
        gap_value=Decimal("20"),
    )


@pytest.fixture
def official(federation):
    return secretary_of(federation, username="ntsv-official")


@pytest.fixture
def clubs(db):
    """The clubs of the files' GOUDA and DELFT, known here by their federation codes."""
    return {
        "GL": ClubFactory(name="De Goudse Letters", slug="gouda", federation_code="GL"),
        "DE": ClubFactory(name="Delftse Scrabblers", slug="delft", federation_code="DE"),
    }
