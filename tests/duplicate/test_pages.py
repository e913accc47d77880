"""The duplicate pages through the Django test client: the evenings and rankings, the
spelleider's page, the room screen, a player's slip and the secretary's paper slips."""

from __future__ import annotations

from urllib.parse import quote, unquote

import pytest
from django.db import connection
from django.db.models import ProtectedError
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import HistoryEntry
from duplicate.models import DuplicateCompetition, Evening, Participant, Slip, Turn
from duplicate.selectors import evening_state
from duplicate.services.evenings import evening_create
from duplicate.services.participants import participant_withdraw
from duplicate.services.presence import presence_set
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw, turn_redo
from tests.factories import CompetitionFactory, UserFactory

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


def url(name, evening, *extra):
    competition = evening.competition
    return reverse(name, args=[competition.club.slug, competition.slug, evening.number, *extra])


def page(client, address, status=200):
    response = client.get(address)
    assert response.status_code == status, response.content[:400]
    return response.content.decode()


def test_a_competition_with_evenings_is_not_deleted(evening, competition):
    with pytest.raises(ProtectedError):
        competition.delete()
    assert DuplicateCompetition.objects.filter(pk=competition.pk).exists()


def test_evenings_belong_to_a_duplicate_competition_only(club, secretary, client):
    league = CompetitionFactory(club=club, slug="liga")
    client.force_login(secretary)
    assert client.get(f"/{club.slug}/liga/duplicate/").status_code == 404
    response = client.post(f"/{club.slug}/liga/beheer/duplicate/nieuw/", {"number": "1"})
    assert response.status_code == 404
    assert league.pk and not Evening.objects.exists()


def test_the_secretary_starts_an_evening_and_a_second_click_starts_no_other(
    client, competition, secretary
):
    client.force_login(secretary)
    html = page(client, reverse("duplicate_evenings", args=[competition.club.slug, "duplicate"]))
    assert "Avond 1 beginnen" in html
    create = reverse("duplicate_evening_create", args=[competition.club.slug, "duplicate"])
    for _click in range(2):
        response = client.post(create, {"number": "1"})
        assert response.status_code == 302
    assert Evening.objects.filter(competition=competition).count() == 1
    assert client.post(create, {"number": "٣"}).status_code == 302
    assert Evening.objects.filter(competition=competition).count() == 1


@pytest.mark.parametrize(
    "name",
    [
        "duplicate_leader",
        "duplicate_leader_slips",
        "duplicate_paper",
        "duplicate_jury",
        "duplicate_slip",
    ],
)
def test_an_evenings_page_sends_a_visitor_to_the_login_and_back(client, evening, name):
    """Not logged in: the login page, with the page asked for (its query too) as `next`,
    as `redirect_to_login` writes it."""
    address = url(name, evening) + "?beurt=1"
    response = client.get(address)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={quote(address, safe='/')}"
    assert response["Location"].endswith("/%3Fbeurt%3D1")


@pytest.mark.parametrize(
    "name",
    ["duplicate_settings", "duplicate_rules", "duplicate_participants", "duplicate_history"],
)
def test_a_competitions_page_sends_a_visitor_to_the_login_and_back(client, competition, name):
    address = reverse(name, args=[competition.club.slug, competition.slug])
    response = client.get(address)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={address}"
    made = reverse("duplicate_create", args=[competition.club.slug])
    assert client.get(made)["Location"] == f"{reverse('login')}?next={made}"


def test_only_the_clubs_secretaries_lead_the_evening(client, evening, anna):
    leader = url("duplicate_leader", evening)
    assert client.get(leader).status_code == 302  # to the login page
    client.force_login(anna)
    assert client.get(leader).status_code == 403
    assert client.post(leader, {"action": "draw", "tiles": "KAAS?EN"}).status_code == 403
    assert not Turn.objects.exists()


