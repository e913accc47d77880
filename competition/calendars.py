"""A competition's calendar feed: its planned evenings, and the evenings its published
rounds were played on (a season imported or played without a plan).

Django: reads the rounds; the feed's shared pieces are clubs/calendars.py's.
"""

from django.utils.translation import gettext as _
from icalendar import Calendar

from clubs.calendars import calendar_add, calendar_new
from competition.models import Competition, Round


def competition_calendar(competition: Competition, *, base_url: str) -> Calendar:
    """The feed, in the active language; one query. `base_url` ("https://host") makes the
    links absolute."""
    played = Round.objects.published().filter(competition=competition, date__isnull=False)
    dates = {day for day in played.values_list("date", flat=True) if day is not None}
    days = sorted(set(competition.evenings) | dates)
    calendar = calendar_new(name=f"{competition.club.name}: {competition.name}")
    for day in days:
        calendar_add(
            calendar,
            uid=f"competition-{competition.pk}-{day.isoformat()}",
            day=day,
            start=competition.evening_start,
            end=competition.evening_end,
            summary=_("%(competition)s: club evening") % {"competition": competition.name},
            location=competition.club.city,
            url=base_url + competition.get_absolute_url(),
        )
    return calendar
