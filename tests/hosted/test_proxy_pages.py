"""The proxy's own part (issue 51, point 6), with the project's deploy/nginx in front of
two app servers (tests/hosted_stack.py), on a port other than 80 or 443:

- nginx passes the Host as the visitor sent it, port and all: a mailed link (the password
  reset's) leads back through the proxy, and a browser's POST, whose Origin names the
  port, passes Django's CSRF check;
- when no app server answers, nginx answers with the project's page in Dutch
  (deploy/fout-bezig.html), with nginx's status (502), to a page and to a save alike.
"""

from __future__ import annotations

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


def test_links_keep_the_port_and_a_dead_server_gets_the_dutch_page(stack, inbox):
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
