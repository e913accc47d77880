"""An evening on the hosted service, as an operator runs it (issue 41, points 6 and 7):
nginx with the project's deploy/nginx configuration in front of two app servers
(`python -m config.serve`, debug off) that share one fresh PostgreSQL database and one
Redis, every one a real process the test starts (tests/hosted_stack.py). The devices
connect to nginx from an address of their own, as visitors do.

Shown: the two servers came up at the same moment with the migrations applied once; the
evening's boards are entered through the proxy, which spreads the saves over both
servers; a save through one server is seen through the other at once (the board, and a
public page that does not answer 304 with its old ETag); a session made on one works on
the other, and a logout on one ends it on both; failed logins count across both servers,
under the visitor's address as nginx forwards it (a forged X-Forwarded-For changes
nothing); the servers believe nginx's request start (X-Request-Start), a visitor's own
neither through nginx nor straight; nginx serves the static files itself and refuses a
body over its limit.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.hosted_stack import CLIENT, PASSWORD, Stack
from tests.live import Device, at_once, demo_scoresheets

pytestmark = pytest.mark.hosted

UPSTREAM = "X-Bordpunt-Upstream"
WAIT = "Te veel mislukte pogingen"


@pytest.fixture
def stack(stack_components, tmp_path):
    with Stack(tmp_path, servers=2, workers=1) as running:
        yield running


def logged_in(device: Device, page: str) -> bool:
    """Whether `device` may open the secretary's `page` (not sent to the login)."""
    reply = device.get(page)
    assert reply.status in (200, 302), reply.status
    return reply.status == 200


