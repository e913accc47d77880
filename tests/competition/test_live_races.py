"""Two clicks at once on the secretary's pages, over real HTTP against a live server.

Each test sends the same request from many devices at the same moment and checks that no
answer is a server error and that the database holds exactly what one click makes: one
round, one set of results, one player. tests/games/test_live_devices.py says why the
SQLite test database is a file.
"""

import re

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from competition.models import Entrant, Round
from competition.services.rounds import round_set_pairings
from games.models import Game, Seat
from tests.factories import PASSWORD, result_changes
from tests.live import at_once, form_values, logged_in_devices
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db(transaction=True)

PAIRING_VERSION = re.compile(rb'name="pairing" value="([^"]+)"')


def _entrants(round_obj: Round, count: int) -> list[Player]:
    players = Player.objects.bulk_create(Player(name=f"Speler {i:02d}") for i in range(count))
    Membership.objects.bulk_create(
        Membership(club=round_obj.competition.club, player=player) for player in players
    )
    Entrant.objects.bulk_create(
        Entrant(competition=round_obj.competition, player=player) for player in players
    )
    return players


def _server_errors(replies) -> list[int]:
    return [reply.status for reply in replies if reply.status >= 500]


def test_twenty_devices_save_the_same_rounds_results_at_once(live_server, club_evening):
    players = _entrants(club_evening, 8)
    games = round_set_pairings(
        round=club_evening,
        pairings=[
            pair_spec(player_a=players[i].pk, player_b=players[i + 1].pk, table=i // 2 + 1)
            for i in range(0, 8, 2)
        ],
    )
    url = reverse("round_results", kwargs={**club_evening.competition.url_kwargs, "number": 1})
    devices = logged_in_devices(live_server.url, 20, "secretaris", PASSWORD)

    def results_of(device_number: int) -> dict[str, str]:
        # Every device types other scores, so the stored ones tell whose save won.
        data = {"form-TOTAL_FORMS": "4", "form-INITIAL_FORMS": "4"}
        for index, game in enumerate(games):
            data |= {
                f"form-{index}-game": str(game.pk),
                f"form-{index}-version": "0",
                f"form-{index}-score_a": str(300 + device_number),
                f"form-{index}-score_b": str(200 + index),
                f"form-{index}-kind": "normal",
            }
        return data

    replies = at_once(
        [
            lambda device=device, number=number: device.post(url, results_of(number))
            for number, device in enumerate(devices)
        ]
    )

    assert not _server_errors(replies)
    winners = [number for number, reply in enumerate(replies) if reply.status == 302]
    assert len(winners) == 1
    refused = [reply for reply in replies if reply.status != 302]
    assert all(reply.status == 200 for reply in refused)
    assert all(b"intussen gewijzigd" in reply.body for reply in refused)
    stored = {(game.scores[0], game.scores[1]) for game in Game.objects.filter(round=club_evening)}
    assert stored == {(300 + winners[0], 200 + index) for index in range(4)}
    assert result_changes().count() == 4


def test_ten_clicks_on_add_round_at_once_add_one_round(live_server, club_evening):
    url = reverse("round_create", kwargs=club_evening.competition.url_kwargs)
    devices = logged_in_devices(live_server.url, 10, "secretaris", PASSWORD)

    replies = at_once(
        [lambda device=device: device.post(url, {"number": "2", "date": ""}) for device in devices]
    )

    assert not _server_errors(replies)
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2]
    # Every click lands on the new round's attendance page, as a single click would.
    attendance = reverse("attendance", kwargs={**club_evening.competition.url_kwargs, "number": 2})
    assert {(reply.status, reply.location) for reply in replies} == {(302, attendance)}


def test_ten_devices_enter_the_same_new_player_at_once(live_server, club_evening):
    url = reverse("entrants", kwargs=club_evening.competition.url_kwargs)
    devices = logged_in_devices(live_server.url, 10, "secretaris", PASSWORD)
    data = {"new_player_name": "Jan Bos", "joined_round": "1"}

    replies = at_once([lambda device=device: device.post(url, data) for device in devices])

    assert not _server_errors(replies)
    assert sum(reply.status == 302 for reply in replies) == 1
    assert Player.objects.filter(name="Jan Bos").count() == 1
    assert Entrant.objects.filter(player__name="Jan Bos").count() == 1


def test_ten_devices_confirm_the_same_import_at_once(live_server, club_evening):
    """Each device uploads the file and sees the same preview; then all confirm at once.
    One import is written; the others are told that the data changed meanwhile."""
    csv = (
        b"round,table,player,opponent,score,opponent_score,outcome\n"
        b"1,1,Anna,Bert,320,290,normal\n"
        b"1,2,Cor,Dirk,300,350,normal\n"
        b"2,1,Anna,Cor,250,300,normal\n"
        b"2,2,Bert,Dirk,,,forfeit:player\n"
    )
    url = reverse("results_import", kwargs=club_evening.competition.url_kwargs)
    devices = logged_in_devices(live_server.url, 10, "secretaris", PASSWORD)
    previews = [device.post(url, {}, files={"file": ("uitslagen.csv", csv)}) for device in devices]
    assert {preview.status for preview in previews} == {200}
    answers = [
        {**form_values(preview.body, "import-confirm"), "confirm": "1"} for preview in previews
    ]

    replies = at_once(
        [
            lambda device=device, answer=answer: device.post(url, answer)
            for device, answer in zip(devices, answers, strict=True)
        ]
    )

    assert not _server_errors(replies)
    assert sum(reply.status == 302 for reply in replies) == 1
    names = ["Anna", "Bert", "Cor", "Dirk"]
    assert sorted(Player.objects.filter(name__in=names).values_list("name", flat=True)) == names
    assert Entrant.objects.filter(player__name__in=names).count() == 4
    assert Game.objects.filter(round__competition=club_evening.competition).count() == 4
    assert Seat.objects.count() == 8
    assert result_changes().count() == 4


def test_ten_devices_generate_and_publish_a_pairing_at_once(live_server, club_evening):
    players = _entrants(club_evening, 9)
    url = reverse("round_pairing", kwargs={**club_evening.competition.url_kwargs, "number": 1})
    devices = logged_in_devices(live_server.url, 10, "secretaris", PASSWORD)

    def click(device, action: str, **data: str):
        # As the page does: the pairing it shows goes along with the button.
        shown = PAIRING_VERSION.search(device.get(url).body).group(1).decode()
        return lambda: device.post(url, {"action": action, "pairing": shown, **data})

    generated = at_once([click(device, "generate", system="swiss") for device in devices])
    games = set(Game.objects.filter(round=club_evening).values_list("pk", flat=True))
    published = at_once([click(device, "publish") for device in devices])

    assert not _server_errors(generated + published)
    # One generation; the other clicks are told the pairing changed, and see it.
    assert sorted(reply.status for reply in generated) == [200] * 9 + [302]
    assert all(
        b"in de tussentijd gewijzigd" in reply.body for reply in generated if reply.status == 200
    )
    # Publishing twice is publishing once: every click ends on the round page.
    assert {reply.status for reply in published} == {302}
    # One pairing: every player once, four tables and a bye, the one generated, published.
    seated = sorted(Seat.objects.filter(round=club_evening).values_list("player_id", flat=True))
    assert seated == sorted(player.pk for player in players)
    assert set(Game.objects.filter(round=club_evening).values_list("pk", flat=True)) == games
    assert len(games) == 5
    club_evening.refresh_from_db()
    assert club_evening.status == Round.Status.PUBLISHED
