"""A phone loses the club's Wi-Fi in the middle of an evening: the moves typed on the board
and the slip handed in meanwhile stay on the phone, each page says that it waits, and once
the Wi-Fi is back every one is sent and saved exactly once (docs/offline.md). So is a
move the proxy answered with 502 for an app server that died (deploy/fout-bezig.html)."""

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from clubs.models import Player, Submission
from duplicate.models import DuplicateCompetition, Participant, Slip
from duplicate.services.evenings import evening_create
from duplicate.services.turns import turn_draw
from games.models import Move
from games.moves import move_add
from tests.e2e.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
ROOT = Path(__file__).resolve().parents[2]
WAITING = "Geen verbinding — wordt verstuurd zodra de verbinding terug is"


def secretary_logged_in(browser: Browser, live_server, size: dict | None = None):
    """A browser context (a desktop, or `size`) with the club's secretary logged in."""
    context = browser.new_context(locale="nl-NL", **(size or {}))
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").click()
    page.wait_for_url(lambda url: "login" not in url)
    return context, page


def board_on_a_phone(browser: Browser, live_server, game):
    """A phone's context with the secretary logged in, on `game`'s board, the first
    player chosen to start: the move field ready."""
    context, board = secretary_logged_in(browser, live_server, PHONE)
    board.goto(f"{live_server.url}{reverse('board', args=[game.pk])}")
    board.locator('#starter-form button[value="0"]').tap()
    expect(board.locator("#id_notation")).to_be_visible()
    return context, board


def back_online(context, *pages) -> None:
    """The Wi-Fi back: each page's browser knows it (`navigator.onLine`) before it is told
    (the `online` event); told before, the page would still see itself offline and wait
    for its next try, five seconds later."""
    context.set_offline(False)
    for page in pages:
        page.wait_for_function("navigator.onLine === true")
        page.evaluate("window.dispatchEvent(new Event('online'))")


# Without a connection the live preview, the slip page's poll for the next draw and the
# sends themselves fail, as they must: what was sent is kept. htmx logs the send whose
# answer was lost.


