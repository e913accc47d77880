"""Duplicate tests play in a competition of the kind duplicate."""

import pytest

from competition.models import Competition
from tests.factories import CompetitionFactory


@pytest.fixture
def competition(club):
    return CompetitionFactory(
        club=club,
        name="Duplicate",
        slug="duplicate",
        kind=Competition.Kind.DUPLICATE,
        rules=Competition.Rules.STANDARD,
    )
