"""The turn's clock on the pages: the countdown the server renders on the phone, the room
screen and the spelleider's page; time added and late slips accepted on the spelleider's
page; the phone's list of own slips with its late marks."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs.models import HistoryEntry
from duplicate.models import Slip, Turn
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_draw
from tests.duplicate.test_pages import page, url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(competition, secretary):
    return evening_create(competition=competition, number=1, by=secretary)


@pytest.fixture
def anna(four_entrants):
    """Anna's login: the first entrant's account."""
    player = four_entrants[0]
    player.user = UserFactory(username="anna")
    player.save()
    return player.user


def remaining(html: str, element_id: str) -> int:
    return int(re.search(rf'id="{element_id}"[^>]*data-remaining="(\d+)"', html).group(1))


def time_run_out(turn: Turn, seconds_ago: int = 10) -> None:
    """The turn's time ran out `seconds_ago` (past the grace): its draw moved back."""
    past = timezone.now() - datetime.timedelta(seconds=turn.seconds + seconds_ago)
    Turn.objects.filter(pk=turn.pk).update(drawn_at=past)


def test_the_phone_counts_down_the_server_s_time_and_says_when_a_slip_is_late(
    client, evening, secretary, anna
):
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(anna)
    slip_page = url("duplicate_slip", evening)
    html = page(client, slip_page)
    assert 175 <= remaining(html, "slip-countdown") <= 180  # 180 s from the draw
    assert "duplicate/countdown.js" in html
    assert re.search(r'id="slip-time-up"[^>]*hidden', html)  # not yet

    time_run_out(turn)
    html = page(client, slip_page)
    assert remaining(html, "slip-countdown") == 0
    assert not re.search(r'id="slip-time-up"[^>]*hidden', html)
    assert "een briefje dat je nu inlevert is te laat (0 punten)" in html
    client.post(slip_page, {"turn": "1", "text": "8D KAArSEN", "claimed": "74"})
    slip = Slip.objects.get()
    assert (slip.late, slip.score) == (True, 74)
    mine = page(client, slip_page).split('id="my-slips"', 1)[1]
    # The list shows what the slip counts (0) and why; no top mark.
    assert '<td class="text-end">0</td>' in mine and "te laat (0)" in mine
    assert "top</span>" not in mine


def test_the_spelleider_adds_time_and_every_countdown_follows(client, evening, secretary, anna):
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(secretary)
    leader = url("duplicate_leader", evening)
    html = page(client, leader)
    assert 'id="time-form"' in html and 175 <= remaining(html, "leader-countdown") <= 180

    for odd, message in (
        ({"seconds": "30", "reason": ""}, "Dit veld is verplicht."),
        ({"seconds": "٣", "reason": "x"}, "Voer een geheel getal in."),
        ({}, "Dit veld is verplicht."),
        ({"seconds": "601", "reason": "x"}, "hoogstens 600"),
        ({"seconds": "0", "reason": "x"}, "minstens 1"),
    ):
        refused = client.post(leader, {"action": "time", **odd})
        form = refused.content.decode().split('id="time-add"', 1)[1].split("</details>")[0]
        assert refused.status_code == 200 and message in form
    assert Turn.objects.get().added_seconds == 0

    phone_asks = url("duplicate_slip_next_turn", evening)
    assert client.get(phone_asks, {"shown": "1:AAEKNS?", "added": "0"}).status_code == 204
    response = client.post(leader, {"action": "time", "seconds": "60", "reason": "brandalarm"})
    assert response.status_code == 302
    assert Turn.objects.get().added_seconds == 60
    assert HistoryEntry.objects.get(action="duplicate.add_time").reason == "brandalarm"
    assert 235 <= remaining(page(client, leader), "leader-countdown") <= 240

    # The phone, asking as before, gets its new clock out of band; one query (nothing
    # personal: asked without a login, as test_pages asks for the next draw), no reload.
    client.logout()
    with CaptureQueriesContext(connection) as queries:
        asked = client.get(phone_asks, {"shown": "1:AAEKNS?", "added": "0"})
    assert asked.status_code == 200 and len(queries) == 1, queries.captured_queries
    assert "HX-Refresh" not in asked
    answer = asked.content.decode()
    assert 'id="slip-clock" data-clock hx-swap-oob="true"' in answer
    assert 235 <= remaining(answer, "slip-countdown") <= 240
    assert "added=60" in answer  # what it asks next
    assert client.get(phone_asks, {"shown": "1:AAEKNS?", "added": "60"}).status_code == 204
    # The room screen too.
    client.force_login(secretary)
    screen = page(client, url("duplicate_screen_panel", evening))
    assert 235 <= remaining(screen, "screen-countdown") <= 240
    client.force_login(anna)
    assert 235 <= remaining(page(client, url("duplicate_slip", evening)), "slip-countdown") <= 240


def test_the_spelleider_accepts_a_late_slip_with_a_reason(
    client, evening, secretary, anna, four_entrants
):
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    time_run_out(turn)
    bert = four_entrants[1]
    late = slip_submit(turn=turn, player_id=bert.pk, text="8H KAAS", claimed=14, by=bert)
    in_time = slip_submit(
        turn=turn, player_id=four_entrants[2].pk, text="8H KAS", by=secretary, on_paper=True
    )
    assert late.late and not in_time.late
    client.force_login(secretary)
    leader = url("duplicate_leader", evening)
    html = page(client, leader)
    section = html.split('id="late-slips"', 1)[1].split("</section>", 1)[0]
    assert "Bert" in section and "8H KAAS" in section and "Cor" not in section

    no_reason = client.post(leader, {"action": "accept", "slip": str(late.pk), "reason": " "})
    assert "Dit veld is verplicht" in no_reason.content.decode()
    for odd in (str(in_time.pk), "99999", "٣", "\x00", "9" * 30):
        answer = client.post(leader, {"action": "accept", "slip": odd, "reason": "x"})
        assert answer.status_code == 200
    assert not Slip.objects.filter(late_accepted=True).exists()
    assert (
        "Dit briefje is op tijd ingeleverd."
        in client.post(
            leader, {"action": "accept", "slip": str(in_time.pk), "reason": "x"}
        ).content.decode()
    )

    accepted = client.post(
        leader, {"action": "accept", "slip": str(late.pk), "reason": "geen verbinding"}
    )
    assert accepted.status_code == 302
    assert Slip.objects.get(pk=late.pk).late_accepted
    assert HistoryEntry.objects.get(action="slip.accept_late").reason == "geen verbinding"
    assert "geaccepteerd" in page(client, leader).split('id="late-slips"', 1)[1]
    bert_slips = page(client, url("duplicate_paper", evening))
    assert "te laat, geaccepteerd" in bert_slips