@pytest.mark.browser_errors(r"ERR_INTERNET_DISCONNECTED", r"htmx:(afterRequest|sendError)")
def test_what_a_phone_sends_without_wifi_is_saved_once_when_it_is_back(
    browser: Browser, live_server, paired_game
):
    club = paired_game.round.competition.club
    duplicate = DuplicateCompetition.objects.create(club=club, name="Duplicate", slug="dup")
    Participant.objects.create(
        competition=duplicate, player=Player.objects.get(user__username="secretaris")
    )
    evening = evening_create(competition=duplicate, number=1, by=None)
    turn_draw(evening=evening, tiles="KAAS?EN", by=None)

    context, board = board_on_a_phone(browser, live_server, paired_game)
    slip = context.new_page()
    slip.goto(f"{live_server.url}{reverse('duplicate_slip', args=[club.slug, 'dup', 1])}")
    expect(slip.locator("#slip-rack")).to_be_visible()

    context.set_offline(True)
    board.fill("#id_notation", "8H WOORD")
    board.keyboard.press("Enter")
    expect(board.locator("#offline-waiting")).to_contain_text(WAITING)
    expect(board.locator("#id_notation")).to_have_value("")  # ready for the next move
    board.fill("#id_notation", "-")  # Bram passes
    board.keyboard.press("Enter")
    expect(board.locator("#offline-waiting")).to_contain_text("8H WOORD · -")
    slip.fill("#id_text", "8H KAAS")
    slip.fill("#id_claimed", "14")
    slip.locator("#slip-send").click()
    expect(slip.locator("#offline-waiting")).to_contain_text(WAITING)
    expect(slip.locator("#id_text")).to_have_value("8H KAAS")  # still as typed
    # A reload without a connection is not possible; nothing has been sent.
    assert not Move.objects.exists() and not Slip.objects.exists()

    back_online(context, board, slip)
    expect(board.locator('#scoresheet tr[data-move="2"]')).to_be_visible()
    expect(board.locator('#scoresheet tr[data-move="1"]')).to_contain_text("WOORD")
    expect(board.locator("#offline-waiting")).to_have_count(0)
    expect(slip.locator("#slip-sent")).to_be_visible()
    expect(slip.locator("#offline-waiting")).to_have_count(0)

    moves = list(Move.objects.filter(game=paired_game).order_by("number"))
    assert [(move.seat, move.notation) for move in moves] == [(0, "8H WOORD"), (1, "-")]
    (handed_in,) = Slip.objects.all()
    assert (handed_in.text, handed_in.score) == ("8H KAAS", 14)
    assert sorted(Submission.objects.values_list("kind", flat=True)) == ["move", "move", "slip"]
    # Nothing waits any more: a page opened again sends nothing twice.
    for page in (board, slip):
        assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('waiting'))") == []
    board.reload()
    expect(board.locator('#scoresheet tr[data-move="2"]')).to_be_visible()
    assert Move.objects.filter(game=paired_game).count() == 2 and Slip.objects.count() == 1

    # The Wi-Fi drops while a move is on its way: the server saves it, its answer is lost.
    # The phone keeps the move and sends it again with the same key: saved once.
    lost = []

    def lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch())  # it reaches the server
            route.abort("internetdisconnected")
        else:
            route.continue_()

    board.route(f"**{reverse('board', args=[paired_game.pk])}", lose_the_answer)
    board.fill("#id_notation", "H8 (W)AAS")
    board.keyboard.press("Enter")
    expect(board.locator("#offline-waiting")).to_contain_text("H8 (W)AAS")
    assert lost and Move.objects.filter(game=paired_game).count() == 3
    board.evaluate("window.dispatchEvent(new Event('online'))")
    expect(board.locator('#scoresheet tr[data-move="3"]')).to_be_visible()
    expect(board.locator("#offline-waiting")).to_have_count(0)
    # Answered as the first: not refused as out of date, nothing left typed to do again.
    expect(board.locator("#offline-refused")).to_have_count(0)
    expect(board.locator("#id_notation")).to_have_value("")
    assert Move.objects.filter(game=paired_game).count() == 3
    assert Submission.objects.filter(kind="move").count() == 3
    context.close()


@pytest.mark.browser_errors(r"ERR_INTERNET_DISCONNECTED")
def test_results_typed_without_wifi_are_saved_once_when_it_is_back(
    browser: Browser, live_server, paired_game
):
    """The secretary types the round's results on a tablet whose Wi-Fi is gone."""
    context, page = secretary_logged_in(browser, live_server)
    round_obj = paired_game.round
    kwargs = {**round_obj.competition.url_kwargs, "number": round_obj.number}
    page.goto(f"{live_server.url}{reverse('round_results', kwargs=kwargs)}")

    context.set_offline(True)
    page.fill("#id_form-0-score_a", "412")
    page.fill("#id_form-0-score_b", "377")
    page.keyboard.press("Enter")
    expect(page.locator("#offline-waiting")).to_contain_text(WAITING)
    expect(page.locator("#offline-waiting")).to_contain_text("412 377")
    expect(page.locator("#id_form-0-score_a")).to_have_value("412")  # still as typed
    paired_game.refresh_from_db()
    assert not paired_game.has_result

    # Meanwhile the session ended (logged out on another device): what waits is sent
    # once the secretary has logged in again.
    context.clear_cookies(name="sessionid")
    back_online(context, page)
    expect(page.locator("#id_username")).to_be_visible()
    paired_game.refresh_from_db()
    assert not paired_game.has_result
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").click()
    page.wait_for_url(f"**{round_obj.get_absolute_url()}")  # where a save leads
    paired_game.refresh_from_db()
    assert tuple(paired_game.scores) == (412, 377)
    assert list(Submission.objects.values_list("kind", flat=True)) == ["results"]
    context.close()


