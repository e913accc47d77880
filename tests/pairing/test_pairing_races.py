"""Two directors' devices change one round's pairing at the same moment, each from the page
it showed: the one that comes second is refused and told what happened, and what the first
was told holds. A publish is never undone behind the back of who published it.

Each test holds the first write's transaction open (its change made, not committed) and
sends the second from another thread, on its own database connection; on PostgreSQL the
test waits until that connection waits for a lock (the round, held by the first), on
SQLite the second waits for the write lock at its BEGIN.
"""

from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.utils import translation

from competition.models import Round
from competition.services import CompetitionError
from competition.services.rounds import (
    pairing_version,
    round_clear_pairings,
    round_create,
    round_set_status,
    round_swap_players,
)
from games.models import Outcome
from pairing.services import round_pair
from tests.factories import EntrantFactory, PlayerFactory
from tests.test_lock_order import Beside

pytestmark = pytest.mark.django_db(transaction=True)

PUBLISHED_NL = "De indeling is in de tussentijd gepubliceerd"
WITHDRAWN_NL = "De indeling is in de tussentijd ingetrokken"
CHANGED_NL = "De indeling is in de tussentijd gewijzigd"


@pytest.fixture
def paired(competition) -> Round:
    """Round 1 of six players, paired and not yet published."""
    for name in ["An", "Bo", "Cas", "Daan", "Eva", "Fien"]:
        EntrantFactory(competition=competition, player=PlayerFactory(name=name))
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss", expected_pairing=shown(round_obj))
    return round_obj


def shown(round_obj: Round) -> str:
    """The pairing version the round's page shows now."""
    status = Round.objects.get(pk=round_obj.pk).status
    return pairing_version(status, round_obj.games.values_list("pk", flat=True))


def games_of(round_obj: Round) -> set[int]:
    return set(round_obj.games.values_list("pk", flat=True))


def at_once(first: Callable[[], object], second: Callable[[], object]) -> str:
    """`first` in this thread's transaction, kept open while `second` runs on another
    connection; the message `second` was refused with ("" when it was not)."""

    def refused() -> str:
        with translation.override("nl"):
            try:
                second()
            except CompetitionError as error:
                return str(error.message)
        return ""

    beside = Beside(refused)
    with transaction.atomic():
        first()
        beside.start()
        if connection.vendor == "postgresql":
            beside.wait_for_a_lock()
    return beside.result()


def swap(round_obj: Round, expected: str) -> None:
    first, second = round_obj.games.exclude(outcome=Outcome.BYE).with_seats()[:2]
    round_swap_players(
        round=round_obj,
        player_x=first.players[0].pk,
        player_y=second.players[0].pk,
        expected_pairing=expected,
    )


SECOND_ON_THE_DRAFT = {
    "generate": lambda r, v: round_pair(round=r, system="random", seed=3, expected_pairing=v),
    "swap": swap,
    "undo": lambda r, v: round_clear_pairings(round=r, expected_pairing=v),
}


@pytest.mark.parametrize("second", SECOND_ON_THE_DRAFT)
def test_a_pairing_changed_while_another_device_publishes_it_is_refused(paired, second):
    draft = shown(paired)
    games = games_of(paired)

    refusal = at_once(
        lambda: round_set_status(
            round=paired, status=Round.Status.PUBLISHED, expected_pairing=draft
        ),
        lambda: SECOND_ON_THE_DRAFT[second](paired, draft),
    )

    assert PUBLISHED_NL in refusal
    assert Round.objects.get(pk=paired.pk).status == Round.Status.PUBLISHED
    assert games_of(paired) == games  # the pairing that was published is the public one


def test_a_swap_while_another_device_withdraws_the_pairing_is_refused(paired):
    round_set_status(round=paired, status=Round.Status.PUBLISHED, expected_pairing=shown(paired))
    published = shown(paired)
    games = games_of(paired)

    refusal = at_once(
        lambda: round_set_status(
            round=paired, status=Round.Status.DRAFT, expected_pairing=published
        ),
        lambda: swap(paired, published),
    )

    assert WITHDRAWN_NL in refusal
    assert Round.objects.get(pk=paired.pk).status == Round.Status.DRAFT
    assert games_of(paired) == games


def test_a_publish_while_another_device_pairs_again_is_refused(paired):
    draft = shown(paired)
    games = games_of(paired)

    refusal = at_once(
        lambda: round_pair(round=paired, system="random", seed=3, expected_pairing=draft),
        lambda: round_set_status(
            round=paired, status=Round.Status.PUBLISHED, expected_pairing=draft
        ),
    )

    assert CHANGED_NL in refusal
    assert Round.objects.get(pk=paired.pk).status == Round.Status.DRAFT
    assert games_of(paired).isdisjoint(games)  # the new pairing, waiting for its review
