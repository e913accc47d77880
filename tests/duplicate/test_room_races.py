"""A room of phones handing in at once while the spelleider puts the top on the board,
over real HTTP against a live server, on SQLite and on PostgreSQL.

The hand-in holds the turn (duplicate/services/shared.py, `turn_held`), writes its slip, its
history and the competition's timestamp; the spelleider's top takes the club's lock, then
the turn, its history and the same timestamp. These tests
keep the two from waiting in a circle and from losing or doubling a slip: every phone
clicks twice, and every answer is the page or a message, never a server error.
"""

import pytest
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Membership, Player
from duplicate.models import Participant, Slip, Turn
from duplicate.replay import master_game
from duplicate.services.evenings import evening_create
from duplicate.services.turns import turn_draw
from tests.factories import PASSWORD, UserFactory
from tests.live import Device, at_once

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = 12


@pytest.fixture
def room(club, competition, secretary):
    """A duplicate evening with its first turn drawn and twelve entrants with a login."""
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    players = []
    for number in range(PHONES):
        player = Player.objects.create(
            name=f"Speler {number:02d}", user=UserFactory(username=f"speler{number:02d}")
        )
        Membership.objects.create(club=club, player=player)
        Participant.objects.create(competition=competition, player=player)
        players.append(player)
    return evening, turn, players


def _page(evening, name: str) -> str:
    competition = evening.competition
    return reverse(name, args=[competition.club.slug, competition.slug, evening.number])


def _phones(base_url: str, players) -> list[Device]:
    phones = [Device(base_url) for _player in players]
    for phone, player in zip(phones, players, strict=True):
        phone.log_in(player.user.username, PASSWORD)
    return phones


def test_twelve_phones_click_twice_while_the_top_goes_on_the_board(live_server, room):
    evening, turn, players = room
    plays = sorted(master_game(evening).generator.plays(master_game(evening).game, "AAEKNS?"))
    writings = [f"{play.notation.split(' ')[0]} {play.word}" for play in plays[-PHONES:]]
    phones = _phones(live_server.url, players)
    leader = Device(live_server.url)
    leader.log_in("secretaris", PASSWORD)
    slip_page = _page(evening, "duplicate_slip")

    hand_ins = [
        lambda phone=phone, text=text: phone.post(slip_page, {"turn": "1", "text": text})
        for phone, text in zip(phones, writings, strict=True)
    ]
    replies = at_once(
        [
            *hand_ins,
            *hand_ins,  # every phone's second click
            lambda: leader.post(
                _page(evening, "duplicate_leader"), {"action": "top", "play": "8D KAArSEN"}
            ),
        ]
    )

    assert [reply.status for reply in replies if reply.status >= 500] == []
    assert replies[-1].status == 302
    assert Turn.objects.get(pk=turn.pk).top == "8D KAArSEN"
    slips = Slip.objects.filter(turn=turn)
    assert sorted(slips.values_list("player_id", flat=True)) == [p.pk for p in players]
    assert sorted(slips.values_list("text", flat=True)) == sorted(writings)
    # Each phone's second click was refused with the message, or came after the first
    # one's redirect and found its slip in (the page, as for a reload).
    refused = [reply for reply in replies[:-1] if reply.status == 200]
    assert all(
        "is al binnen" in reply.body.decode() or "slip-sent" in reply.body.decode()
        for reply in refused
    )
    assert sum(reply.status == 302 for reply in replies[:-1]) >= PHONES
    # One history entry per slip, and the top's: none lost, none doubled.
    written = HistoryEntry.objects.filter(action=HistoryAction.SLIP_SUBMIT)
    assert sorted(entry.after["slip"] for entry in written) == sorted(writings)
    assert HistoryEntry.objects.filter(action=HistoryAction.DUPLICATE_TOP).count() == 1
    # A slip is late exactly when its history says so.
    for slip in slips:
        assert written.get(object_id=slip.pk).after["late"] is slip.late


def test_a_room_hands_in_at_once_and_every_slip_is_scored_by_the_engine(live_server, room):
    evening, turn, players = room
    phones = _phones(live_server.url, players)
    slip_page = _page(evening, "duplicate_slip")
    # The same word at every phone, one claim right and the others off by their number.
    replies = at_once(
        [
            lambda phone=phone, n=n: phone.post(
                slip_page, {"turn": "1", "text": "8D KAArSEN", "claimed": str(74 + n)}
            )
            for n, phone in enumerate(phones)
        ]
    )

    assert [reply.status for reply in replies] == [302] * PHONES
    slips = Slip.objects.filter(turn=turn).order_by("player__name")
    assert [(s.score, s.is_top, s.late) for s in slips] == [(74, True, False)] * PHONES
    assert [s.corrected for s in slips] == [False] + [True] * (PHONES - 1)