# The move's late send is refused: another device entered a move meanwhile.
@pytest.mark.browser_errors(r"ERR_INTERNET_DISCONNECTED", r"409 .*/partij/\d+/bord/")
def test_moves_sent_late_onto_a_board_that_changed_stay_typed(
    browser: Browser, live_server, paired_game
):
    context, board = board_on_a_phone(browser, live_server, paired_game)

    context.set_offline(True)
    for notation in ("8H WOORD", "-"):
        board.fill("#id_notation", notation)
        board.keyboard.press("Enter")
    expect(board.locator("#offline-waiting")).to_contain_text("8H WOORD · -")
    paired_game.refresh_from_db()
    move_add(game=paired_game, notation="H8 WAAS", by=None)  # the other device's

    back_online(context, board)
    refused = board.locator("#offline-refused")
    expect(refused).to_contain_text("Niet opgeslagen toen de verbinding terug was: 8H WOORD")
    # The server's own reason, and the move typed after it, not sent.
    expect(refused).to_contain_text("Iemand anders heeft intussen een zet in deze partij ingevoerd")
    expect(refused).to_contain_text("Daarna getypt, dus ook niet verstuurd: -")
    expect(board.locator("#id_notation")).to_have_value("8H WOORD")  # to check and save
    expect(board.locator("#offline-waiting")).to_have_count(0)
    assert list(Move.objects.filter(game=paired_game).values_list("notation", flat=True)) == [
        "H8 WAAS"
    ]
    context.close()


# The proxy's answer for an app server that died in the middle of the save.
@pytest.mark.browser_errors(r"502 .*/partij/\d+/bord/", r"htmx:responseError")
def test_a_move_answered_502_by_the_proxy_waits_and_is_sent_again(
    browser: Browser, live_server, paired_game
):
    context, board = board_on_a_phone(browser, live_server, paired_game)

    proxy_page = (ROOT / "deploy" / "fout-bezig.html").read_text()
    answered = []

    def proxy_without_server(route):
        if route.request.method == "POST" and not answered:
            answered.append(502)
            route.fulfill(status=502, body=proxy_page, content_type="text/html")
        else:
            route.continue_()

    board.route(f"**{reverse('board', args=[paired_game.pk])}", proxy_without_server)
    board.fill("#id_notation", "8H WOORD")
    board.keyboard.press("Enter")
    expect(board.locator("#offline-waiting")).to_contain_text("8H WOORD")
    expect(board.locator("#id_notation")).to_have_value("")  # ready for the next move
    assert answered == [502] and not Move.objects.exists()

    # The server answers again: the move is sent with its key and saved once.
    board.evaluate("window.dispatchEvent(new Event('online'))")
    expect(board.locator('#scoresheet tr[data-move="1"]')).to_contain_text("WOORD")
    expect(board.locator("#offline-waiting")).to_have_count(0)
    assert list(Move.objects.values_list("notation", flat=True)) == ["8H WOORD"]
    context.close()


