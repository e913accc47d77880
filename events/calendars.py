"""An event's calendar feed: the day it is played (a whole day: an event has a date, no
hours), or nothing while its date is not set.

Django: the feed's shared pieces are clubs/calendars.py's.
"""

from icalendar import Calendar

from clubs.calendars import calendar_add, calendar_new
from events.models import Event


def event_calendar(event: Event, *, base_url: str) -> Calendar:
    """The feed; `base_url` ("https://host") makes the link absolute."""
    calendar = calendar_new(name=f"{event.organiser.name}: {event.name}")
    if event.date is not None:
        calendar_add(
            calendar,
            uid=f"event-{event.uid}",
            day=event.date,
            start=None,
            end=None,
            summary=event.name,
            location=event.organiser.city,
            url=base_url + event.get_absolute_url(),
        )
    return calendar
