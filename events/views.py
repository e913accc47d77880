"""The pages of an open event: public per event and per division; the entry of a player
by themselves or by their club's secretary, and of anyone by federation number by a
director; the organiser's and directors' page.

Thin: each view reads through `events.selectors`, writes through one service of
`events.services`, and shows its refusal.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.calendars import calendar_response
from clubs.models import Club, Player
from clubs.permissions import can_manage_club, clubs_managed_by
from events import selectors, services
from events.calendars import event_calendar
from events.divisions import division_kinds, divisions_of
from events.forms import EntryByNumberForm, EntryForm, EventForm, PeopleForm
from events.models import Entry, Event
from events.permissions import directs_event, on_jury


def _refused(request, error: services.EventError):
    if error.forbidden:
        raise PermissionDenied(str(error.message))
    messages.error(request, str(error.message))


@login_required
def event_create(request, club: str):
    """A new event of the club or federation (its secretaries)."""
    organiser = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, organiser):
        raise PermissionDenied
    form = EventForm(request.POST or None, organiser=organiser)
    if request.method == "POST" and form.is_valid():
        try:
            made = services.event_create(
                organiser=organiser, settings=form.settings(), by=request.user
            )
        except services.EventError as error:
            form.add_error("slug" if error.code == "slug_taken" else None, str(error.message))
        else:
            messages.success(request, _("Event created."))
            return redirect("event_manage", club=organiser.slug, event=made.slug)
    return render(request, "events/event_form.html", {"form": form, "club": organiser})


@require_safe
def event_page(request, club: str, event: str):
    """The event for everyone: its divisions with their players and clubs."""
    found = selectors.event_get(club, event)
    entries = selectors.entries_by_player(found)
    can_direct = request.user.is_authenticated and directs_event(request.user, found)
    jury = not can_direct and on_jury(request.user, found.pk)
    return render(
        request,
        "events/event.html",
        {
            "event": found,
            "divisions": selectors.event_divisions(found, entries),
            "entry_count": len(entries),
            "entry_open": services.entry_is_open(found),
            "can_direct": can_direct,
            "in_jury_room": can_direct or jury,
        },
    )


@require_safe
def event_calendar_feed(request, club: str, event: str):
    """The event's day as a calendar feed, in the club's language (Dutch)."""
    found = selectors.event_get(club, event)
    with translation.override(settings.LANGUAGE_CODE):
        feed = event_calendar(found, base_url=request.build_absolute_uri("/")[:-1])
    return calendar_response(feed, filename=found.slug)


@require_safe
def division_page(request, club: str, event: str, competition: str):
    """One division for everyone: its players with the club they play for."""
    found = selectors.event_get(club, event)
    division = selectors.division_get(found, competition)
    entries = selectors.entries_by_player(found)
    rows = getattr(division.competition, division.kind.players).select_related("player")
    players = sorted(
        ((row.player, entries.get(row.player_id)) for row in rows),
        key=lambda pair: (pair[0].name.casefold(), pair[0].pk),
    )
    return render(
        request,
        "events/division.html",
        {
            "event": found,
            "division": division,
            "players": players,
            "can_direct": request.user.is_authenticated and directs_event(request.user, found),
        },
    )


def _persons_to_enter(user, event: Event) -> list[Player]:
    """Whom this visitor may offer to enter: themselves, and the members of the clubs
    they are secretary of (the service asks again)."""
    persons: dict[int, Player] = {}
    own = Player.objects.filter(user=user).first()
    if own is not None:
        persons[own.pk] = own
    managed = clubs_managed_by(user)
    if managed is not None:  # staff: enter themselves; anyone else through their club
        members = Player.objects.filter(
            memberships__club__in=managed.filter(is_federation=False)
        ).distinct()
        persons |= {player.pk: player for player in members.order_by("name")}
    return list(persons.values())


@login_required
def event_enter(request, club: str, event: str):
    """Enter the event: a player themselves, a club's secretary the club's members."""
    found = selectors.event_get(club, event)
    persons = _persons_to_enter(request.user, found)
    clubs = list(
        Club.objects.filter(
            is_federation=False,
            memberships__player__in=[player.pk for player in persons],
        )
        .distinct()
        .order_by("name")
    )
    divisions = divisions_of(found)
    form = EntryForm(
        request.POST or None,
        players=persons,
        clubs=clubs,
        divisions=divisions,
        guests=found.guests_allowed,
    )
    if request.method == "POST" and form.is_valid():
        player, for_club, chosen = form.entry()
        try:
            services.entry_create(
                event=found, player=player, club=for_club, divisions=chosen, by=request.user
            )
        except services.EventError as error:
            _refused(request, error)
        else:
            messages.success(request, _("%(player)s is entered.") % {"player": player.name})
            return redirect(found.get_absolute_url())
    entries = selectors.entries_by_player(found)
    return render(
        request,
        "events/enter.html",
        {
            "event": found,
            "form": form,
            "divisions": divisions,
            "entry_open": services.entry_is_open(found),
            "can_direct": directs_event(request.user, found),
            "mine": [entries[player.pk] for player in persons if player.pk in entries],
        },
    )


@require_POST
@login_required
def entry_withdraw(request, club: str, event: str, entry_id: int):
    """Take an entry back: the player, their club's secretary, the event's directors."""
    found = selectors.event_get(club, event)
    entry = get_object_or_404(Entry.objects.select_related("player"), event=found, pk=entry_id)
    try:
        services.entry_withdraw(entry=entry, by=request.user)
    except services.EventError as error:
        _refused(request, error)
    else:
        messages.success(
            request, _("The entry of %(player)s is withdrawn.") % {"player": entry.player.name}
        )
    target = "event_manage" if request.POST.get("next") == "manage" else "event_enter"
    return redirect(target, club=club, event=event)


def _directed(request, club: str, event: str) -> Event:
    found = selectors.event_get(club, event)
    if not directs_event(request.user, found):
        raise PermissionDenied
    return found


@login_required
def event_manage(request, club: str, event: str):
    """The organiser's and the directors' page: settings, directors, jury, divisions and
    every entry."""
    found = _directed(request, club, event)
    form = EventForm(request.POST or None, instance=found, organiser=found.organiser)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(event=found, settings=form.settings(), by=request.user)
        except services.EventError as error:
            form.add_error("slug" if error.code == "slug_taken" else None, str(error.message))
        else:
            messages.success(request, _("Saved."))
            return redirect("event_manage", club=club, event=form.cleaned_data["slug"])
    found.refresh_from_db()  # a refused form changed the instance's attributes
    entries = selectors.entries_by_player(found)
    return render(
        request,
        "events/manage.html",
        {
            "event": found,
            "form": form,
            "directors_form": PeopleForm(
                initial={"people": "\n".join(u.get_username() for u in found.directors.all())}
            ),
            "jury_form": PeopleForm(
                initial={"people": "\n".join(u.get_username() for u in found.jury.all())}
            ),
            "chooses_directors": can_manage_club(request.user, found.organiser),
            "divisions": selectors.event_divisions(found, entries),
            "entries": sorted(entries.values(), key=lambda e: e.player.name.casefold()),
            "kinds": list(division_kinds()),
        },
    )


@login_required
def event_enter_by_number(request, club: str, event: str):
    """A director enters any person by federation number: found, or made as typed."""
    found = _directed(request, club, event)
    divisions = divisions_of(found)
    form = EntryByNumberForm(request.POST or None, divisions=divisions)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_create_by_number(event=found, by=request.user, **form.entry())
        except services.EventError as error:
            _refused(request, error)
        else:
            messages.success(request, _("%(player)s is entered.") % {"player": entry.player.name})
            return redirect("event_enter_by_number", club=club, event=event)
    return render(
        request,
        "events/enter_by_number.html",
        {"event": found, "form": form, "divisions": divisions},
    )


def _people(request, club: str, event: str, role: str):
    found = _directed(request, club, event)
    form = PeopleForm(request.POST)
    if form.is_valid():
        try:
            services.event_set_people(
                event=found, role=role, text=form.cleaned_data["people"], by=request.user
            )
        except services.EventError as error:
            _refused(request, error)
        else:
            messages.success(request, _("Saved."))
    else:
        messages.error(request, " ".join(str(error) for error in form.errors.get("people", [])))
    return redirect("event_manage", club=club, event=event)


@require_POST
@login_required
def event_directors(request, club: str, event: str):
    return _people(request, club, event, "directors")


@require_POST
@login_required
def event_jury(request, club: str, event: str):
    return _people(request, club, event, "jury")
