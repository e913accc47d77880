"""An installed Bordpunt's front door, and the address the club room's phones open.

On a club's laptop (`bordpunt`, docs/installed.md) `/` is the club's own page, not the
hosted service's; while the home has no club it is the first-run setup, for the laptop
itself only (the setup's code must not reach a phone in the club's network).

The club room's page (`/zaal/`) shows the address `bordpunt run --lan` found, whatever
address the laptop opened it at: a bookmark at 127.0.0.1 must not point the phones at
themselves. Where phones cannot reach the site, there is no address but a reason.

Django: helpers of hosting/views.py.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.urls import reverse

from clubs.models import Club


def loopback(host: str) -> bool:
    """Whether a host (a name or an address, with or without its port) is this computer's
    alone.

    >>> loopback("127.0.0.1:8000"), loopback("[::1]:8000"), loopback("localhost")
    (True, True, True)
    >>> loopback("192.168.1.23:8000"), loopback("bordpunt.nl")
    (False, False)
    """
    name = split_domain_port(host)[0] or host
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def phone_address(request: HttpRequest) -> tuple[str, str]:
    """(the address phones open, "") or ("", why there is none): "no_lan" (installed, started
    without --lan), "no_network" (--lan, but the laptop is in no network) or
    "this_computer" (hosted or a developer's, opened at an address of this computer)."""
    if settings.BORDPUNT_INSTALLED:
        if not settings.LAN_URL:
            return "", "no_lan"
        if loopback(urlsplit(settings.LAN_URL).netloc):
            return "", "no_network"
        return settings.LAN_URL, ""
    if loopback(request.get_host()):
        return "", "this_computer"
    return f"{request.scheme}://{request.get_host()}/", ""


def from_this_computer(request: HttpRequest) -> bool:
    """Whether the request comes from the computer Bordpunt runs on: from a loopback
    address, or from the computer's own address in the club's network."""
    remote = request.META.get("REMOTE_ADDR", "")
    lan_host = urlsplit(settings.LAN_URL).hostname if settings.LAN_URL else None
    return loopback(remote) or (lan_host is not None and remote == lan_host)


def installed_front_door(request: HttpRequest) -> HttpResponse | None:
    """An installed Bordpunt's `/`: its club's page; the setup (on the laptop) or a word of
    what to do (elsewhere) while there is no club; None when it has several clubs (the demo),
    which the home page lists."""
    slugs = list(Club.objects.values_list("slug", flat=True)[:2])
    if len(slugs) == 1:
        return redirect("club", club=slugs[0])
    if slugs:
        return None
    if settings.FIRST_RUN_CODE and from_this_computer(request):
        return redirect(f"{reverse('first_run')}?{urlencode({'code': settings.FIRST_RUN_CODE})}")
    return render(request, "hosting/setup_waiting.html")