def test_the_spelleider_types_the_draw_chooses_a_top_and_plays_a_turn_again(
    client, evening, secretary
):
    client.force_login(secretary)
    leader = url("duplicate_leader", evening)
    html = page(client, leader)
    assert 'id="draw-form"' in html

    # Letters the bag does not hold: refused in Dutch, nothing drawn.
    refused = client.post(leader, {"action": "draw", "tiles": "ZZZZZZZ"})
    assert refused.status_code == 200
    assert "Het zakje bevat geen" in refused.content.decode()
    assert not Turn.objects.exists()

    assert client.post(leader, {"action": "draw", "tiles": "kaas?en"}).status_code == 302
    html = page(client, leader)
    assert 'id="leader-rack">AAEKNS?<' in html
    assert "8D KAArSEN" in html and "74" in html

    # A play that is not a top is refused; the top goes on the board; twice is once.
    not_a_top = client.post(leader, {"action": "top", "play": "8H KAAS"})
    assert "8H KAAS is geen top van deze beurt" in not_a_top.content.decode()
    assert Turn.objects.get().is_open
    for _click in range(2):
        assert client.post(leader, {"action": "top", "play": "8D KAArSEN"}).status_code == 302
    turn = Turn.objects.get()
    assert (turn.top, turn.top_score, turn.total) == ("8D KAArSEN", 74, 74)

    # Played again after an error: a reason is required.
    no_reason = client.post(leader, {"action": "redo", "tiles": "KAAS?ET"})
    assert "Dit veld is verplicht" in no_reason.content.decode()
    # The same rack again is refused: the rules want a different draw (FISF §3.6).
    same = client.post(
        leader, {"action": "redo", "tiles": "KAAS?EN", "reason": "Verkeerde top gekozen"}
    )
    assert "is dat van de beurt die opnieuw gespeeld wordt" in same.content.decode()
    response = client.post(
        leader, {"action": "redo", "tiles": "KAAS?ET", "reason": "Verkeerde top gekozen"}
    )
    assert response.status_code == 302
    turn.refresh_from_db()
    assert (turn.top, turn.rack) == ("", "AAEKST?")
    assert HistoryEntry.objects.filter(action="duplicate.redo", reason="Verkeerde top gekozen")
    assert client.post(leader, {"action": "explode"}).status_code == 302


def test_a_draw_breaking_the_minimum_is_refused_in_dutch(client, competition, secretary):
    evening = evening_create(
        competition=competition,
        number=2,
        by=secretary,
        draw_rules={"min_vowels": 2, "min_consonants": 2},
    )
    client.force_login(secretary)
    refused = client.post(url("duplicate_leader", evening), {"action": "draw", "tiles": "KSTRNDL"})
    assert refused.status_code == 200
    assert "klinkers" in refused.content.decode()
    assert not Turn.objects.exists()


def test_the_room_screen_shows_the_rack_and_countdown_then_the_top(
    client, evening, secretary, competition
):
    Evening.objects.filter(pk=evening.pk).update(slip_rules={"turn_seconds": 120})
    evening.refresh_from_db()
    html = page(client, url("duplicate_screen", evening))
    assert "Het spel begint zo." in html or "begint" in html
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    panel = page(client, url("duplicate_screen_panel", evening))
    assert 'id="screen-rack"' in panel and ">K<" in panel
    remaining = int(panel.split('data-remaining="')[1].split('"')[0])
    assert 110 <= remaining <= 120
    turn_choose_top(turn=turn, by=secretary)
    panel = page(client, url("duplicate_screen_panel", evening))
    assert "8D KAArSEN <strong>74</strong>" in panel
    assert 'id="screen-total">74<' in panel
    with CaptureQueriesContext(connection) as queries:
        page(client, url("duplicate_screen_panel", evening))
    assert len(queries) <= 3
    # No CDN: every script and style comes from the site itself.
    assert "http" not in html.split("<body")[0].replace("http-equiv", "")


