"""The calendar feeds (clubs/calendars.py and the feeds of competition/, events/, games/),
each read back with icalendar: the entries, their times in Europe/Amsterdam with the
VTIMEZONE block, UIDs the same on a second fetch; bad addresses a 404, a competition or
event without dates an empty calendar."""

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from icalendar import Calendar

from clubs.calendars import calendar_token
from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Player
from competition.forms import EveningDatesField
from competition.selectors import next_evening
from competition.services.competitions import competition_update
from events.models import Event
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    secretary_of,
    user_in_club,
)

pytestmark = pytest.mark.django_db

AMSTERDAM = ZoneInfo("Europe/Amsterdam")


def read(response) -> Calendar:
    """The feed parsed back, after the checks every feed must pass."""
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    return calendar


def entries(calendar: Calendar) -> list:
    return list(calendar.walk("VEVENT"))


def assert_amsterdam(calendar: Calendar) -> None:
    """Every timed entry in Europe/Amsterdam, by TZID, and the zone's own block present."""
    assert [zone["TZID"] for zone in calendar.walk("VTIMEZONE")] == ["Europe/Amsterdam"]
    for entry in entries(calendar):
        assert entry["DTSTART"].params["TZID"] == "Europe/Amsterdam"
        assert entry["DTEND"].params["TZID"] == "Europe/Amsterdam"


def test_a_competitions_planned_evenings_and_played_rounds(client, django_assert_num_queries):
    competition = CompetitionFactory(name="Wintercompetitie", club__city="Gouda")
    secretary = secretary_of(competition.club)
    # Set once by the secretary, as the settings form posts them: a history entry.
    competition_update(
        competition=competition,
        settings={"evening_dates": ["2026-09-14", "2026-09-21"], "evening_start": time(19, 45)},
        by=secretary,
    )
    RoundFactory(competition=competition, date=date(2026, 9, 14))  # on a planned evening
    RoundFactory(competition=competition, date=date(2026, 9, 7))  # played, never planned
    RoundFactory(competition=competition, date=date(2026, 8, 31), status="draft")  # not public
    url = reverse("competition_calendar", kwargs=competition.url_kwargs)

    # The club (its status, by the middleware), the competition, the rounds' dates.
    with django_assert_num_queries(3):
        first = read(client.get(url))
    second = read(client.get(url))

    assert_amsterdam(first)
    starts = [entry.decoded("DTSTART") for entry in entries(first)]
    assert starts == [
        datetime(2026, 9, 7, 19, 45, tzinfo=AMSTERDAM),
        datetime(2026, 9, 14, 19, 45, tzinfo=AMSTERDAM),
        datetime(2026, 9, 21, 19, 45, tzinfo=AMSTERDAM),
    ]
    # 19:45 in Amsterdam in September is summer time: 17:45 UTC.
    assert starts[0].utcoffset().total_seconds() == 2 * 3600
    assert entries(first)[0].decoded("DTEND") == datetime(2026, 9, 7, 23, 0, tzinfo=AMSTERDAM)
    assert str(entries(first)[0]["SUMMARY"]) == "Wintercompetitie: clubavond"  # the club's Dutch
    assert str(entries(first)[0]["LOCATION"]) == "Gouda"
    uids = [str(entry["UID"]) for entry in entries(first)]
    assert uids == [str(entry["UID"]) for entry in entries(second)]
    assert len(set(uids)) == 3
    entry = HistoryEntry.objects.get(action=HistoryAction.COMPETITION_SETTINGS)
    assert entry.before == {"evening_dates": [], "evening_start": "19:30:00"}
    assert entry.after == {
        "evening_dates": ["2026-09-14", "2026-09-21"],
        "evening_start": "19:45:00",
    }
    # The planned evenings on the competition's page, with the feed's link.
    page = client.get(competition.get_absolute_url()).content.decode()
    assert "21 september 2026" in page and f'href="{url}"' in page


def test_a_competition_without_dates_is_an_empty_calendar_and_an_unknown_one_404(client):
    competition = CompetitionFactory()
    calendar = read(client.get(reverse("competition_calendar", kwargs=competition.url_kwargs)))
    assert entries(calendar) == []
    unknown = {"club": competition.club.slug, "competition": "geen"}
    assert client.get(reverse("competition_calendar", kwargs=unknown)).status_code == 404


