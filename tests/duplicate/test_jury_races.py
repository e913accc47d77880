"""Jury members typing at once, over real HTTP against a live server, on SQLite and on
PostgreSQL: the same slip typed by two at the same moment is one slip and, when the two
read it differently, one conflict; a room of slips typed by three at once is each slip
once, and no answer is a server error."""

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from duplicate.models import Participant, Slip, SlipConflict
from duplicate.services.evenings import evening_create
from duplicate.services.turns import turn_draw
from events.models import Event
from tests.factories import PASSWORD, UserFactory
from tests.live import Device, at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def jury_room(club, competition, secretary):
    """An interclub's duplicate division, its first turn drawn, twelve players at three
    tables, and three jury members logged in."""
    event = Event.objects.create(organiser=club, name="Interclub", slug="interclub")
    competition.event = event
    competition.save(update_fields=["event"])
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    players = []
    for number in range(12):
        player = Player.objects.create(name=f"Speler {number:02d}")
        Membership.objects.create(club=club, player=player)
        Participant.objects.create(competition=competition, player=player, table=number // 4 + 1)
        players.append(player)
    jurors = [UserFactory(username=f"jury{n}") for n in range(3)]
    event.jury.add(*jurors)
    address = reverse("duplicate_jury", args=[club.slug, competition.slug, 1])
    return address, players, jurors


def _devices(base_url, jurors):
    devices = [Device(base_url) for _juror in jurors]
    for device, juror in zip(devices, jurors, strict=True):
        device.log_in(juror.username, PASSWORD)
    return devices


def test_two_jury_members_type_one_slip_at_the_same_moment(live_server, jury_room):
    address, players, jurors = jury_room
    first, second, third = _devices(live_server.url, jurors)
    player = str(players[0].pk)
    replies = at_once(
        [
            lambda: first.post(address, {"turn": "1", "player": player, "text": "8H KAAS"}),
            lambda: second.post(address, {"turn": "1", "player": player, "text": "8D KAArSEN"}),
            lambda: third.post(address, {"turn": "1", "player": player, "text": "8H KAAS"}),
        ]
    )
    # The slip and the conflict (a redirect each); the typing that repeats one of them is
    # refused (the page with its message).
    assert sorted(reply.status for reply in replies) == [200, 302, 302]
    slip = Slip.objects.get()
    conflicts = list(SlipConflict.objects.values_list("text", flat=True))
    # Whichever typing came first is the slip; the other reading waits once as a conflict
    # (the third typing, the same as the first, is either the slip or refused).
    if slip.text == "8H KAAS":
        assert conflicts == ["8D KAArSEN"]
    else:
        assert conflicts == ["8H KAAS"]


def test_three_jury_members_type_a_room_of_slips_twice_over(live_server, jury_room):
    address, players, jurors = jury_room
    devices = _devices(live_server.url, jurors)
    typings = [
        lambda device=devices[n % 3], player=player: device.post(
            address, {"turn": "1", "player": str(player.pk), "text": "8H KAAS", "claimed": "14"}
        )
        for n, player in enumerate(players)
    ]
    # Every slip typed by two jury members, at the same moments.
    again = [
        lambda device=devices[(n + 1) % 3], player=player: device.post(
            address, {"turn": "1", "player": str(player.pk), "text": "8H KAAS", "claimed": "14"}
        )
        for n, player in enumerate(players)
    ]
    replies = at_once([*typings, *again])
    assert [reply.status for reply in replies if reply.status >= 500] == []
    assert sorted(Slip.objects.values_list("player_id", flat=True)) == [p.pk for p in players]
    assert set(Slip.objects.values_list("score", flat=True)) == {14}
    assert not SlipConflict.objects.exists()
