"""A late arrival joins a published round in a real browser: the secretary ticks her present,
is told she has no place in the pairing, and seats her against the player with the bye.
Nobody else is paired again; the round page and the history show the new table.

Set BORDPUNT_SCREENSHOTS to a folder to keep screenshots of the attendance page at phone
and desktop width.
"""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clubs.history import HistoryAction
from clubs.models import Club, HistoryEntry, Membership, Player
from competition.models import Absence, Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings, round_set_status
from games.models import Game, Outcome
from games.services import PairingSpec

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "geheim-genoeg-123"


@pytest.fixture
def published_round(django_user_model):
    """Round 1 published: Anke–Bram, Carla–Daan, Els has the bye; Fien is not there yet."""
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    user = django_user_model.objects.create_user("secretaris", password=PASSWORD)
    secretary = Player.objects.create(name="Sietske Secretaris", user=user)
    Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
    competition = Competition.objects.create(club=club, name="Clubcompetitie", slug="clubcomp")
    players = {}
    for name in ("Anke", "Bram", "Carla", "Daan", "Els", "Fien"):
        players[name] = Player.objects.create(name=name)
        entrant_add(competition=competition, player=players[name])
    round_obj = Round.objects.create(competition=competition, number=1)
    Absence.objects.create(round=round_obj, player=players["Fien"])
    round_set_pairings(
        round=round_obj,
        pairings=[
            PairingSpec(players["Anke"].pk, players["Bram"].pk, table=1),
            PairingSpec(players["Carla"].pk, players["Daan"].pk, table=2),
            PairingSpec(players["Els"].pk, None),
        ],
    )
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
    return round_obj


def _screenshot(page: Page, name: str) -> None:
    folder = os.environ.get("BORDPUNT_SCREENSHOTS")
    if folder:
        for width in (360, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            page.screenshot(path=str(Path(folder) / f"{name}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})


def test_a_late_arrival_plays_the_bye_without_re_pairing(page: Page, live_server, published_round):
    competition = published_round.competition
    untouched = set(published_round.games.exclude(outcome=Outcome.BYE).values_list("pk", flat=True))
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("form button").click()
    page.goto(
        f"{live_server.url}{reverse('attendance', kwargs={**competition.url_kwargs, 'number': 1})}"
    )
    expect(page.locator("#late")).to_have_count(1)  # paired round: the late form is there

    # 1. Tick Fien present and save: she has no place, and the page says so.
    page.get_by_label("Fien").check()
    page.locator("#attendance button").click()
    expect(page.locator(".alert-warning").first).to_contain_text(
        "Fien is aanwezig maar heeft geen plaats in de indeling van ronde 1"
    )
    late = page.locator("#late")
    expect(late.get_by_label("Nakomer")).to_have_value(str(Player.objects.get(name="Fien").pk))
    expect(late.get_by_label("Speelt")).to_contain_text("tegen Els, die de bye heeft")
    _screenshot(page, "late-arrival-attendance")

    # 2. Seat her against Els, who had the bye: one choice, one click.
    late.get_by_label("Speelt").select_option(label="tegen Els, die de bye heeft")
    late.get_by_role("button", name="Aan de indeling toevoegen").click()

    expect(page.locator(".alert-success")).to_contain_text("Fien speelt tegen Els aan tafel 3.")
    rows = page.locator("#pairings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(2)).to_contain_text("Els")
    expect(rows.nth(2)).to_contain_text("Fien")
    expect(page.locator("#pairings")).not_to_contain_text("bye")
    _screenshot(page, "late-arrival-round")

    game = Game.objects.get(round=published_round, table=3)
    assert (game.player_a.name, game.player_b.name, game.outcome) == ("Els", "Fien", "")
    assert untouched <= set(published_round.games.values_list("pk", flat=True))
    entry = HistoryEntry.objects.get(action=HistoryAction.PAIRING_LATE)
    assert entry.by.username == "secretaris" and entry.game_id == game.pk
    assert entry.after["pairings"] == [[3, ["Els", "Fien"], None]]