def test_the_next_round_is_offered_on_the_next_free_planned_evening():
    competition = CompetitionFactory(evening_dates=["2026-09-14", "2026-09-21", "2026-09-28"])
    RoundFactory(competition=competition, date=date(2026, 9, 21))
    assert next_evening(competition, today=date(2026, 9, 15)) == date(2026, 9, 28)
    assert next_evening(competition, today=date(2026, 10, 1)) == date(2026, 10, 1)  # none left


def test_the_planned_evenings_are_typed_as_dutch_or_iso_dates():
    field = EveningDatesField(required=False)
    typed = "21-09-2026, 2026-09-14\n2026-09-21"
    assert field.clean(typed) == ["2026-09-14", "2026-09-21"]
    for bad in ["31-02-2026", "2026/09/14", "maandag", "1-1-20266"]:
        with pytest.raises(ValidationError, match="is geen datum"):
            field.clean(bad)


def test_an_events_day_and_an_event_without_a_date(client):
    competition = CompetitionFactory()
    event = Event.objects.create(
        organiser=competition.club, name="Open Gouda", slug="open", date=date(2026, 11, 7)
    )
    url = reverse("event_calendar", kwargs={"club": event.organiser.slug, "event": event.slug})
    (entry,) = entries(read(client.get(url)))
    assert entry.decoded("DTSTART") == date(2026, 11, 7)  # a whole day: no time, no zone
    assert str(entry["UID"]) == str(entries(read(client.get(url)))[0]["UID"])
    assert f'href="{url}"' in client.get(event.get_absolute_url()).content.decode()
    Event.objects.filter(pk=event.pk).update(date=None)
    assert entries(read(client.get(url))) == []


def test_a_players_own_games_at_a_renewable_secret_address(client):
    competition = CompetitionFactory(name="Zomer")
    user = user_in_club(competition.club)
    anna = Player.objects.get(user=user)
    bert = PlayerFactory(name="Bert")
    round = RoundFactory(competition=competition, date=date(2026, 1, 12))  # winter time
    game = GameFactory(round=round, player_a=anna, player_b=bert, table=4)
    GameFactory(round=RoundFactory(competition=competition, status="draft", date=date(2026, 1, 19)))
    GameFactory(round=round, table=5)  # someone else's
    client.force_login(user)
    assert 'id="my-calendar-url"' not in client.get(reverse("my_games")).content.decode()

    client.post(reverse("player_calendar_renew"))
    anna.refresh_from_db()
    old = reverse("player_calendar", kwargs={"token": calendar_token(anna)})
    assert old in client.get(reverse("my_games")).content.decode()
    client.logout()  # a phone's calendar has no login
    first, second = read(client.get(old)), read(client.get(old))

    assert_amsterdam(first)
    (entry,) = entries(first)
    assert entry.decoded("DTSTART") == datetime(2026, 1, 12, 19, 30, tzinfo=AMSTERDAM)
    assert entry.decoded("DTSTART").utcoffset().total_seconds() == 3600
    assert str(entry["SUMMARY"]) == "Zomer, ronde 1: tegen Bert"
    assert str(entry["DESCRIPTION"]) == "Tafel 4"
    assert str(entry["UID"]) == str(entries(second)[0]["UID"]) == f"game-{game.pk}@bordpunt"
    english = reverse("player_calendar_en", kwargs={"token": calendar_token(anna)})
    (entry,) = entries(read(client.get(english)))
    assert str(entry["SUMMARY"]) == "Zomer, round 1: against Bert"

    client.force_login(user)
    client.post(reverse("player_calendar_renew"))
    anna.refresh_from_db()
    assert client.get(old).status_code == 404
    assert client.get(english).status_code == 404
    assert (
        client.get(reverse("player_calendar", kwargs={"token": calendar_token(anna)})).status_code
        == 200
    )
    renewals = HistoryEntry.objects.filter(action=HistoryAction.PLAYER_CALENDAR)
    assert [entry.after for entry in renewals] == [{"calendar_feed": True}] * 2
    assert anna.calendar_key not in str([(entry.before, entry.after) for entry in renewals])


@pytest.mark.parametrize(
    "token", ["x", "1-", "99999-abc", "0-0", "-1-abc", "١-abc", "1" * 30 + "-abc", "a.b"]
)
def test_an_unknown_or_malformed_address_is_a_404(client, token):
    player = PlayerFactory(calendar_key="0" * 32)
    assert calendar_token(player)  # a player with an address: a guess still misses it
    assert client.get(reverse("player_calendar", kwargs={"token": token})).status_code == 404
