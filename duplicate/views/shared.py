"""What the pages of duplicate/ share: who may see which (login first, then the
competition's managers, or its jury room's people), an evening's address, a service's
refusal as shown, and the clock's seconds left."""

from __future__ import annotations

from collections.abc import Iterable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.services import CompetitionError
from duplicate import clock, selectors
from duplicate.models import DuplicateCompetition, Evening
from events.permissions import manages_competition, on_jury


def managed_competition(request, club: str, competition: str) -> DuplicateCompetition:
    """The duplicate competition, for those who manage it only: its club's secretaries
    (and staff), and an event's directors on its divisions."""
    found = selectors.duplicate_get(club_slug=club, competition_slug=competition)
    if not manages_competition(request.user, found):
        raise PermissionDenied
    return found


def evening_url(name: str, evening: Evening) -> str:
    competition = evening.competition
    return reverse(name, args=[competition.club.slug, competition.slug, evening.number])


def leader_required(view):
    """Those who manage the competition only (a visitor not logged in goes to the login
    page first); the view receives the evening."""

    @login_required
    @wraps(view)
    def wrapper(request, club: str, competition: str, number: int):
        evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
        if not manages_competition(request.user, evening.competition):
            raise PermissionDenied
        return view(request, evening)

    return wrapper


def jury_required(view):
    """The jury room's people: the club's secretaries (and staff) and the event's
    directors, who lead the evening, and the jury of the event the competition is a
    division of. The view receives the evening and whether the user leads it (resolves
    conflicts)."""

    @login_required
    @wraps(view)
    def wrapper(request, club: str, competition: str, number: int):
        evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
        leads = manages_competition(request.user, evening.competition)
        if not leads and not on_jury(request.user, evening.competition.event_id):
            raise PermissionDenied
        return view(request, evening, leads=leads)

    return wrapper


def refusal(error: CompetitionError) -> str:
    """A refusal of a duplicate service, or of every service (an archived competition)."""
    return str(error.message)


def seconds_left(turn) -> int | None:
    """What the countdowns show of an open turn: the seconds left by the server's clock
    (`Turn.deadline`), never the device's; None for a closed turn or one without a clock."""
    if turn is None or not turn.is_open:
        return None
    return clock.seconds_left(turn.deadline, timezone.now())


def player_labels(playing: Iterable[selectors.EveningPlayer]) -> list[tuple[int, str]]:
    """Each player as the jury finds them on the paper slip, the table first: (player id,
    label). The sentence is translated once for the room, not once a player (150 lookups
    were a tenth of the jury room's CPU after each slip, benchmarks/jury.py)."""
    at_table = _("table %(table)s · %(name)s")
    return [
        (p.player_id, p.name if p.table is None else at_table % {"table": p.table, "name": p.name})
        for p in playing
    ]
