"""The secretary reads an evening's history in Chromium: a dispute, its decision and moves
on the board read as Dutch sentences with the players' names, no raw code (issue 19.2).

Set BORDPUNT_SCREENSHOTS to a folder to keep a screenshot of the page at phone width.
"""

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.models import Club, Membership, Player
from competition.models import Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from games.confirmation import game_result_enter, game_result_override
from games.moves import game_set_starter, move_add
from games.services import ResultInput
from tests.e2e.width import assert_fits
from tests.seats import pair_spec

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "geheim-genoeg-123"


@pytest.fixture
def evening(django_user_model):
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    competition = Competition.objects.create(
        club=club, name="Clubcompetitie", slug="clubcompetitie", rules=Competition.Rules.GOUDS_8
    )
    secretary = django_user_model.objects.create_user("sietske", password=PASSWORD)
    Membership.objects.create(
        club=club,
        player=Player.objects.create(name="Sietske", user=secretary),
        role=Membership.Role.SECRETARY,
    )
    users, players = {}, []
    for name in ("Anke", "Bram", "Cor", "Dini"):
        users[name] = django_user_model.objects.create_user(name.lower(), password=PASSWORD)
        player = Player.objects.create(name=name, user=users[name])
        Membership.objects.create(club=club, player=player)
        entrant_add(competition=competition, player=player, by=secretary)
        players.append(player)
    round_obj = Round.objects.create(competition=competition, number=1)
    disputed, on_board = round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(player_a=players[0].pk, player_b=players[1].pk, table=1),
            pair_spec(player_a=players[2].pk, player_b=players[3].pk, table=2),
        ],
        by=secretary,
    )
    round_obj.status = Round.Status.PUBLISHED
    round_obj.save(update_fields=["status"])
    game_result_enter(
        game=disputed, result=ResultInput.of_pair("normal", 412, 388), by=users["Anke"]
    )
    game_result_enter(
        game=disputed, result=ResultInput.of_pair("normal", 388, 412), by=users["Bram"]
    )
    game_result_override(
        game=disputed,
        result=ResultInput.of_pair("normal", 412, 398),
        by=secretary,
        reason="scoreblad nageteld",
    )
    game_set_starter(game=on_board, starter=1, by=users["Dini"])
    move_add(game=on_board, notation="8H WOORD", by=users["Dini"])
    move_add(game=on_board, notation="(challenge)", by=users["Cor"])
    move_add(game=on_board, notation="-", by=users["Dini"])
    return competition


def test_the_history_reads_as_dutch_sentences(page: Page, live_server, evening):
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "sietske")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").click()
    page.goto(f"{live_server.url}{reverse('competition_history', kwargs=evening.url_kwargs)}")
    history = page.locator("ol.history")
    expect(history).to_contain_text("Bevestiging: voorlopig → betwist")
    expect(history).to_contain_text("Invoer van Bram: — → Anke 388 – 412 Bram, Bram wint")
    expect(history).to_contain_text("betwist → bevestigd")
    expect(history).to_contain_text("Invoer van Bram: Anke 388 – 412 Bram, Bram wint → —")
    expect(history).to_contain_text("Anke 412 – 388 Bram, Anke wint → Anke 412 – 398 Bram")
    expect(history).to_contain_text("Begint: — → Dini")
    expect(history).to_contain_text("Zet 1: — → Dini: 8H WOORD")
    expect(history).to_contain_text("Zet 2: — → Cor: bezwaar: woord goed")
    expect(history).to_contain_text("Zet 3: — → Dini: passen")
    expect(history).to_contain_text("tafel 1: Anke – Bram; tafel 2: Cor – Dini")
    text = history.inner_text()
    raw = re.findall(
        r"\w_\w|[{}\[\]']|\b(?:None|True|False|provisional|disputed|confirmed|normal|draft|"
        r"published|counter|outcome|winner|score|notation|side)\b|\(challenge\)",
        text,
    )
    assert raw == [], text
    page.set_viewport_size({"width": 360, "height": 740})
    assert_fits(page)
    folder = os.environ.get("BORDPUNT_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / "history-sentences-360.png"), full_page=True)
