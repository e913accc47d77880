"""`bordpunt run --lan` (bordpunt/lan.py, bordpunt/cli.py): the laptop's address in the
club's network, found without internet, and the settings that let phones use it."""

import ipaddress
import os

import pytest

from bordpunt.cli import lan, parser
from bordpunt.lan import FALLBACK, lan_address, lan_environment, lan_url


def settings_from(environment: dict[str, str], name: str) -> list[str]:
    """A comma-separated setting read as config/settings.py reads it."""
    return [part.strip() for part in environment[name].split(",") if part.strip()]


def test_the_lan_address_is_this_computers_ipv4_address():
    address = ipaddress.ip_address(lan_address())
    assert address.version == 4
    assert not address.is_unspecified


def test_without_a_route_the_lan_address_falls_back_to_this_computer():
    # An IPv6 address cannot be reached by an IPv4 socket: as without any network.
    assert lan_address(("::1", 1)) == FALLBACK == "127.0.0.1"


def test_the_lan_settings_allow_the_address_and_trust_its_forms():
    environment = lan_environment("192.168.1.23", 8000)
    assert settings_from(environment, "DJANGO_ALLOWED_HOSTS") == [
        "192.168.1.23",
        "127.0.0.1",
        "localhost",
        "[::1]",
    ]
    assert settings_from(environment, "DJANGO_CSRF_TRUSTED_ORIGINS") == ["http://192.168.1.23:8000"]
    assert lan_url("192.168.1.23", 8000) == "http://192.168.1.23:8000/"


def test_without_a_network_the_hosts_are_named_once():
    environment = lan_environment("127.0.0.1", 8000)
    assert settings_from(environment, "DJANGO_ALLOWED_HOSTS") == ["127.0.0.1", "localhost", "[::1]"]


@pytest.mark.parametrize("command", ["run", "demo"])
def test_run_and_demo_take_lan(command):
    assert parser().parse_args([command, "--lan"]).lan is True
    assert parser().parse_args([command]).lan is False


def test_lan_sets_the_environment_and_prints_the_address_with_its_qr_code(capsys, monkeypatch):
    # monkeypatch keeps the environment of the other tests as it was.
    for name in ("DJANGO_ALLOWED_HOSTS", "DJANGO_CSRF_TRUSTED_ORIGINS", "BORDPUNT_LAN_URL"):
        monkeypatch.delenv(name, raising=False)
    address = lan(8123)
    assert address == lan_address()
    assert os.environ["DJANGO_ALLOWED_HOSTS"].split(",")[0] == address
    assert os.environ["DJANGO_CSRF_TRUSTED_ORIGINS"] == f"http://{address}:8123"
    assert os.environ["BORDPUNT_LAN_URL"] == f"http://{address}:8123/"
    printed = capsys.readouterr().out
    assert f"http://{address}:8123/" in printed
    assert "█" in printed or "▀" in printed  # the code, in block characters