# The proxy's answer for an app server that died in the middle of the save.
@pytest.mark.browser_errors(r"502 .*/ronde/\d+/uitslagen/")
def test_results_answered_502_by_the_proxy_wait_and_are_sent_again(
    browser: Browser, live_server, paired_game
):
    """The results form is sent by the browser itself: the proxy's page shows (in Dutch),
    and back on the results page the typed scores wait and are sent."""
    context, page = secretary_logged_in(browser, live_server)
    round_obj = paired_game.round
    kwargs = {**round_obj.competition.url_kwargs, "number": round_obj.number}
    results_url = reverse("round_results", kwargs=kwargs)
    page.goto(f"{live_server.url}{results_url}")

    proxy_page = (ROOT / "deploy" / "fout-bezig.html").read_text()
    answered = []

    def proxy_without_server(route):  # the first send and the first try again
        if route.request.method == "POST" and len(answered) < 2:
            answered.append(502)
            route.fulfill(status=502, body=proxy_page, content_type="text/html")
        else:
            route.continue_()

    page.route(f"**{results_url}", proxy_without_server)
    page.fill("#id_form-0-score_a", "412")
    page.fill("#id_form-0-score_b", "377")
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Even bezig")
    expect(page.locator("main")).to_contain_text("Wat je typte blijft bewaard")
    paired_game.refresh_from_db()
    assert answered == [502] and not paired_game.has_result

    page.go_back()  # still no server: the scores wait, as typed
    expect(page.locator("#offline-waiting")).to_contain_text(WAITING)
    expect(page.locator("#offline-waiting")).to_contain_text("412 377")
    expect(page.locator("#id_form-0-score_a")).to_have_value("412")
    assert answered == [502, 502]
    # The server answers again: sent, with its key, once.
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_url(f"**{round_obj.get_absolute_url()}")  # where a save leads
    paired_game.refresh_from_db()
    assert tuple(paired_game.scores) == (412, 377)
    assert list(Submission.objects.values_list("kind", flat=True)) == ["results"]
    context.close()


def _login(context, live_server):
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("#id_username", "secretaris")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").click()
    page.wait_for_url(lambda url: "login" not in url)
    return page


# The late send is refused for a reason of its own: the move does not fit the board.
@pytest.mark.browser_errors(r"ERR_INTERNET_DISCONNECTED", r"422 .*/partij/\d+/bord/")
def test_a_move_refused_for_its_own_reason_says_that_reason(
    browser: Browser, live_server, paired_game
):
    context = browser.new_context(locale="nl-NL", **PHONE)
    board = _login(context, live_server)
    board.goto(f"{live_server.url}{reverse('board', args=[paired_game.pk])}")
    board.locator('#starter-form button[value="0"]').tap()
    expect(board.locator("#id_notation")).to_be_visible()
    board.fill("#id_notation", "8H WOORD")  # the R on K8
    board.keyboard.press("Enter")
    expect(board.locator('#scoresheet tr[data-move="1"]')).to_be_visible()

    context.set_offline(True)
    board.fill("#id_notation", "K7 KAAS")  # its A on K8, where the R is
    board.keyboard.press("Enter")
    expect(board.locator("#offline-waiting")).to_contain_text("K7 KAAS")
    back_online(context, board)
    refused = board.locator("#offline-refused")
    expect(refused).to_contain_text("Niet opgeslagen toen de verbinding terug was: K7 KAAS")
    expect(refused).to_contain_text("Op K8 ligt al een R")
    expect(refused).not_to_contain_text("intussen")  # nothing changed meanwhile
    expect(board.locator("#id_notation")).to_have_value("K7 KAAS")  # to correct
    assert Move.objects.filter(game=paired_game).count() == 1
    context.close()


def _answer_lost(page, address: str) -> list:
    """The next POST to `address` reaches the server, and its answer is lost."""
    lost: list = []

    def lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch())  # it reaches the server
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(f"**{address}", lose_the_answer)
    return lost


