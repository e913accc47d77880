"""Persons in no club: made by a results file (their ranked results at a federation) or by
a director's entry by federation number (an event of a club). The clubs holding their data
keep it for their retention period from the person's last result there, and the club that
alone holds them erases them at their request (docs/privacy.md, *Persons in no club*)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Player
from events.models import Entry, Event, Season
from privacy.erasure import ErasureError, held_by_club, player_erase_for_club
from privacy.retention import retention_apply
from ranking.models import RankedEvent, RankedGame, RankedResult
from tests.factories import ClubFactory, PlayerFactory, secretary_of

pytestmark = pytest.mark.django_db

PLAYED = date(2026, 3, 7)


@pytest.fixture
def federation(db):
    return ClubFactory(slug="ntsv", is_federation=True, former_member_retention_months=24)


@pytest.fixture
def imported(federation):
    """A person a results file made: a number, a name, one ranked result, no membership."""
    person = PlayerFactory(name="Jan Peeters", federation_number="VLAS-77")
    season = Season.objects.create(
        federation=federation, name="2026", slug="2026", start=date(2026, 1, 1), end=PLAYED
    )
    event = RankedEvent.objects.create(
        season=season, uid="00000000-0000-0000-0000-000000000001", name="Interclub", date=PLAYED
    )
    game = RankedGame.objects.create(
        event=event, number=1, date=PLAYED, winner_points=500, median_points=400
    )
    RankedResult.objects.create(
        game=game,
        player=person,
        federation_number="VLAS-77",
        name="Jan Peeters",
        points=450,
        percentage=95.0,
    )
    return person


def _erased(person: Player) -> bool:
    return Player.objects.get(pk=person.pk).erased_at is not None


def test_an_imported_person_is_kept_for_the_federations_period_from_their_last_game(
    imported, federation
):
    assert retention_apply(now=datetime(2028, 3, 6, tzinfo=UTC)) == []
    assert retention_apply(now=datetime(2028, 3, 7, 1, tzinfo=UTC)) == [imported.pk]
    # The ranking keeps the points and the percentage under the placeholder, no number.
    result = RankedResult.objects.get()
    assert (result.name, result.federation_number, result.points) == (f"#{imported.pk}", "", 450)
    entry = HistoryEntry.objects.get(action=HistoryAction.PLAYER_ERASE)
    assert (entry.club, entry.reason_code) == (federation, "erase_retention")


def test_every_club_holding_the_person_must_have_kept_them_long_enough(imported, federation):
    """Entered by number in a club's event too: the club's period counts from the event."""
    organiser = ClubFactory(slug="gouda", former_member_retention_months=None)
    event = Event.objects.create(organiser=organiser, name="Open", slug="open", date=PLAYED)
    Entry.objects.create(event=event, player=imported, club_name="VlaS", person_made=True)
    assert retention_apply(now=datetime(2030, 1, 1, tzinfo=UTC)) == []  # Gouda keeps them
    assert not _erased(imported)
    organiser.former_member_retention_months = 48
    organiser.save()
    assert retention_apply(now=datetime(2030, 3, 7, 1, tzinfo=UTC)) == [imported.pk]


def test_the_federation_alone_holding_them_erases_them_at_their_request(imported, federation):
    official = secretary_of(federation, username="official")
    assert held_by_club(imported, federation)
    player_erase_for_club(club=federation, player=imported, by=official)
    assert _erased(imported)
    assert HistoryEntry.objects.get(action=HistoryAction.PLAYER_ERASE).club == federation


def test_a_person_another_club_holds_too_is_not_the_federations_alone(imported, federation):
    official = secretary_of(federation, username="official")
    organiser = ClubFactory(slug="gouda")
    event = Event.objects.create(organiser=organiser, name="Open", slug="open", date=PLAYED)
    Entry.objects.create(event=event, player=imported, person_made=True)
    with pytest.raises(ErasureError):
        player_erase_for_club(club=federation, player=imported, by=official)
    assert not _erased(imported)
    assert not held_by_club(imported, ClubFactory(slug="delft"))
