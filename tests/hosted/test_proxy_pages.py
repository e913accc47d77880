"""What the hosted service does when a part of it fails, and the proxy's own part (issue
51, points 4 and 6), with the project's deploy/nginx in front of two app servers
(tests/hosted_stack.py), on a port other than 80 or 443:

- Redis killed: the pages, the login and a logged-in page answer through the proxy, and
  `/gezond/` says "degraded" with a 200; Redis back, "ok" (config/cache.py);
- nginx passes the Host as the visitor sent it, port and all: a mailed link (the password
  reset's) leads back through the proxy, and a browser's POST, whose Origin names the
  port, passes Django's CSRF check;
- when no app server answers, nginx answers with the project's page in Dutch
  (deploy/fout-bezig.html), with nginx's status (502), to a page and to a save alike.
"""

from __future__ import annotations

import json
import urllib.parse

import pytest
from aiosmtpd.controller import Controller

from tests.hosted_stack import CLIENT, PASSWORD, Stack
from tests.live import Device
from tests.mail import Inbox, free_port

pytestmark = pytest.mark.hosted


@pytest.fixture
def inbox():
    received = Inbox()
    controller = Controller(received, hostname="127.0.0.1", port=free_port())
    controller.start()
    received.url = f"smtp://127.0.0.1:{controller.port}"
    yield received
    controller.stop()


@pytest.fixture
def stack(stack_components, tmp_path, inbox):
    with Stack(tmp_path, servers=2, workers=1, extra_env={"EMAIL_URL": inbox.url}) as running:
        yield running


def health(stack: Stack) -> list[tuple[int, dict]]:
    """Each app server's answer to `/gezond/`."""
    replies = [Device(server.url).get("/gezond/") for server in stack.servers]
    return [(reply.status, json.loads(reply.body)) for reply in replies]


def test_redis_down_links_with_the_port_and_the_dutch_page_for_a_dead_server(stack, inbox):
    (club,) = stack.seed(clubs=1, boards=1)
    secretary = club["secretary"]
    port = stack.nginx.port
    assert port not in (80, 443)

    # A browser's login: its POST's Origin names the port.
    browser = Device(stack.proxy_url, source_address=CLIENT)
    browser.get("/accounts/login/")
    login = browser.post(
        "/accounts/login/",
        {"username": secretary, "password": PASSWORD},
        headers={"Origin": stack.proxy_url},
    )
    assert login.status == 302, login.body[-2000:]

    # Redis killed: every kind of page answers through the proxy, on both servers.
    public = [club["competition"], f"{club['competition']}ronde/1/", "/accounts/login/"]
    stack.redis.kill()
    degraded = (200, {"status": "degraded", "database": "ok", "cache": "failing"})
    assert health(stack) == [degraded, degraded]
    late = Device(stack.proxy_url, source_address=CLIENT)
    late.log_in(secretary, PASSWORD)
    for _ in range(2):  # nginx alternates between the servers
        for path in public:
            assert Device(stack.proxy_url).get(path).status == 200, path
        for device in (browser, late):
            assert device.get(f"{club['competition']}beheer/").status == 200
    stack.redis.start()
    ok = (200, {"status": "ok", "database": "ok", "cache": "ok"})
    assert health(stack) == [ok, ok]
    assert browser.get(f"{club['competition']}beheer/").status == 200

    # The password reset's mailed link: the proxy's host and port.
    visitor = Device(stack.proxy_url, source_address=CLIENT)
    visitor.get("/accounts/password_reset/")
    address = f"{secretary}@example.org"
    assert visitor.post("/accounts/password_reset/", {"email": address}).status == 302
    link = inbox.link(address, containing="/reset/")
    assert link.startswith(f"http://127.0.0.1:{port}/"), link
    followed = visitor.get(urllib.parse.urlsplit(link).path)
    assert followed.status == 302 and "set-password" in followed.location  # Django's step

    # Every app server dies: the proxy's own page, in Dutch, with its status.
    version = browser.board_version(club["games"][0])
    for server in stack.servers:
        server.kill()
    page = Device(stack.proxy_url).get(club["competition"])
    save = browser.save_move(club["games"][0], "8H WOORD", "", version=version, screen=True)
    for reply in (page, save):
        assert reply.status == 502
        assert reply.headers["Content-Type"].startswith("text/html")
        body = reply.body.decode()
        assert '<html lang="nl">' in body and "<h1>Even bezig</h1>" in body
        assert "Wat je typte blijft bewaard" in body
        assert "Bad Gateway" not in body  # nginx's own