def test_a_player_hands_in_a_slip_once_with_the_score_shown_before(
    client, evening, secretary, anna
):
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(anna)
    slip_page = url("duplicate_slip", evening)
    html = page(client, slip_page)
    assert 'id="slip-rack">AAEKNS?<' in html
    preview = client.post(url("duplicate_slip_preview", evening), {"text": "8h kaas"})
    assert "14" not in preview.content.decode() and "0" in preview.content.decode()
    preview = client.post(url("duplicate_slip_preview", evening), {"text": "8H KAAS"})
    assert '<strong class="preview-score">14</strong>' in preview.content.decode()
    bad = client.post(url("duplicate_slip_preview", evening), {"text": "8H KAAZ"})
    assert "Telt 0" in bad.content.decode()

    sent = client.post(slip_page, {"turn": "1", "text": "8H KAAS", "claimed": "16"})
    assert sent.status_code == 302
    slip = Slip.objects.get()
    assert (slip.score, slip.corrected, slip.late) == (14, True, False)
    again = client.post(slip_page, {"turn": "1", "text": "8D KAArSEN", "claimed": "74"})
    assert again.status_code == 200
    assert "is al binnen" in again.content.decode()
    assert Slip.objects.get().text == "8H KAAS"
    html = page(client, slip_page)
    assert 'id="slip-sent"' in html and "verbeterd" in html


def test_a_late_slip_is_marked_late_and_a_slip_for_an_old_turn_is_refused(
    client, evening, secretary, anna
):
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    turn_choose_top(turn=turn, by=secretary)
    client.force_login(anna)
    slip_page = url("duplicate_slip", evening)
    assert "te laat" in page(client, slip_page)
    assert client.post(slip_page, {"turn": "1", "text": "8H KAAS"}).status_code == 302
    assert Slip.objects.get().late
    turn_draw(evening=evening, tiles="TWOORDA", by=secretary)
    old = client.post(slip_page, {"turn": "1", "text": "8H KAS"})
    assert "Deze beurt is voorbij" in old.content.decode()
    assert Slip.objects.count() == 1


def test_someone_not_playing_has_no_slip_nor_a_link_to_one(client, evening, member, anna):
    """The evening's pages link to "My slip" for those entered alone: for anyone else the
    slip page is a 403 (issue 52, point 3)."""
    client.force_login(member)
    assert client.get(url("duplicate_slip", evening)).status_code == 403
    assert client.post(url("duplicate_slip_preview", evening), {"text": "x"}).status_code == 403
    slip_page = url("duplicate_slip", evening)
    assert slip_page not in page(client, url("duplicate_evening", evening))
    client.force_login(anna)
    assert slip_page in page(client, url("duplicate_evening", evening))


def test_the_slip_link_is_not_shown_to_one_withdrawn_from_the_evening_or_absent(
    client, evening, secretary, anna
):
    """Entered, but not playing this evening: withdrawn from it, or recorded absent."""
    participant = Participant.objects.get(player__user=anna)
    slip_page = url("duplicate_slip", evening)
    client.force_login(anna)
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    presence_set(evening=evening, participant=participant, status="absent", by=secretary)
    assert slip_page not in page(client, url("duplicate_evening", evening))
    presence_set(evening=evening, participant=participant, status="present", by=secretary)
    assert slip_page in page(client, url("duplicate_evening", evening))
    participant_withdraw(participant=participant, from_evening=evening.number, by=secretary)
    assert slip_page not in page(client, url("duplicate_evening", evening))


def test_the_secretary_types_paper_slips_and_corrects_one_with_a_reason(
    client, evening, secretary, four_entrants
):
    _anna, bert, *_ = four_entrants
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(secretary)
    paper = url("duplicate_paper", evening)
    html = page(client, paper)
    assert "Anna" in html and 'name="turn"' in html
    response = client.post(
        paper, {"player": str(bert.pk), "turn": "1", "text": "8H KAAZ", "claimed": "30"}
    )
    assert response.status_code == 302
    slip = Slip.objects.get()
    assert (slip.score, slip.reason_code) == (0, "not_in_rack")
    assert "Z" in page(client, paper)

    no_reason = client.post(
        paper, {"action": "correct", "slip": str(slip.pk), "text": "8H KAAS", "reason": ""}
    )
    assert "Dit veld is verplicht" in no_reason.content.decode()
    response = client.post(
        paper,
        {
            "action": "correct",
            "slip": str(slip.pk),
            "text": "8H KAAS",
            "claimed": "14",
            "reason": "Briefje verkeerd gelezen",
        },
    )
    assert response.status_code == 302
    slip.refresh_from_db()
    assert (slip.text, slip.score, slip.corrected) == ("8H KAAS", 14, False)
    assert HistoryEntry.objects.filter(action="slip.correct", reason="Briefje verkeerd gelezen")
    odd = client.post(paper, {"player": "99999", "turn": "7", "text": "\x00", "claimed": "١"})
    assert odd.status_code == 200 and Slip.objects.count() == 1


