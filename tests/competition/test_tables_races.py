"""Two clicks at once at tables of 4, over real HTTP against a live server: ten devices
save the same round's tables, and the four players of one table enter its result at the
same moment. No answer is a server error; the database holds what one click makes."""

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from competition.models import Competition, Entrant
from competition.services.rounds import round_set_pairings
from games.models import Confirmation, Game
from games.services import PairingSpec
from tests.factories import PASSWORD, result_changes
from tests.live import at_once, logged_in_devices

pytestmark = pytest.mark.django_db(transaction=True)


def _tables(round_obj, count: int, *, accounts=False, django_user_model=None) -> list[Game]:
    competition = round_obj.competition
    competition.rules = Competition.Rules.STANDARD
    competition.save()
    players = []
    for number in range(count * 4):
        user = None
        if accounts:
            user = django_user_model.objects.create_user(f"speler{number}", password=PASSWORD)
        players.append(Player.objects.create(name=f"Speler {number:02d}", user=user))
    Membership.objects.bulk_create(Membership(club=competition.club, player=p) for p in players)
    Entrant.objects.bulk_create(Entrant(competition=competition, player=p) for p in players)
    return round_set_pairings(
        round=round_obj,
        pairings=[
            PairingSpec(players=tuple(p.pk for p in players[4 * t : 4 * t + 4]), table=t + 1)
            for t in range(count)
        ],
    )


def test_ten_devices_save_the_same_tables_at_once(live_server, club_evening):
    games = _tables(club_evening, 3)
    url = reverse("round_results", kwargs={**club_evening.competition.url_kwargs, "number": 1})
    devices = logged_in_devices(live_server.url, 10, "secretaris", PASSWORD)

    def results_of(device_number: int) -> dict[str, str]:
        data = {"form-TOTAL_FORMS": "3", "form-INITIAL_FORMS": "3"}
        for index, game in enumerate(games):
            data |= {
                f"form-{index}-game": str(game.pk),
                f"form-{index}-version": "0",
                f"form-{index}-kind": "normal",
                **{
                    f"form-{index}-score_{letter}": str(300 + device_number + 10 * seat)
                    for seat, letter in enumerate("abcd")
                },
            }
        return data

    replies = at_once(
        [
            lambda device=device, number=number: device.post(url, results_of(number))
            for number, device in enumerate(devices)
        ]
    )
    assert not [reply.status for reply in replies if reply.status >= 500]
    winners = [number for number, reply in enumerate(replies) if reply.status == 302]
    assert len(winners) == 1
    assert all(b"intussen gewijzigd" in r.body for r in replies if r.status != 302)
    stored = {Game.objects.with_seats().get(pk=game.pk).scores for game in games}
    assert stored == {tuple(300 + winners[0] + 10 * seat for seat in range(4))}
    assert result_changes().count() == 3


def test_the_four_players_enter_their_table_at_once(live_server, club_evening, django_user_model):
    (game,) = _tables(club_evening, 1, accounts=True, django_user_model=django_user_model)
    url = reverse("game_result", kwargs={"game_id": game.pk})
    devices = [
        logged_in_devices(live_server.url, 1, f"speler{number}", PASSWORD)[0] for number in range(4)
    ]
    # Two type 300-412-290-250, two another result.
    typed = [(300, 412, 290, 250), (300, 412, 290, 250), (300, 412, 290, 251), (1, 2, 3, 4)]

    def enter(number: int):
        data = {"action": "enter", "kind": "normal", "version": "0"}
        data |= {f"score_{letter}": str(s) for letter, s in zip("abcd", typed[number], strict=True)}
        return devices[number].post(url, data)

    replies = at_once([lambda number=number: enter(number) for number in range(4)])
    assert not [reply.status for reply in replies if reply.status >= 500]
    saved = Game.objects.with_seats().get(pk=game.pk)
    # One entry is stored; the others were refused as changed in the meantime (their page
    # was at version 0), never a second entry over the first.
    assert [reply.status for reply in replies].count(302) == 1
    winner = next(number for number, reply in enumerate(replies) if reply.status == 302)
    assert saved.scores == typed[winner]
    assert saved.confirmation == Confirmation.PROVISIONAL
    assert [seat.confirmed for seat in saved.seat_list] == [n == winner for n in range(4)]
    assert result_changes(game_id=game.pk).count() == 1
