"""A director enters any person by federation number: the person found (their club here
recognised by name or code), or made as typed and marked on the entry; a guest of another
federation under that federation's code; the same refusals as every entry."""

from __future__ import annotations

import pytest

from clubs.models import HistoryEntry, Membership, Player
from duplicate.models import Participant
from events.models import Entry
from events.services import EventError, entry_create_by_number
from tests.factories import MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _enter(event, division, by, **typed):
    return entry_create_by_number(event=event, divisions=[division], by=by, **typed)


def test_a_known_number_enters_the_person_for_their_club_named_by_code(
    event, duplicate_division, organiser_secretary, other_club
):
    other_club.federation_code = "SD"
    other_club.save()
    cor = PlayerFactory(name="Cor Cornelissen", federation_number="1001")
    MembershipFactory(club=other_club, player=cor)
    entry = _enter(
        event,
        duplicate_division,
        organiser_secretary,
        number="1001",
        name="cor  cornelissen",
        club="sd",
    )
    assert (entry.player, entry.club, entry.club_name, entry.person_made) == (
        cor,
        other_club,
        "",
        False,
    )
    assert Participant.objects.filter(player=cor).count() == 1
    # The organiser's history and the club's, with the number it was entered by.
    afters = list(HistoryEntry.objects.filter(action="event.entry").values_list("after", flat=True))
    assert len(afters) == 2
    assert afters[0]["federation_number"] == "1001" and afters[0]["club"] == other_club.name


def test_an_unknown_number_makes_the_person_as_typed_without_a_membership(
    event, duplicate_division, organiser_secretary
):
    entry = _enter(
        event,
        duplicate_division,
        organiser_secretary,
        number="2002",
        name=" Dirk  Dirksen ",
        club="Woordenaars Utrecht",
    )
    dirk = Player.objects.get(federation_number="2002")
    assert dirk.name == "Dirk Dirksen" and not Membership.objects.filter(player=dirk).exists()
    assert (entry.club, entry.club_name, entry.person_made) == (None, "Woordenaars Utrecht", True)
    after = HistoryEntry.objects.get(action="event.entry").after
    assert after["person_made"] is True and after["club"] == "Woordenaars Utrecht"


def test_a_guest_of_another_federation_keeps_its_code_beside_our_own_number(
    event, duplicate_division, organiser_secretary
):
    ours = PlayerFactory(name="Anna de Vries", federation_number="1001")
    entry = _enter(
        event,
        duplicate_division,
        organiser_secretary,
        number="1001",
        federation="vlas",
        name="Jan Peeters",
    )
    assert entry.player != ours and entry.player.federation_number == "VLAS-1001"
    assert entry.club is None and entry.club_name == "" and entry.person_made


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ({"number": "1001", "name": "Iemand Anders"}, "number_claimed"),
        ({"number": "1001", "name": "Anna de Vries"}, "entered_already"),
        ({"number": "10 01", "name": "Anna de Vries"}, "federation_number"),
        ({"number": "1001", "federation": "V1", "name": "Anna de Vries"}, "federation_code"),
        ({"number": "3003", "name": "Bep", "club": "Scrabbleclub Delft"}, "not_a_member"),
    ],
)
def test_refused_with_nothing_changed(
    event, duplicate_division, organiser_secretary, other_club, typed, code
):
    anna = PlayerFactory(name="Anna de Vries", federation_number="1001")
    _enter(event, duplicate_division, organiser_secretary, number="1001", name="Anna de Vries")
    players, history = Player.objects.count(), HistoryEntry.objects.count()
    with pytest.raises(EventError) as refused:
        _enter(event, duplicate_division, organiser_secretary, **typed)
    assert refused.value.code == code
    assert Entry.objects.get().player == anna
    # A person made for a refused entry is rolled back with it.
    assert (Player.objects.count(), HistoryEntry.objects.count()) == (players, history)


def test_only_a_director_enters_by_number(event, duplicate_division, gouda_user):
    with pytest.raises(EventError) as refused:
        _enter(event, duplicate_division, gouda_user, number="2002", name="Dirk Dirksen")
    assert refused.value.forbidden and not Player.objects.filter(federation_number="2002")


def test_a_director_enters_a_guest_on_the_page(
    client, event, duplicate_division, django_assert_max_num_queries
):
    director = UserFactory()
    event.directors.add(director)
    client.force_login(director)
    url = f"/{event.organiser.slug}/evenement/{event.slug}/beheer/inschrijven-op-nummer/"
    with django_assert_max_num_queries(8):
        assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "number": "77",
            "federation": "VLAS",
            "name": "Jan Peeters",
            "club": "",
            "divisions": [duplicate_division.key],
        },
        follow=True,
    )
    assert "Jan Peeters is ingeschreven." in response.content.decode()
    assert Entry.objects.get().player.federation_number == "VLAS-77"
