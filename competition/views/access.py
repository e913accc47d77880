"""Access to the secretary's pages: login first, then the right club."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied

from competition.selectors import competition_get
from events.permissions import manages_competition


def secretary_required(view):
    """Load the competition from the URL and allow only those who manage it: its club's
    secretaries and staff, and an event's directors on its divisions.

    Anonymous visitors go to the login page; everyone else who may not manage the club
    gets 403. The view receives the competition instead of the two slugs.
    """

    @login_required
    @wraps(view)
    def wrapper(request, club: str, competition: str, **kwargs):
        loaded = competition_get(club_slug=club, competition_slug=competition)
        if not manages_competition(request.user, loaded):
            raise PermissionDenied
        return view(request, loaded, **kwargs)

    return wrapper