# The first send's answer is lost on purpose; the changed one is refused (409).
@pytest.mark.browser_errors(r"ERR_INTERNET_DISCONNECTED", r"409 .*/uitslagen/")
def test_results_changed_after_their_answer_was_lost_are_refused_in_words(
    browser: Browser, live_server, paired_game
):
    """390 – 300 is sent when the Wi-Fi is back and saved, but its answer is lost; the
    secretary, seeing it still waits, makes it 399 – 300 (the same page, so the same
    key). Not dropped as "already saved": the page says that 390 is saved and 399 not,
    and holds 399 to be saved as a correction, with a reason."""
    context = browser.new_context(locale="nl-NL")
    page = _login(context, live_server)
    round_obj = paired_game.round
    kwargs = {**round_obj.competition.url_kwargs, "number": round_obj.number}
    address = reverse("round_results", kwargs=kwargs)
    page.goto(f"{live_server.url}{address}")

    context.set_offline(True)
    page.fill("#id_form-0-score_a", "390")
    page.fill("#id_form-0-score_b", "300")
    page.keyboard.press("Enter")
    expect(page.locator("#offline-waiting")).to_contain_text("390 300")
    lost = _answer_lost(page, address)
    with page.expect_event("requestfailed"):
        back_online(context, page)
    context.set_offline(True)  # no second try of 390 until 399 is typed
    assert lost
    paired_game.refresh_from_db()
    assert tuple(paired_game.scores) == (390, 300)
    expect(page.locator("#offline-waiting")).to_contain_text("390 300")  # still waits

    page.fill("#id_form-0-score_a", "399")
    page.keyboard.press("Enter")
    expect(page.locator("#offline-waiting")).to_contain_text("399 300")
    page.unroute(f"**{address}")
    back_online(context, page)
    refused = page.locator("#offline-refused")
    expect(refused).to_contain_text("Niet opgeslagen toen de verbinding terug was: 399 300")
    expect(refused).to_contain_text("Deze uitslagen waren al opgeslagen")
    expect(refused).to_contain_text("Nu opgeslagen: 390 – 300")
    expect(page.locator("#offline-waiting")).to_have_count(0)
    expect(page.locator("#id_form-0-score_a")).to_have_value("399")  # to correct
    paired_game.refresh_from_db()
    assert tuple(paired_game.scores) == (390, 300)

    page.fill("#id_form-0-reason", "typfout")
    page.locator("#id_form-0-reason").press("Enter")
    page.wait_for_url(f"**{round_obj.get_absolute_url()}")
    paired_game.refresh_from_db()
    assert tuple(paired_game.scores) == (399, 300)
    context.close()


# The first hand-in's answer is lost on purpose: htmx logs the failed send.
@pytest.mark.browser_errors(r"ERR_INTERNET_DISCONNECTED", r"htmx:(afterRequest|sendError)")
def test_a_slip_changed_after_its_answer_was_lost_is_refused_in_words(
    browser: Browser, live_server, paired_game
):
    """The slip reaches the server, its answer is lost; the player changes it and hands it
    in again (the same form, so the same key): told that the first is in and the change
    is not, and nothing waits to be sent over that answer later."""
    club = paired_game.round.competition.club
    duplicate = DuplicateCompetition.objects.create(club=club, name="Duplicate", slug="dup")
    Participant.objects.create(
        competition=duplicate, player=Player.objects.get(user__username="secretaris")
    )
    evening = evening_create(competition=duplicate, number=1, by=None)
    turn_draw(evening=evening, tiles="KAAS?EN", by=None)
    context = browser.new_context(locale="nl-NL", **PHONE)
    slip = _login(context, live_server)
    address = reverse("duplicate_slip", args=[club.slug, "dup", 1])
    slip.goto(f"{live_server.url}{address}")
    expect(slip.locator("#slip-rack")).to_be_visible()

    lost = _answer_lost(slip, address)
    slip.fill("#id_text", "8H KAAS")
    slip.fill("#id_claimed", "14")
    slip.locator("#slip-send").click()
    expect(slip.locator("#offline-waiting")).to_contain_text("8H KAAS")
    assert lost and Slip.objects.get().text == "8H KAAS"

    slip.fill("#id_text", "8H KAASE")
    slip.fill("#id_claimed", "16")
    slip.locator("#slip-send").click()
    expect(slip.locator("#slip-refusal")).to_contain_text(
        "Je beurtbriefje was al ingeleverd zoals je het eerst verstuurde"
    )
    expect(slip.locator("#slip-sent")).to_be_visible()
    expect(slip.locator("#offline-waiting")).to_have_count(0)
    assert slip.evaluate("Object.keys(localStorage).filter(k => k.includes('waiting'))") == []
    (handed_in,) = Slip.objects.all()
    assert (handed_in.text, handed_in.score) == ("8H KAAS", 14)
    context.close()