def test_the_evening_and_season_rankings(client, evening, secretary, four_entrants, competition):
    anna, bert, _cor, _dirk = four_entrants
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    slip_submit(turn=turn, player_id=anna.pk, text="8D KAArSEN", by=secretary)
    slip_submit(turn=turn, player_id=bert.pk, text="8H KAAS", by=secretary)
    turn_choose_top(turn=turn, by=secretary)
    with CaptureQueriesContext(connection) as queries:
        html = page(client, url("duplicate_evening", evening))
    assert len(queries) <= 6, [q["sql"] for q in queries.captured_queries]
    ranking = html.split('id="ranking"')[1].split("</table>")[0]
    # Anna 74 of 74 = 100%, one top, a solo; Bert 14 of 74 = 18.92%.
    assert ranking.index("Anna") < ranking.index("Bert")
    assert "100,00" in ranking and "18,92" in ranking
    assert "8D KAArSEN" in html

    second = evening_create(competition=competition, number=2, by=secretary)
    turn = turn_draw(evening=second, tiles="KAAS?EN", by=secretary)
    slip_submit(turn=turn, player_id=bert.pk, text="8D KAArSEN", by=secretary)
    slip_submit(turn=turn, player_id=anna.pk, text="8H KAAS", by=secretary)
    turn_choose_top(turn=turn, by=secretary)
    season_url = reverse("duplicate_evenings", args=[competition.club.slug, competition.slug])
    season = page(client, season_url).split('id="season"')[1]
    assert "59,46" in season  # (100 + 18.92) / 2, for both
    DuplicateCompetition.objects.filter(pk=competition.pk).update(best_evenings=1)
    season = page(client, season_url).split('id="season"')[1]
    assert "59,46" not in season and "100,00" in season


def test_the_evenings_results_as_csv_and_its_papers_with_qr_codes(
    client, evening, secretary, four_entrants
):
    anna, bert, *_ = four_entrants
    bert.name = "=HYPERLINK(1)"  # a name a spreadsheet would run as a formula
    bert.save()
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    slip_submit(turn=turn, player_id=anna.pk, text="8D KAArSEN", claimed=76, by=secretary)
    slip_submit(turn=turn, player_id=bert.pk, text="8H KAAS", by=secretary)
    turn_choose_top(turn=turn, by=secretary)

    response = client.get(url("duplicate_evening_csv", evening))
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    # A Dutch reader's spreadsheet: semicolons, a decimal comma.
    header = "rank;player;player_id;total;percentage;tops;solos;points;solo_bonus;warnings;penalty"
    assert lines[0] == header
    # The NTSV preset: no solo bonus, no warnings or penalties (the total is the points).
    assert lines[1] == f"1;Anna;{anna.pk};74;100,00;1;1;74;0;0;0"
    # 14 / 74 = 18.92%; the formula is written as text.
    assert lines[2] == f"2;'=HYPERLINK(1);{bert.pk};14;18,92;0;0;14;0;0;0"
    client.cookies["django_language"] = "en"  # commas and a decimal point
    lines = client.get(url("duplicate_evening_csv", evening)).content.decode().splitlines()
    assert lines[2] == f"2,'=HYPERLINK(1),{bert.pk},14,18.92,0,0,14,0,0,0"
    client.cookies["django_language"] = "nl"

    html = page(client, url("duplicate_print", evening))
    assert html.count("Wedstrijdblad ·") == 4  # one per entrant
    assert html.count('class="qr"') == 4 + 12  # each sheet and each blank slip
    sheet = html.split("Wedstrijdblad · Anna")[1].split("</section>")[0]
    assert "8D KAArSEN" in sheet and ">74<" in sheet
    assert "<script" not in html.split("</nav>")[1].split("<script src")[0]


