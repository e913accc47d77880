"""A duplicate turn against the server's clock in a real browser, under the FISF's rules
that the secretary chose on the rules page: one phone hands in in time, the other after
the time; the spelleider sees the late slip, the ranking counts it 0
(FISF-2023 §5.7: a slip written after the end of the turn is void), and once the
spelleider accepts it with a reason (the phone lost its connection) the ranking counts it.

The thinking time is short, so the test waits for the time to run out as the phone shows
it, then for the server's grace; no assert depends on how long anything took."""

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from duplicate.models import DuplicateCompetition, Participant, Slip
from duplicate.services.evenings import evening_create
from rules.referee import SlipRules
from tests.e2e.test_duplicate_evening import _hand_in, _logged_in, _reload, duplicate_club

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

__all__ = ["duplicate_club"]  # the fixture, used below

#: Long enough for the first phone to load the rack and hand in on a busy machine, short
#: enough that the second one does not wait long for the time to run out.
THINK_SECONDS = 12


def test_a_phone_hands_in_after_the_time_and_the_spelleider_accepts_it(
    browser: Browser, live_server, duplicate_club
):
    base = live_server.url
    args = ["gouda", "duplicate"]
    competition = DuplicateCompetition.objects.create(
        club=duplicate_club, name="Duplicate", slug="duplicate"
    )
    for player in duplicate_club.members.filter(name__in=["Anke", "Bram"]):
        Participant.objects.create(competition=competition, player=player)

    # The club plays the FISF's rules with a short turn: the secretary loads the preset on
    # the rules page, changes the time and saves.
    leader = _logged_in(browser, live_server, "secretaris", {"width": 1280, "height": 900})
    leader.goto(base + reverse("duplicate_rules", args=args))
    leader.select_option("#preset-choice", "fisf")
    leader.locator("#preset-form button").click()
    expect(leader.locator("#id_slips__solo_bonus")).to_have_value("10")
    leader.fill("#id_slips__turn_seconds", str(THINK_SECONDS))
    leader.locator("#rules-form button[value=save]").click()
    expect(leader.locator(".alert-success")).to_contain_text("Regels opgeslagen")
    competition.refresh_from_db()
    assert competition.settings["preset"] == "fisf"
    assert competition.settings["slips"]["turn_seconds"] == THINK_SECONDS
    evening_create(competition=competition, number=1, by=None)

    leader_url = base + reverse("duplicate_leader", args=[*args, 1])
    leader.goto(leader_url)
    phones = {name: _logged_in(browser, live_server, name) for name in ("anke", "bram")}
    for phone in phones.values():
        phone.goto(base + reverse("duplicate_slip", args=[*args, 1]))

    leader.fill("#draw-tiles", "KAAS?EN")
    leader.locator("#draw-button").click()
    expect(leader.locator("#leader-rack")).to_have_text("AAEKNS?")
    expect(leader.locator("#leader-countdown")).to_be_visible()

    # Anke in time: K on D8 (DL) 6, A1 A1, r0, S on H8 (DW) 2, E1 N1 = 12 x 2 = 24, + 50.
    _hand_in(phones["anke"], "8D KAArSEN", "74", "74")
    assert not Slip.objects.get(player__name="Anke").late

    # Bram's phone counts the server's time down to 0:00 and then says a slip is late.
    bram = phones["bram"]
    _reload(bram)
    expect(bram.locator("#slip-countdown")).to_be_visible()
    expect(bram.locator("#slip-time-up")).to_be_visible(timeout=(THINK_SECONDS + 10) * 1000)
    expect(bram.locator("#slip-countdown")).to_have_text("0:00")
    expect(bram.locator("#slip-time-up")).to_contain_text("te laat")
    # The server gives a slip sent at 0:00 its grace; Bram's comes after it.
    bram.wait_for_timeout((SlipRules().grace_seconds + 1) * 1000)
    bram.fill("#id_text", "8D KAArSEN")
    expect(bram.locator("#slip-preview")).to_contain_text("74")
    bram.fill("#id_claimed", "74")
    bram.locator("#slip-send").click()
    expect(bram.locator("#slip-sent")).to_be_visible()
    # His list shows the slip as it counts: 0, late.
    row = bram.locator("#my-slips tbody tr").last
    expect(row).to_contain_text("te laat (0)")
    late = Slip.objects.get(player__name="Bram")
    assert (late.late, late.score) == (True, 74)

    # The spelleider sees it late, and puts the top on the board.
    leader.goto(leader_url)
    late_slips = leader.locator("#late-slips")
    expect(late_slips).to_contain_text("Bram")
    expect(late_slips).to_contain_text("8D KAArSEN")
    leader.locator("#top-choose").click()
    expect(leader.locator("#leader-total")).to_have_text("74")

    ranking_url = base + reverse("duplicate_evening", args=[*args, 1])
    # A page of its own: the slip page polls and reloads itself, and would interrupt a goto.
    ranking = phones["anke"].context.new_page()
    ranking.goto(ranking_url)
    rows = ranking.locator("#ranking tbody tr")
    # Anke 74, the top, alone: a solo; Bram's late 74 counts 0.
    expect(rows.nth(0)).to_contain_text("Anke")
    expect(rows.nth(0).locator("td").nth(5)).to_have_text("1")
    expect(rows.nth(1)).to_contain_text("Bram")
    expect(rows.nth(1).locator("td").nth(2)).to_have_text("0")

    # Bram's phone lost its connection: the spelleider accepts the slip, with the reason.
    late_slips = leader.locator("#late-slips")
    late_slips.locator("input[name=reason]").fill("telefoon had geen verbinding")
    late_slips.get_by_role("button", name="Accepteren").click()
    expect(leader.locator("#late-slips")).to_contain_text("geaccepteerd")
    entry = HistoryEntry.objects.get(action=HistoryAction.SLIP_ACCEPT_LATE)
    assert entry.reason == "telefoon had geen verbinding"

    ranking.goto(ranking_url)
    # Both found the top now: 74 each, the same rank, no solo.
    for index in (0, 1):
        cells = rows.nth(index).locator("td")
        expect(cells.nth(0)).to_have_text("1")
        expect(cells.nth(2)).to_have_text("74")
        expect(cells.nth(5)).to_have_text("0")
    _reload(bram)
    expect(bram.locator("#my-slips tbody tr").last).to_contain_text("te laat, geaccepteerd")