def test_an_evening_through_the_proxy_on_two_servers(stack):
    a, b = stack.servers
    # Started together on a fresh database: one migrated, the other waited for it.
    logs = [server.log.read_text() for server in stack.servers]
    assert sum("Applying " in log for log in logs) == 1, stack.logs()
    assert not stack.database.query(
        "SELECT app, name FROM django_migrations GROUP BY app, name HAVING count(*) > 1"
    )

    (club,) = stack.seed(clubs=1, boards=2)
    secretary, competition = club["secretary"], club["competition"]
    manage = f"{competition}beheer/"
    sheets = {sheet.name: sheet for sheet in demo_scoresheets()}

    # A session made on A works on B; a logout on B ends it on A.
    on_a = Device(a.url, source_address=CLIENT)
    on_a.log_in(secretary, PASSWORD)
    on_b = Device(b.url, cookies=dict(on_a.cookies), source_address=CLIENT)
    assert logged_in(on_b, manage)
    assert not logged_in(Device(b.url), manage)
    assert on_b.post("/accounts/logout/", {}).status == 302
    assert not logged_in(on_a, manage)

    # A save through A is seen through B at once: the board and the public round page.
    first_game, second_game = club["games"]
    sheet = sheets[club["sheets"][0]]
    on_a = Device(a.url, source_address=CLIENT)
    on_a.log_in(secretary, PASSWORD)
    round_page = f"{competition}ronde/1/"
    spectator = Device(b.url)
    spectator.get(round_page)  # a first visit: the CSRF cookie, no ETag yet
    before = spectator.get(round_page)
    unchanged = {"If-None-Match": before.headers["ETag"]}
    assert spectator.request("GET", round_page, headers=unchanged).status == 304
    version = on_a.board_version(first_game)
    notation, rack = sheet.moves[0]
    saved = on_a.save_move(first_game, notation, rack, version=version, screen=True)
    assert saved.saved and saved.version == version + 1
    assert Device(b.url, cookies=dict(on_a.cookies)).board_version(first_game) == version + 1
    again = spectator.request("GET", round_page, headers=unchanged)
    assert again.status == 200 and again.headers["ETag"] != before.headers["ETag"]

    # The evening: a device per board through the proxy, both at once, to the end.
    devices = [Device(stack.proxy_url, source_address=CLIENT) for _ in club["games"]]
    for device in devices:
        device.log_in(secretary, PASSWORD)
    first_rest = [(notation, rack) for notation, rack in sheet.moves[1:]]
    finished = at_once(
        [
            lambda: _enter(devices[0], first_game, first_rest),
            lambda: devices[1].enter_game(second_game, sheets[club["sheets"][1]]),
        ],
        timeout=120,
    )
    replies = [reply for game_replies in finished for reply in game_replies]
    assert replies and all(reply.saved for reply in replies), [r.status for r in replies]
    assert {reply.headers.get(UPSTREAM) for reply in replies} == {
        f"127.0.0.1:{a.port}",
        f"127.0.0.1:{b.port}",
    }
    # Both games are over: their final scores are on the standings, through either server.
    for server in (a, b):
        standings = Device(server.url).get(competition).body.decode()
        for name in club["sheets"]:
            for score in sheets[name].final_scores:
                assert re.search(rf">\s*{score}\s*<", standings), (server.url, score)

    # Failed logins count across both servers, under the address nginx forwards; a
    # forged X-Forwarded-For is only the visitor's own entry, left of nginx's.
    guesser = Device(stack.proxy_url, source_address=CLIENT)
    guesser.get("/accounts/login/")
    statuses, upstreams = [], set()
    for attempt in range(5):
        reply = guesser.post(
            "/accounts/login/",
            {"username": secretary, "password": "fout"},
            headers={"X-Forwarded-For": f"198.51.100.{attempt}"},
        )
        statuses.append(reply.status)
        upstreams.add(reply.headers.get(UPSTREAM))
    assert statuses == [200, 200, 200, 200, 429]
    assert len(upstreams) == 2  # both servers counted some of them
    assert WAIT in reply.body.decode()
    addresses = {row[0] for row in stack.database.query("SELECT address FROM clubs_throttle")}
    assert addresses == {CLIENT}
    # The right password waits too, on either server, while another visitor logs in.
    for server in (a, b):
        direct = Device(server.url, source_address=CLIENT)
        direct.get("/accounts/login/")
        assert (
            direct.post("/accounts/login/", {"username": secretary, "password": PASSWORD}).status
            == 429
        )
    Device(stack.proxy_url, source_address="127.0.0.4").log_in(secretary, PASSWORD)

    # nginx names when a request reached it (X-Request-Start, replacing a visitor's own),
    # which the servers believe from nginx only: their answer says how long it queued.
    forged = {"X-Request-Start": f"t={time.time() - 50:.3f}"}
    queued = Device(stack.proxy_url, source_address=CLIENT).request(
        "GET", "/gezond/", headers=forged
    )
    queue_ms = float(queued.headers["Server-Timing"].removeprefix("queue;dur="))
    assert 0 <= queue_ms < 10_000, queue_ms
    direct = Device(a.url, source_address=CLIENT).request("GET", "/gezond/", headers=forged)
    assert direct.status == 200 and "Server-Timing" not in direct.headers

    # nginx serves the static files itself and refuses a body over its limit.
    page = Device(stack.proxy_url).get("/accounts/login/").body.decode()
    stylesheet = re.search(r'href="(/static/[^"]+\.css)"', page)[1]
    static = Device(stack.proxy_url).get(stylesheet)
    assert static.status == 200 and UPSTREAM not in static.headers
    assert "immutable" in static.headers["Cache-Control"]
    too_big = Device(stack.proxy_url).post("/accounts/login/", {"x": "a" * (4 * 1024 * 1024)})
    assert too_big.status == 413


def _enter(device: Device, game_id: int, moves: list[tuple[str, str]]):
    """The rest of a game, from the board as it is (its first move is already saved)."""
    replies = []
    version = device.board_version(game_id)
    for notation, rack in moves:
        reply = device.save_move(game_id, notation, rack, version=version, screen=True)
        replies.append(reply)
        if reply.version is None:
            break
        version = reply.version
    return replies