def test_the_master_game_as_gcg_with_the_racks(client, evening, secretary):
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    turn_choose_top(turn=turn, by=secretary)
    second = turn_draw(evening=evening, tiles="TWOORDA", by=secretary)
    turn_choose_top(turn=second, by=secretary, play="J7 A.TWOORD")
    turn_draw(evening=evening, tiles="EEEIILL", by=secretary)  # open: not in the file
    text = client.get(url("duplicate_gcg", evening)).content.decode()
    moves = [line for line in text.splitlines() if line.startswith(">")]
    # 74 then 79: 153; the blank of KAArSEN went back to the bag for the bag's R.
    assert moves == [">top: AAEKNS? 8D KAArSEN +74 74", ">top: ADOORTW J7 A.TWOORD +79 153"]
    assert "#note blank on G8 replaced by R" in text  # 8D: K on D8, A E8, A F8, r G8
    assert '#bordpunt-duplicate {"blank_counts"' in text


def test_an_archived_competition_refuses_every_duplicate_form_cleanly(
    client, evening, secretary, competition, four_entrants
):
    from duplicate.services.competitions import duplicate_archive

    anna = four_entrants[0]
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    duplicate_archive(competition=competition, by=secretary)
    client.force_login(secretary)
    club, slug = competition.club.slug, competition.slug
    posts = [
        (reverse("duplicate_evening_create", args=[club, slug]), {"number": "2"}),
        (url("duplicate_leader", evening), {"action": "top", "play": ""}),
        (url("duplicate_leader", evening), {"action": "redo", "reason": "fout", "tiles": ""}),
        (
            url("duplicate_paper", evening),
            {"player": str(anna.pk), "turn": "1", "text": "8H KAAS"},
        ),
    ]
    for address, data in posts:
        response = client.post(address, data, follow=True)
        assert response.status_code == 200, address
        assert "gearchiveerd" in response.content.decode(), address
    turn.refresh_from_db()
    assert turn.is_open and not Slip.objects.exists()
    assert Evening.objects.filter(competition=competition).count() == 1


def test_the_phone_gets_its_slip_in_the_same_answer_without_the_board(
    client, evening, secretary, anna
):
    """htmx posts the slip and swaps in the answer: the hand-in part with the slip in and
    the slip's row for the list of slips (out of band), scored on the board the page had
    just replayed, as a plain post (redirected) scores it. The board is not sent again:
    the whole room hands in within seconds. A constant number of queries, however many
    slips are in."""
    turn_choose_top(turn=turn_draw(evening=evening, tiles="KAAS?EN", by=secretary), by=secretary)
    turn_draw(evening=evening, tiles="DEERNIS", by=secretary)
    client.force_login(anna)
    slip_page = url("duplicate_slip", evening)
    assert 'class="board"' in page(client, slip_page)
    with CaptureQueriesContext(connection) as queries:
        sent = client.post(
            slip_page,
            {"turn": "2", "text": "9H ZZZ", "claimed": "3"},
            headers={"HX-Request": "true"},
        )
    assert sent.status_code == 200
    html = sent.content.decode()
    assert 'id="slip-sent"' in html and 'id="slip-form"' not in html
    assert 'class="board"' not in html and "<main" not in html
    # The list of slips gets the new slip's row, out of band: the phone shows the others.
    added = html.split('<table hx-swap-oob="beforeend:#my-slips"><tbody>', 1)[1]
    assert added.count("<tr>") == 1 and "9H ZZZ" in added and "my-slips-part" not in html
    # Session, user, the evening with its competition, club and the player's entry (one
    # query: duplicate.hand_in_sql), the turns, and the write (begin; the turn held; the
    # slip; history; the competition's version, which refuses an archived one; commit);
    # and the club's status, read afresh for a write (hosting.middleware: a suspended
    # club's slips are refused); on PostgreSQL the shared clock too, the database's, for
    # the slip's arrival (clubs.timing).
    clock = 1 if connection.vendor == "postgresql" else 0
    assert len(queries) == 11 + clock, [query["sql"][:60] for query in queries.captured_queries]
    slip = Slip.objects.get()
    assert (slip.turn.number, slip.score, slip.claimed) == (2, 0, 3)
    assert slip.reason_code


