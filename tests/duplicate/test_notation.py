"""The club's slip notation (issue 40, point 6): slips read in it on the phone, in the
live preview and on the secretary's paper slips; slips, tops, reasons and the board's
labels shown in it; a change of notation changes how old slips are shown, not their scores.

Worked by hand. Turn 1, rack AAEKNS? (drawn KAAS?EN): the top is KAArSEN across from row
8, column D (74). KAAS across from the centre scores (3+1+1+2) x 2 = 14: rows numbered
8H, rows lettered H8 (FISF-2023 §4.3.1: across is letter then number). Turn 2: KAAS down
column D from the K on D8 adds A, A, S on D9-D11 (no premiums): 3+1+1+2 = 7; rows numbered
D8, rows lettered 4H (column 4 then row H). The same text in the other notation is across
row 4 / row D, three rows above the tiles: it touches nothing.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, SlipNotation
from duplicate.models import Evening, Slip
from duplicate.services.evenings import evening_create, evening_rescore
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw, turn_redo
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LETTERED, NUMBERED = SlipNotation.ROWS_LETTERED, SlipNotation.ROWS_NUMBERED


@pytest.fixture
def evening(competition, secretary):
    return evening_create(competition=competition, number=1, by=secretary)


@pytest.fixture
def anna(four_entrants):
    player = four_entrants[0]
    player.user = UserFactory(username="anna")
    player.save()
    return player


def url(name, evening):
    competition = evening.competition
    return reverse(name, args=[competition.club.slug, competition.slug, evening.number])


def notation_set(club, notation):
    """The club's notation, on the row and on the instance the evening's competition holds."""
    club.slip_notation = notation
    club.save(update_fields=["slip_notation"])


def get(client, address) -> str:
    response = client.get(address)
    assert response.status_code == 200
    return response.content.decode()


def preview(client, evening, text) -> str:
    return client.post(url("duplicate_slip_preview", evening), {"text": text}).content.decode()


@pytest.mark.parametrize(
    "notation, across, down, corner, row_label, column_label",
    [
        # (0, 14), the top right corner: column O, row 1; or row A, column 15.
        (NUMBERED, "8H", "H8", "O1", "1", "A"),
        (LETTERED, "H8", "8H", "A15", "A", "1"),
    ],
)
def test_the_phone_reads_the_slip_and_labels_the_board_in_the_clubs_notation(
    client, club, evening, secretary, anna, notation, across, down, corner, row_label, column_label
):
    notation_set(club, notation)
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(anna.user)
    html = get(client, url("duplicate_slip", evening))
    assert f'data-square="{corner}"' in html
    assert f'role="rowheader">{row_label}<' in html
    assert f'role="columnheader">{column_label}<' in html
    assert f"{across} WOORD horizontaal, {down} WOORD verticaal" in html  # the help
    # The preview says where the engine put it, in the club's notation.
    shown = preview(client, evening, f"{across} KAAS")
    assert '<strong class="preview-score">14</strong>' in shown
    assert f'<span class="font-monospace">{across}</span> horizontaal' in shown
    shown = preview(client, evening, f"{down.lower()} kaas")  # four blanks: refused
    assert "Telt 0" in shown
    shown = preview(client, evening, f"{down} KAAS")
    assert f'<span class="font-monospace">{down}</span> verticaal' in shown


def test_a_lettered_club_reads_and_shows_every_slip_in_its_notation(
    client, club, evening, secretary, anna, four_entrants
):
    bert, cor = four_entrants[1:3]
    notation_set(club, LETTERED)
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(anna.user)
    slip_page = url("duplicate_slip", evening)
    sent = client.post(slip_page, {"turn": "1", "text": "H8 KAAS", "claimed": "14"})
    assert sent.status_code == 302
    first = Slip.objects.get(player=anna)
    assert (first.text, first.written_in, first.score, first.reason_code) == (
        "H8 KAAS",
        LETTERED,
        14,
        "",
    )
    # The spelleider sees each top in the club's notation; the choice sent is the engine's.
    client.force_login(secretary)
    leader = get(client, url("duplicate_leader", evening))
    assert 'value="8D KAArSEN"' in leader and ">H4 KAArSEN</label>" in leader
    assert client.post(url("duplicate_leader", evening), {"action": "top", "play": "8D KAArSEN"})
    turn.refresh_from_db()
    assert (turn.top, turn.top_score) == ("8D KAArSEN", 74)
    # The top, stored in the engine's notation, is shown rows lettered: row H, column 4.
    panel = get(client, url("duplicate_screen_panel", evening))
    assert "H4 KAArSEN <strong>74</strong>" in panel and "8D KAArSEN" not in panel
    assert "H4 KAArSEN" in get(client, url("duplicate_evening", evening))

    turn_draw(evening=evening, tiles="AASTTEO", by=secretary)
    client.force_login(anna.user)
    sent = client.post(slip_page, {"turn": "2", "text": "4H KAAS", "claimed": "7"})
    assert sent.status_code == 302
    second = Slip.objects.get(player=anna, turn__number=2)
    assert (second.score, second.corrected, second.reason_code) == (7, False, "")
    # Rows numbered, "4H" would be row 4: the secretary's paper slip for Bert, typed as
    # rows numbered by mistake, is read rows lettered (row D, from column 8) and refused.
    client.force_login(secretary)
    paper = url("duplicate_paper", evening)
    response = client.post(paper, {"player": str(bert.pk), "turn": "2", "text": "D8 KAAS"})
    assert response.status_code == 302
    refused = Slip.objects.get(player=bert)
    assert (refused.score, refused.reason_code) == (0, "not_connected")
    # A reason names its square in the club's notation: G8 rows numbered is H7 here.
    client.post(paper, {"player": str(cor.pk), "turn": "2", "text": "H4 KAAS"})
    occupied = Slip.objects.get(player=cor)
    assert (occupied.reason_code, occupied.reason_params["square"]) == (
        "square_occupied",
        "G8",
    )
    html = get(client, paper)
    # (a word of its own: the page's random CSRF token may hold the letters "G8")
    assert "Op H7 ligt al een R" in html and not re.search(r"\bG8\b", html)
    assert 'value="4H KAAS"' in html and ">H8 KAAS<" in html
    # The secretary corrects it, read rows lettered too (the position in lowercase).
    client.post(
        paper,
        {"action": "correct", "slip": str(refused.pk), "text": "4h KAAS", "reason": "Nu goed"},
    )
    refused.refresh_from_db()
    assert (refused.score, refused.reason_code, refused.written_in) == (7, "", LETTERED)

    # On the phone, the slips as typed.
    client.force_login(anna.user)
    html = get(client, slip_page)
    assert ">H8 KAAS<" in html and ">4H KAAS<" in html


def test_a_change_of_notation_changes_how_old_slips_are_shown_not_their_scores(
    client, club, evening, secretary, anna
):
    notation_set(club, LETTERED)
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    slip_submit(turn=turn, player_id=anna.pk, text="H8 KAAS", claimed=14, by=secretary)
    turn_choose_top(turn=turn, by=secretary, play="8D KAArSEN")
    turn = turn_draw(evening=evening, tiles="AASTTEO", by=secretary)
    slip_submit(turn=turn, player_id=anna.pk, text="4H KAAS", claimed=7, by=secretary)
    before = list(Slip.objects.order_by("pk").values_list("score", "is_top", "reason_code"))
    assert before == [(14, False, ""), (7, False, "")]

    client.force_login(secretary)
    saved = client.post(
        reverse("club_settings", kwargs={"club": club.slug}), {"slip_notation": NUMBERED}
    )
    assert saved.status_code == 302
    club.refresh_from_db()
    assert club.slip_notation == NUMBERED
    # Shown rows numbered now: H8 across rows lettered is 8H; 4H down is D8.
    client.force_login(anna.user)
    html = get(client, url("duplicate_slip", evening))
    assert ">8H KAAS<" in html and ">D8 KAAS<" in html and ">4H KAAS<" not in html
    assert "8D KAArSEN" in get(client, url("duplicate_evening", evening))
    # Scored again (a restored archive), each read as it was typed; a turn played again
    # leaves its slip as it was, void.
    evening = Evening.objects.select_related("competition__club").get(pk=evening.pk)
    assert evening.competition.club.slip_notation == NUMBERED
    evening_rescore(evening)
    assert list(Slip.objects.values_list("score", flat=True)) == [14, 7]
    turn = evening.turns.get(number=2)
    turn_redo(turn=turn, by=secretary, reason="Verkeerd getrokken", tiles="AASTTEN")
    after = list(Slip.objects.order_by("pk").values_list("score", "is_top", "reason_code"))
    assert after == before
    assert list(Slip.objects.order_by("pk").values_list("void", flat=True)) == [False, True]
    assert list(Slip.objects.values_list("written_in", flat=True)) == [LETTERED, LETTERED]


def test_the_secretary_chooses_the_clubs_notation_kept_in_the_history(
    client, club, secretary, member
):
    address = reverse("club_settings", kwargs={"club": club.slug})
    client.force_login(member)
    assert client.get(address).status_code == 403
    assert client.post(address, {"slip_notation": LETTERED}).status_code == 403
    client.force_login(secretary)
    assert f'href="{address}"' in get(client, club.get_absolute_url())
    with CaptureQueriesContext(connection) as queries:
        html = get(client, address)
    assert len(queries) <= 6
    assert "Rijen met letters (H8 horizontaal, 8H verticaal)" in html
    assert "hetzelfde woord horizontaal is H4, verticaal 4H" in html  # the help
    for bad in ("", "rows_sideways", "\x00"):
        refused = client.post(address, {"slip_notation": bad})
        assert refused.status_code == 200
        assert "is-invalid" in refused.content.decode()
    club.refresh_from_db()
    assert club.slip_notation == NUMBERED
    assert not HistoryEntry.objects.filter(action=HistoryAction.CLUB_CHANGE).exists()
    saved = client.post(address, {"slip_notation": LETTERED}, follow=True)
    assert "De instellingen van de club zijn opgeslagen." in saved.content.decode()
    club.refresh_from_db()
    assert club.slip_notation == LETTERED
    (entry,) = HistoryEntry.objects.filter(action=HistoryAction.CLUB_CHANGE)
    assert (entry.before, entry.after, entry.by) == (
        {"slip_notation": NUMBERED},
        {"slip_notation": LETTERED},
        secretary,
    )
