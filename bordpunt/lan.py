"""`bordpunt run --lan`: the laptop's address in the club's network, and the settings that
let players' phones reach the site at that address (docs/installed.md).

No internet is needed: connecting a UDP socket sends nothing, it only asks the system which
of its addresses would be used for that network, which is the one the Wi-Fi gave it.
"""

from __future__ import annotations

import socket

#: An address in a private range, never contacted: only the route to it is looked up.
PROBE = ("10.255.255.255", 1)
FALLBACK = "127.0.0.1"


def lan_address(probe: tuple[str, int] = PROBE) -> str:
    """The laptop's IPv4 address in the local network; 127.0.0.1 without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_socket:
        try:
            probe_socket.connect(probe)
            address: str = probe_socket.getsockname()[0]
        except OSError:
            return FALLBACK
    return address if address != "0.0.0.0" else FALLBACK


def lan_url(address: str, port: int) -> str:
    """The address the phones open."""
    return f"http://{address}:{port}/"


def lan_environment(address: str, port: int) -> dict[str, str]:
    """The environment config/settings.py reads: the LAN address as an allowed host and a
    trusted origin for forms, beside the laptop's own names; the address the club room's page
    shows the phones, at whichever address it is opened on the laptop."""
    return {
        "DJANGO_ALLOWED_HOSTS": ",".join(
            dict.fromkeys([address, "127.0.0.1", "localhost", "[::1]"])
        ),
        "DJANGO_CSRF_TRUSTED_ORIGINS": f"http://{address}:{port}",
        "BORDPUNT_LAN_URL": lan_url(address, port),
    }
