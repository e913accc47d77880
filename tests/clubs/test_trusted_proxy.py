"""The visitor's address behind a reverse proxy (clubs/throttle.py, `client_ip`): taken from
X-Forwarded-For only when the connection comes from a trusted proxy, so a visitor who
sends a new X-Forwarded-For with every wrong password is still counted as one address."""

from __future__ import annotations

from ipaddress import ip_network

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from clubs.models import Throttle
from clubs.throttle import client_ip
from config.settings import trusted_proxies
from tests.factories import UserFactory

PROXIES = [ip_network("10.0.0.0/24"), ip_network("fd00::/64")]


@pytest.fixture
def behind_proxies(settings):
    settings.BEHIND_PROXY = True
    settings.TRUSTED_PROXIES = PROXIES


def address(remote: str, forwarded: str | None = None) -> str:
    extra = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client_ip(RequestFactory().get("/", REMOTE_ADDR=remote, **extra))


@pytest.mark.parametrize(
    ("remote", "forwarded", "client"),
    [
        # Straight from the visitor: the header is the visitor's own invention.
        ("203.0.113.5", "198.51.100.1", "203.0.113.5"),
        ("203.0.113.5", None, "203.0.113.5"),
        # From our proxy: the address it added, the last entry.
        ("10.0.0.2", "198.51.100.7", "198.51.100.7"),
        ("10.0.0.2", "6.6.6.6, 198.51.100.7", "198.51.100.7"),
        # Two proxies of ours in a row: past both, never the visitor's own entries.
        ("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.3", "198.51.100.7"),
        ("fd00::2", "2001:db8::9", "2001:db8::9"),
        # A proxy of ours that sent no header, or one garbled past its own entry.
        ("10.0.0.2", None, "10.0.0.2"),
        ("10.0.0.2", "", "10.0.0.2"),
        ("10.0.0.2", "198.51.100.7, niet-een-adres", "10.0.0.2"),
        ("10.0.0.2", "niet-een-adres, 198.51.100.7", "198.51.100.7"),
        # Only proxies of ours: the farthest of them.
        ("10.0.0.2", "10.0.0.9", "10.0.0.9"),
    ],
)
def test_the_address_is_forwarded_only_by_a_trusted_proxy(
    behind_proxies, remote, forwarded, client
):
    assert address(remote, forwarded) == client


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    assert address("127.0.0.1", "198.51.100.7") == "127.0.0.1"


@pytest.mark.parametrize(
    ("listed", "behind_proxy", "networks"),
    [
        ("", False, []),
        ("", True, ["127.0.0.0/8", "::1/128"]),  # a proxy on this machine
        ("10.0.0.5, 10.1.0.0/16", True, ["10.0.0.5/32", "10.1.0.0/16"]),
        (" 10.0.0.5 ,,", False, ["10.0.0.5/32"]),
    ],
)
def test_the_setting(listed, behind_proxy, networks):
    assert [str(net) for net in trusted_proxies(listed, behind_proxy=behind_proxy)] == networks


def test_a_wrong_setting_stops_the_start_with_its_reason():
    with pytest.raises(RuntimeError, match=r"DJANGO_TRUSTED_PROXIES: .*10\.0\.0\.300"):
        trusted_proxies("10.0.0.300", behind_proxy=False)


@pytest.mark.django_db
def test_a_spoofed_forwarded_address_does_not_dodge_the_login_throttle(behind_proxies):
    UserFactory(username="anke")
    visitor = Client()
    statuses = [
        visitor.post(
            reverse("login"),
            {"username": "anke", "password": "fout"},
            REMOTE_ADDR="203.0.113.5",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt}",
        ).status_code
        for attempt in range(6)
    ]
    assert statuses == [200, 200, 200, 200, 429, 429]
    assert set(Throttle.objects.values_list("address", flat=True)) == {"203.0.113.5"}


@pytest.mark.django_db
def test_behind_a_trusted_proxy_each_visitor_is_counted_apart(behind_proxies):
    UserFactory(username="anke")
    for _attempt in range(5):
        Client().post(
            reverse("login"),
            {"username": "anke", "password": "fout"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR="198.51.100.1",
        )
    other = Client().post(
        reverse("login"),
        {"username": "anke", "password": "fout"},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="198.51.100.2",
    )
    assert other.status_code == 200  # another visitor behind the same proxy: no wait
    assert set(Throttle.objects.values_list("address", flat=True)) == {
        "198.51.100.1",
        "198.51.100.2",
    }
