"""Two entries of one person at once on PostgreSQL, in threads with connections of their
own: one entry is made, the other refused with its message, nothing half done. (On SQLite
every write runs alone: config/settings.py.)"""

from __future__ import annotations

from clubs.models import Club, Membership, Player
from competition.models import Entrant
from duplicate.models import Participant
from duplicate.services.competitions import duplicate_create
from events.divisions import Division, division_kind
from events.models import Entry
from events.services import EventError, entry_create, entry_create_by_number, event_create
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.test_lock_order import AT_ONCE_ON_POSTGRESQL, at_once

pytestmark = AT_ONCE_ON_POSTGRESQL


def test_one_person_entered_twice_at_once_for_two_clubs_is_entered_once():
    gouda, delft = ClubFactory(slug="gouda"), ClubFactory(slug="delft")
    user = UserFactory()
    player = PlayerFactory(user=user)
    for club in (gouda, delft):
        Membership.objects.create(club=club, player=player)
    event = event_create(organiser=gouda, settings={"name": "Open", "slug": "open"}, by=None)
    division = duplicate_create(
        club=gouda, settings={"name": "Open", "slug": "open"}, by=None, event=event
    )
    divisions = [Division(division_kind("duplicate"), division)]

    def enter(club: Club):
        return lambda: entry_create(
            event=event, player=player, club=club, divisions=divisions, by=user
        )

    results = at_once(enter(gouda), enter(delft))
    errors = [result for result in results if isinstance(result, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], EventError), results
    assert errors[0].code == "entered_already"
    entry = Entry.objects.get()
    assert str(errors[0].message).endswith(f"voor {entry.club.name}.")
    assert Participant.objects.filter(player=player).count() == 1
    assert not Entrant.objects.exists()


def test_one_new_number_entered_from_two_devices_at_once_makes_one_person_and_one_entry():
    gouda = ClubFactory(slug="gouda")
    director = UserFactory()
    event = event_create(organiser=gouda, settings={"name": "Open", "slug": "open"}, by=None)
    event.directors.add(director)
    division = duplicate_create(
        club=gouda, settings={"name": "Open", "slug": "open"}, by=None, event=event
    )
    divisions = [Division(division_kind("duplicate"), division)]
    for attempt in range(5):
        number = f"9{attempt}"

        def enter(number=number):
            return entry_create_by_number(
                event=event, number=number, name="Dirk Dirksen", divisions=divisions, by=director
            )

        results = at_once(enter, enter)
        errors = [result for result in results if isinstance(result, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], EventError), results
        assert errors[0].code == "entered_already"
        person = Player.objects.get(federation_number=number)
        assert Entry.objects.get(player=person).person_made
        assert Participant.objects.filter(player=person).count() == 1


def test_one_new_number_entered_in_two_events_at_once_is_one_person_in_both():
    director = UserFactory()
    divisions = []
    for slug in ("gouda", "delft"):
        club = ClubFactory(slug=slug)
        event = event_create(organiser=club, settings={"name": "Open", "slug": "open"}, by=None)
        event.directors.add(director)
        division = duplicate_create(
            club=club, settings={"name": "Open", "slug": "open"}, by=None, event=event
        )
        divisions.append(Division(division_kind("duplicate"), division))
    for attempt in range(5):
        number = f"9{attempt}"

        def enter(division, number=number):
            return lambda: entry_create_by_number(
                event=division.competition.event,
                number=number,
                name="Dirk Dirksen",
                divisions=[division],
                by=director,
            )

        results = at_once(*(enter(division) for division in divisions))
        assert all(isinstance(result, Entry) for result in results), results
        person = Player.objects.get(federation_number=number)
        assert {result.player_id for result in results} == {person.pk}
        # One entry made the person; the other found it made.
        assert sorted(result.person_made for result in results) == [False, True]
