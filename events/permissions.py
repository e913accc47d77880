"""Who may direct an event and its divisions, and who sits on its jury: the one home.

An event's directors may do on the event and on its divisions (the competitions that
point to it) everything a secretary of the organiser may do there, without being a
secretary of the organiser: `manages_competition` is the question every page and service
of a competition asks (`competition.views.access`, `games.policy`, the duplicate pages,
the visibility of draft rounds). The organiser's secretaries, staff and the operator
acting for the organiser direct every event of it (`clubs.permissions.can_manage_club`).

Django: reads the events' directors and jury, cached on the user object as
`can_manage_club` caches its answers (one query per event and request).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import QuerySet

from clubs.models import Club
from clubs.permissions import can_manage_club
from events.models import Event


def _is_director(user: AbstractBaseUser | AnonymousUser, event_id: int) -> bool:
    if not isinstance(user, User):  # signed out: every account is a User (AUTH_USER_MODEL)
        return False
    known: dict[int, bool] = user.__dict__.setdefault("_directed_events", {})
    if event_id not in known:
        known[event_id] = Event.directors.through.objects.filter(
            event_id=event_id, user_id=user.pk
        ).exists()
    return known[event_id]


def directs_event(user: AbstractBaseUser | AnonymousUser | None, event: Event) -> bool:
    """The event's directors, the organiser's secretaries, staff and the operator acting
    for the organiser; None (a caller acting for no one: a command, the demo seed) too."""
    if user is None:
        return True
    return can_manage_club(user, event.organiser) or _is_director(user, event.pk)


def manages_competition(user: AbstractBaseUser | AnonymousUser | None, competition: Any) -> bool:
    """May `user` manage this competition (paired or duplicate: anything with `club` and
    `event_id`)? Its club's secretaries, and when it is a division of an event, the
    event's directors. A division lives at its organiser's addresses, so its club is the
    organiser."""
    return manages_competition_of(user, club=competition.club, event_id=competition.event_id)


def manages_competition_of(
    user: AbstractBaseUser | AnonymousUser | None, *, club: Club, event_id: int | None
) -> bool:
    """`manages_competition` when only the club and the event's id are at hand."""
    if user is None:
        return True
    return can_manage_club(user, club) or (event_id is not None and _is_director(user, event_id))


def events_directed_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Event]:
    """The events `user` is a director of, as a queryset to filter by (the visibility of
    draft rounds: `Round.objects.visible_to`, `Game.objects.visible_to`)."""
    if not isinstance(user, User):
        return Event.objects.none()
    return Event.objects.filter(directors=user)


def on_jury(user: AbstractBaseUser | AnonymousUser | None, event_id: int | None) -> bool:
    """Whether `user` is one of the event's jury members (who type its paper slips)."""
    if event_id is None or not isinstance(user, User):
        return False
    known: dict[int, bool] = user.__dict__.setdefault("_jury_events", {})
    if event_id not in known:
        known[event_id] = Event.jury.through.objects.filter(
            event_id=event_id, user_id=user.pk
        ).exists()
    return known[event_id]
