"""The smaller surprises of a club evening (issue 19, point 9): a flag fall names the
player whose flag fell; 0 – 0 is asked like an implausible score, on the results page and
on a player's own form; *Analyseer* is offered only where a rack is known; every pairing
system has a Dutch name."""

import html as html_lib
import re

import pytest
from django.urls import reverse
from django.utils import translation

from competition.models import Competition, Round
from competition.services.rounds import round_record_results, round_set_status
from games.models import Game
from games.moves import move_add
from games.services import ResultEntry, ResultInput
from tests.competition import test_results_entry
from tests.competition.test_results_entry import post_data, results_url
from tests.factories import GameFactory, PlayerFactory, RoundFactory, user_in_club
from tests.seats import winner

pytestmark = pytest.mark.django_db

round_games = test_results_entry.round_games  # An–Bo, Cas–Do, Ed–Fien; Gijs has the bye


def text(response) -> str:
    """The page as read: tags out, entities decoded, spaces collapsed."""
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html_lib.unescape(page).split())


def test_a_flag_fall_names_the_player_wherever_the_result_is_shown(
    client, secretary_client, round_games
):
    """Do's flag fell at table 2 (Cas wins whatever the score)."""
    round_obj, games = round_games
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(games[1].pk, ResultInput.of_pair("flag_b", 250, 300))],
        by=None,
    )
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
    competition = round_obj.competition
    kwargs = {**competition.url_kwargs, "number": round_obj.number}
    cas, do = games[1].players[0], games[1].players[1]
    pages = {
        "round": client.get(reverse("round", kwargs=kwargs)),
        "screen": client.get(reverse("screen_panels", kwargs=competition.url_kwargs)),
        "player": client.get(
            reverse("player", kwargs={**competition.url_kwargs, "player_id": cas.pk})
        ),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert "vlag gevallen: Do" in text(response), name
        assert "tweede speler" not in text(response), name

    # The results page names them in the outcome of each table.
    results = secretary_client.get(results_url(round_obj)).content.decode()
    assert '<option value="flag_a">vlag gevallen: Cas</option>' in results
    assert '<option value="flag_b" selected>vlag gevallen: Do</option>' in results
    assert '<option value="forfeit_b">walk-over: Do</option>' in results
    assert "eerste speler" not in results and "tweede speler" not in results
    assert do.name == "Do"


def test_zero_zero_on_the_results_page_needs_klopt(secretary_client, round_games):
    round_obj, games = round_games
    data = post_data(games, [{"score_a": "0", "score_b": "0"}, {}, {}])
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "0 – 0: niemand heeft gescoord." in html_lib.unescape(page)
    assert 'name="form-0-confirm"' in page
    assert Game.objects.get(pk=games[0].pk).scores[0] is None  # nothing saved

    response = secretary_client.post(results_url(round_obj), {**data, "form-0-confirm": "0/0"})
    assert response.status_code == 302
    game = Game.objects.get(pk=games[0].pk)
    assert (game.scores[0], game.scores[1], winner(game)) == (0, 0, "draw")


@pytest.fixture
def table(competition, club):
    anna, bert = user_in_club(club, username="anna"), user_in_club(club, username="bert")
    return GameFactory(
        round=RoundFactory(competition=competition),
        table=1,
        player_a=anna.player,
        player_b=bert.player,
    )


def test_zero_zero_on_a_players_own_form_needs_klopt(client, table):
    client.force_login(table.players[0].user)
    address = reverse("game_result", args=[table.pk])
    typed = {"action": "enter", "version": table.version, "kind": "normal"}
    page = client.post(address, {**typed, "score_a": "0", "score_b": "0"}).content.decode()
    assert "0 – 0: niemand heeft gescoord." in html_lib.unescape(page)
    assert re.search(r'<input[^>]*name="confirm"', page)
    table.refresh_from_db()
    assert table.scores[0] is None and not table.has_result

    # Not asked for an ordinary score, and saved once confirmed.
    assert 'name="confirm"' not in client.get(address).content.decode()
    response = client.post(address, {**typed, "score_a": "0", "score_b": "0", "confirm": "on"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.scores[0], table.scores[1]) == (0, 0)


def test_analyse_is_offered_only_when_a_rack_is_known(client, table, competition):
    """The analysis looks at the turns whose rack was entered: a game without any has
    nothing to analyse, so the button is not there."""
    round_set_status(round=table.round, status=Round.Status.PUBLISHED)
    with_rack = GameFactory(
        round=table.round, table=2, player_a=PlayerFactory(), player_b=PlayerFactory()
    )
    for game, rack in ((table, ""), (with_rack, "WOORDENA")):
        Game.objects.filter(pk=game.pk).update(starter=0)
        game.refresh_from_db()
        move_add(game=game, notation="8H WOORD", rack=rack, by=None)
    assert 'id="analyse"' not in client.get(reverse("replay", args=[table.pk])).content.decode()
    assert 'id="analyse"' in client.get(reverse("replay", args=[with_rack.pk])).content.decode()


def test_every_pairing_system_has_a_dutch_name():
    names = [label for _code, label in Competition.PairingSystem.choices]
    with translation.override("nl"):
        dutch = [str(label) for label in names]
    assert "King of the Hill" not in dutch
    assert "op de stand (1–2, 3–4)" in dutch
