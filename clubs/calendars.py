"""Calendar feeds (.ics, text/calendar) that a phone's calendar subscribes to: what every
feed shares, and the secret address of a player's own feed.

The feeds themselves are their apps' (competition/calendars.py: a competition's planned
evenings; events/calendars.py: an event; games/calendars.py: a player's own games). Times
are the club's (Europe/Amsterdam) with the time zone's VTIMEZONE block, so a phone abroad
shows them right. A UID is made of what the entry is about (a competition and a date, a
game), never of the moment of the fetch, so a phone updates an entry instead of adding it
again.

A player's address carries their id and a key: an HMAC, with the site's secret, of a random
value stored on the player (`Player.calendar_key`, renewed by `player_calendar_renew`). The
stored value alone (a backup, a club's archive) does not give the address away; a renewed
value makes the old address a 404.

Django: reads the settings (the time zone, the secret) and answers with a response.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING

from django.http import HttpResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from icalendar import Calendar, Event

if TYPE_CHECKING:
    from clubs.models import Player

#: The right-hand side of every UID: the program, not a host name (which may change).
UID_DOMAIN = "bordpunt"


def calendar_new(*, name: str) -> Calendar:
    """An empty feed named `name` (shown by the phone as the calendar's name)."""
    calendar = Calendar()
    calendar.add("prodid", "-//Bordpunt//Bordpunt//NL")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    return calendar


def evening_times(day: date, start: time, end: time) -> tuple[datetime, datetime]:
    """When an evening on `day` from `start` to `end` begins and ends, in the club's time
    zone: an end not after the start is past midnight.

    >>> begins, ends = evening_times(date(2026, 9, 14), time(19, 30), time(0, 30))
    >>> begins.isoformat(), ends.isoformat()
    ('2026-09-14T19:30:00+02:00', '2026-09-15T00:30:00+02:00')
    """
    zone = timezone.get_default_timezone()
    begins = datetime.combine(day, start, tzinfo=zone)
    ends = datetime.combine(day, end, tzinfo=zone)
    return begins, ends + timedelta(days=1) if ends <= begins else ends


def calendar_add(
    calendar: Calendar,
    *,
    uid: str,
    day: date,
    start: time | None,
    end: time | None,
    summary: str,
    description: str = "",
    location: str = "",
    url: str = "",
) -> None:
    """One entry: from `start` to `end` on `day` in the club's time zone (an end before the
    start is past midnight), or the whole day without times."""
    entry = Event()
    entry.add("uid", f"{uid}@{UID_DOMAIN}")
    entry.add("dtstamp", timezone.now())
    if start is None:
        entry.add("dtstart", day)
        entry.add("dtend", day + timedelta(days=1))
    else:
        begins, ends = evening_times(day, start, end or start)
        entry.add("dtstart", begins)
        entry.add("dtend", ends)
    entry.add("summary", summary)
    if description:
        entry.add("description", description)
    if location:
        entry.add("location", location)
    if url:
        entry.add("url", url)
    calendar.add_component(entry)


def calendar_response(calendar: Calendar, *, filename: str) -> HttpResponse:
    """The feed as `text/calendar`, with the VTIMEZONE block of every time zone it uses."""
    calendar.add_missing_timezones()
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}.ics"'
    return response


def _signature(player_id: int, key: str) -> str:
    return salted_hmac("bordpunt.calendar", f"{player_id}:{key}", algorithm="sha256").hexdigest()[
        :40
    ]


def calendar_token(player: Player) -> str:
    """The secret part of the player's feed address; empty while they have none."""
    if not player.calendar_key:
        return ""
    return f"{player.pk}-{_signature(player.pk, player.calendar_key)}"


def player_by_calendar_token(token: str) -> Player | None:
    """The player whose current address this is, or None (unknown, renewed, malformed)."""
    from clubs.models import Player

    player_id, _dash, signature = token.partition("-")
    if not player_id.isascii() or not player_id.isdigit() or len(player_id) > 18:
        return None
    player = Player.objects.filter(pk=int(player_id), erased_at=None).first()
    if player is None or not player.calendar_key:
        return None
    expected = _signature(player.pk, player.calendar_key)
    return player if constant_time_compare(signature, expected) else None