def test_a_phone_that_hands_in_after_the_next_draw_gets_the_whole_new_page(
    client, evening, secretary, anna
):
    """The turn it shows is over: nothing is saved, and the answer replaces the whole page
    (the new rack and board), not only the form, with the reason in Dutch."""
    turn_choose_top(turn=turn_draw(evening=evening, tiles="KAAS?EN", by=secretary), by=secretary)
    turn_draw(evening=evening, tiles="DEERNIS", by=secretary)
    client.force_login(anna)
    sent = client.post(
        url("duplicate_slip", evening),
        {"turn": "1", "text": "8H KAAS", "claimed": ""},
        headers={"HX-Request": "true"},
    )
    assert sent.status_code == 200
    assert (sent["HX-Retarget"], sent["HX-Reselect"]) == ("main", "main")
    html = sent.content.decode()
    assert "<main" in html and 'class="board"' in html and 'id="slip-rack"' in html
    assert "Deze beurt is voorbij" in html
    assert not Slip.objects.exists()


def test_a_slip_scores_the_same_on_the_page_s_board_as_on_a_board_rebuilt(
    evening, secretary, four_entrants
):
    turn_choose_top(turn=turn_draw(evening=evening, tiles="KAAS?EN", by=secretary), by=secretary)
    turn = turn_draw(evening=evening, tiles="DEERNIS", by=secretary)
    state = evening_state(evening)
    top = state.game.tops()[0]
    first, second = four_entrants[:2]
    on_page = slip_submit(
        turn=turn, player_id=first.pk, text=top.notation, by=None, position=state.game
    )
    rebuilt = slip_submit(turn=turn, player_id=second.pk, text=top.notation, by=None)
    assert on_page.score == rebuilt.score == turn.top_score > 0
    assert on_page.is_top and rebuilt.is_top


def _followed_draw(html: str) -> str | None:
    """What the slip page's follower asks about (`shown`), None when the page has none."""
    marker = 'id="slip-follow"'
    if marker not in html:
        return None
    follower = html.split(marker, 1)[1].split(">", 1)[0]
    return unquote(follower.split("?shown=", 1)[1].split("&amp;", 1)[0])


def test_the_phone_follows_the_draws(client, evening, secretary, anna):
    """The slip page asks every few seconds whether a new rack is out: 204 while the draw
    it shows is the last (the top chosen changes nothing), then an answer that has htmx
    load the page again (the new rack, an empty slip). Only a new draw reloads it, when a
    slip typed for the turn before could not be handed in any more."""
    client.force_login(anna)
    slip_page, next_turn = url("duplicate_slip", evening), url("duplicate_slip_next_turn", evening)
    assert _followed_draw(page(client, slip_page)) == ""
    assert client.get(next_turn, {"shown": ""}).status_code == 204

    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    drawn = client.get(next_turn, {"shown": ""})
    assert (drawn.status_code, drawn["HX-Refresh"]) == (200, "true")
    assert _followed_draw(page(client, slip_page)) == "1:AAEKNS?"  # with the form

    sent = client.post(
        slip_page, {"turn": "1", "text": "8H KAAS", "claimed": ""}, headers={"HX-Request": "true"}
    )
    shown = _followed_draw(sent.content.decode())
    assert shown == "1:AAEKNS?"
    assert "De volgende letters verschijnen hier vanzelf" in sent.content.decode()
    assert _followed_draw(page(client, slip_page)) == shown
    assert client.get(next_turn, {"shown": shown}).status_code == 204
    turn_choose_top(turn=turn, by=secretary)  # the top changes nothing the phone shows
    assert client.get(next_turn, {"shown": shown}).status_code == 204
    assert "De volgende letters verschijnen hier vanzelf" in page(client, slip_page)

    turn_draw(evening=evening, tiles="TWOORDA", by=secretary)
    assert client.get(next_turn, {"shown": shown})["HX-Refresh"] == "true"
    assert _followed_draw(page(client, slip_page)) == "2:ADOORTW"
    # A slip for the turn before is refused now: the reload lost nothing that counts.
    late = client.post(slip_page, {"turn": "1", "text": "8H KAS", "claimed": ""})
    assert "Deze beurt is voorbij" in late.content.decode()
    # Odd values are only another draw than the last: the page is loaded again, no error.
    for odd in ("٣:AAEKNS?", "\x00", "9" * 400):
        assert client.get(next_turn, {"shown": odd}).status_code == 200


