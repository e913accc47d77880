"""A player's own calendar feed: each game of theirs in a published round with a date, with
the opponents and the table, on the competition's evening hours.

Reached at a secret address without a login (a phone's calendar has none): the address and
its renewal are clubs/calendars.py's. A round is the competition's: read through the game's
foreign key only, as everywhere in games/.

Django: reads the games; the feed's shared pieces are clubs/calendars.py's.
"""

from django.urls import reverse
from django.utils.translation import gettext as _
from icalendar import Calendar

from clubs.calendars import calendar_add, calendar_new
from clubs.models import Player
from games.models import Game

#: The newest games a feed holds: a phone needs the coming evenings, not every season.
FEED_GAMES = 200


def player_calendar(player: Player, *, base_url: str) -> Calendar:
    """The player's feed, in the active language; three queries whatever the number of
    games. `base_url` ("https://host") makes the links absolute."""
    games = (
        Game.objects.published()
        .filter(seats__player=player, round__date__isnull=False)
        .select_related("round__competition__club")
        .with_seats()
        .order_by("-round__date", "-round__number", "-pk")[:FEED_GAMES]
    )
    calendar = calendar_new(name=_("My games: %(name)s") % {"name": player.name})
    for game in games:
        round = game.round
        competition = round.competition
        assert round.date is not None  # the query's
        opponents = ", ".join(other.name for other in game.players if other.pk != player.pk)
        summary = (
            _("%(competition)s, round %(round)s: against %(opponents)s")
            if opponents
            else _("%(competition)s, round %(round)s: bye")
        ) % {"competition": competition.name, "round": round.number, "opponents": opponents}
        calendar_add(
            calendar,
            uid=f"game-{game.pk}",
            day=round.date,
            start=competition.evening_start,
            end=competition.evening_end,
            summary=summary,
            description=_("Table %(table)s") % {"table": game.table} if game.table else "",
            location=competition.club.city,
            url=base_url + reverse("game_result", kwargs={"game_id": game.pk}),
        )
    return calendar