def test_the_phone_learns_of_a_turn_drawn_again_and_hands_in_again(
    client, evening, secretary, anna
):
    """The redo voids the slip handed in (issue 50): the phone's next poll reloads the
    page, which shows the new rack and the form again, and the void slip in the list."""
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(anna)
    slip_page = url("duplicate_slip", evening)
    client.post(slip_page, {"turn": "1", "text": "8H KAAS", "claimed": ""})
    before = page(client, slip_page)
    assert "De volgende letters verschijnen hier vanzelf" in before
    shown = _followed_draw(before)
    turn_redo(turn=turn, by=secretary, reason="verkeerd getypt", tiles="TWOORDA")
    again = client.get(url("duplicate_slip_next_turn", evening), {"shown": shown})
    assert again["HX-Refresh"] == "true"
    reloaded = page(client, slip_page)
    assert 'id="slip-rack">ADOORTW<' in reloaded
    assert "De volgende letters verschijnen hier vanzelf" not in reloaded  # the form is back
    assert "vervallen: de beurt is opnieuw getrokken" in reloaded  # the void slip, listed
    # W5 on H8 (DW), O1 R2 D2, T2 on L8 (DL) 4: (5+1+2+2+4) x 2 = 28.
    sent = client.post(
        slip_page,
        {"turn": "1", "text": "8H WORDT", "claimed": "28"},
        headers={"HX-Request": "true"},
    )
    assert "De volgende letters verschijnen hier vanzelf" in sent.content.decode()
    assert [(s.text, s.score, s.void) for s in Slip.objects.order_by("pk")] == [
        ("8H KAAS", 14, True),
        ("8H WORDT", 28, False),
    ]


def test_asking_for_the_next_draw_is_one_query_and_needs_no_login(client, evening, secretary):
    turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    # The first ask also reads the club's status (hosting.middleware), which the next ones
    # find in the cache for a few seconds: a phone asks every few seconds.
    client.get(url("duplicate_slip_next_turn", evening), {"shown": "1:AAEKNS?"})
    with CaptureQueriesContext(connection) as queries:
        asked = client.get(url("duplicate_slip_next_turn", evening), {"shown": "1:AAEKNS?"})
    assert asked.status_code == 204 and len(queries) == 1
    missing = reverse("duplicate_slip_next_turn", args=["nergens", "niets", 1])
    assert client.get(missing, {"shown": ""}).status_code == 204  # no draw, as shown


def test_the_spelleider_s_count_of_slips_follows_the_room(
    client, evening, secretary, anna, four_entrants
):
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    client.force_login(secretary)
    leader_page = page(client, url("duplicate_leader", evening))
    count = url("duplicate_leader_slips", evening)
    assert f'hx-get="{count}"' in leader_page and "0 van 4 beurtbriefjes" in leader_page
    slip_submit(turn=turn, player_id=four_entrants[1].pk, text="8H KAAS", by=secretary)
    answer = page(client, count)
    assert 'id="leader-slips"' in answer and "1 van 4 beurtbriefjes" in answer
    assert f'hx-get="{count}"' in answer
    turn_choose_top(turn=turn, by=secretary)
    closed = page(client, count)
    assert 'id="leader-slips"' in closed and "hx-get" not in closed  # it stops asking
    client.force_login(anna)
    assert client.get(count).status_code == 403
