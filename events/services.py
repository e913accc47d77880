"""Making and changing an open event, its directors and jury, the entries of persons, and
a federation's seasons.

Each write runs in `transaction.atomic`, checks who may make it, and leaves an entry in
the organiser's history (and, for an entry, in the history of the club it is for).
Refusals are one `EventError` with a translated message; nothing is half done. An entry
and its places in the divisions are made and taken back together: the divisions' apps do
their part through the kinds they registered (`events.divisions`). A season's settings are
its federation's officials' (the ranking's pages); what follows from a change (the ranked
games scored again with another GV; an event's games published again under its new season,
date or kind) the ranking does on `events.signals.season_changed` and `event_changed`, in
the same transaction.

Django: services over the events' models.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock, row_lock
from clubs.models import Club, Membership, Player
from clubs.names import NUMBER_CLAIMED, name_key
from clubs.permissions import can_manage_club
from events.divisions import Division, division_kinds
from events.models import Entry, Event, Season
from events.permissions import directs_event
from events.signals import entry_made, event_changed, season_changed


class EventError(Exception):
    """A write to an event that cannot be done: `message` says why, in the reader's
    language; `forbidden` when the person may not do it at all (a 403 on a page)."""

    def __init__(self, message: Any, *, code: str = "", forbidden: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.forbidden = forbidden


NOT_ALLOWED = _("Only the organiser's secretaries and the event's directors may do this.")

#: What the organiser sets of an event; the history records each of them that changes.
SETTINGS_FIELDS = (
    "name",
    "slug",
    "kind",
    "date",
    "season",
    "entry_by_players",
    "entry_by_clubs",
    "guests_allowed",
    "entry_closes_at",
)


def event_settings(event: Event) -> dict[str, Any]:
    """The settings as JSON values, as the history stores them: the season by its name,
    the kind as `event_kind` (a competition's `kind` holds other codes)."""
    values: dict[str, Any] = {name: getattr(event, name) for name in SETTINGS_FIELDS}
    values["season"] = event.season.name if event.season is not None else None
    values["event_kind"] = values.pop("kind")
    return {
        name: value.isoformat() if isinstance(value, date | datetime) else value
        for name, value in values.items()
    }


def _record(event: Event, *, by: Any, action: str, club_id: int | None = None, **change: Any):
    history_record(
        club_id=club_id or event.organiser_id,
        by=by,
        action=action,
        object_type="event",
        object_id=event.pk,
        label=event.name,
        **change,
    )


def _locked(organiser_id: int, event_id: int) -> Event:
    """The event, locked for a write: the organiser's lock first, as every write that
    looks before it writes takes it (clubs/locks.py), then the event's row."""
    club_lock(organiser_id)
    return row_lock(Event.objects.select_related("organiser")).get(pk=event_id)


def _check_organiser(organiser: Club, by: Any) -> None:
    if by is not None and not can_manage_club(by, organiser):
        raise EventError(
            _("Only the organiser's secretaries may make or change its events."),
            code="not_allowed",
            forbidden=True,
        )


def _apply(event: Event, settings: Mapping[str, Any]) -> None:
    unknown = set(settings) - set(SETTINGS_FIELDS)
    if unknown:
        raise ValueError(f"Not an event setting: {', '.join(sorted(unknown))}")
    for name, value in settings.items():
        setattr(event, name, value)
    event.name = " ".join(str(event.name).split())


def _save(event: Event) -> None:
    """Checked and saved under the organiser's lock: a short name taken is refused."""
    season: Season | None = event.season
    if season is not None and season.federation_id != event.organiser_id:
        # A club's results reach a federation's ranking by its results file (ranking/).
        raise EventError(
            _("Only the federation's own events count for its seasons."), code="season"
        )
    club_lock(event.organiser_id)
    if Event.objects.filter(organiser_id=event.organiser_id, slug=event.slug).exclude(pk=event.pk):
        raise EventError(
            _("The organiser already has an event with this short name."), code="slug_taken"
        )
    try:
        event.full_clean(exclude=["organiser"], validate_constraints=False)
    except ValidationError as error:
        raise EventError(" ".join(error.messages), code="invalid") from None
    event.save()


@transaction.atomic
def event_create(*, organiser: Club, settings: Mapping[str, Any], by: Any) -> Event:
    """A new event of `organiser` (a club or a federation), made by its secretary."""
    _check_organiser(organiser, by)
    event = Event(organiser=organiser)
    _apply(event, settings)
    _save(event)
    _record(event, by=by, action=HistoryAction.EVENT_CREATE, after=event_settings(event))
    return event


@transaction.atomic
def event_update(*, event: Event, settings: Mapping[str, Any], by: Any) -> Event:
    """Change the settings given (others stay): the organiser's secretaries and the
    event's directors. Nothing changed writes nothing."""
    current = _locked(event.organiser_id, event.pk)
    if not directs_event(by, current):
        raise EventError(NOT_ALLOWED, code="not_allowed", forbidden=True)
    before = event_settings(current)
    _apply(current, settings)
    after = event_settings(current)
    changed = [name for name in before if before[name] != after[name]]
    if changed:
        _save(current)
        _record(
            current,
            by=by,
            action=HistoryAction.EVENT_SETTINGS,
            before={name: before[name] for name in changed},
            after={name: after[name] for name in changed},
        )
        # What follows from the change (the ranking's placements) in the same transaction.
        event_changed.send(sender=Event, event=current, changed=changed)
    return current


# -------------------------------------------------------------------- directors and jury

#: Directors and jury members are given by username or e-mail address, one per line
#: (commas and semicolons separate too).
_SEPARATORS = re.compile(r"[\s,;]+")
#: No event needs more; a longer list is a paste gone wrong.
MAX_PEOPLE = 50


def accounts_named(text: str) -> list[Any]:
    """The accounts named in `text` (username or e-mail address, case ignored), in the
    order given, each once. Every name must fit exactly one account: otherwise an
    `EventError` names the ones that do not."""
    names = [name for name in _SEPARATORS.split(text.strip()) if name]
    if len(names) > MAX_PEOPLE:
        raise EventError(
            _("Give at most %(count)s accounts.") % {"count": MAX_PEOPLE}, code="too_many"
        )
    user_model = get_user_model()
    found: list[Any] = []
    unknown: list[str] = []
    for name in dict.fromkeys(name.casefold() for name in names):
        matches = list(
            user_model._default_manager.filter(
                Q(username__iexact=name) | Q(email__iexact=name), is_active=True
            )[:2]
        )
        if len(matches) == 1:
            if matches[0] not in found:
                found.append(matches[0])
        else:
            unknown.append(name)
    if unknown:
        raise EventError(
            _("No single account has this username or e-mail address: %(names)s.")
            % {"names": ", ".join(unknown)[:300]},
            code="unknown_account",
        )
    return found


@transaction.atomic
def event_set_people(*, event: Event, role: str, text: str, by: Any) -> Event:
    """Set the event's directors (`role` "directors": the organiser's secretaries decide)
    or its jury ("jury": the directors too) from a list of usernames or e-mail addresses;
    the list replaces the one before."""
    if role not in ("directors", "jury"):
        raise ValueError(f"Not a role of an event: {role}")
    current = _locked(event.organiser_id, event.pk)
    allowed = (
        by is None or can_manage_club(by, current.organiser)
        if role == "directors"
        else directs_event(by, current)
    )
    if not allowed:
        raise EventError(
            _("Only the organiser's secretaries may choose the event's directors.")
            if role == "directors"
            else NOT_ALLOWED,
            code="not_allowed",
            forbidden=True,
        )
    accounts = accounts_named(text)
    relation = getattr(current, role)
    before = sorted(relation.values_list("username", flat=True))
    after = sorted(account.get_username() for account in accounts)
    if before != after:
        relation.set(accounts)
        _record(
            current,
            by=by,
            action=HistoryAction.EVENT_DIRECTORS
            if role == "directors"
            else HistoryAction.EVENT_JURY,
            before={role: before},
            after={role: after},
        )
        current.save(update_fields=["changed_at"])
    return current


# -------------------------------------------------------------------- entries


def entry_is_open(event: Event, now: datetime | None = None) -> bool:
    """Entries are taken until `entry_closes_at` (always, when it is empty)."""
    closes = event.entry_closes_at
    return closes is None or (now or timezone.now()) < closes


def player_clubs(player: Player) -> list[Club]:
    """The clubs (not federations) a person may play an event for: those they are a
    member of."""
    return list(
        Club.objects.filter(memberships__player=player, is_federation=False)
        .distinct()
        .order_by("name")
    )


def _entry_refusal(
    event: Event, player: Player, club: Club | None, by: Any, now: datetime
) -> EventError | None:
    """Why `by` may not enter `player` in `event` for `club` (None: as a guest), or None.

    The event's directors (and the organiser's secretaries) enter anyone at any time;
    a player enters themselves, and a club's secretary the club's members, while
    entries are open and the event takes entries that way."""
    if club is not None and not Membership.objects.filter(club=club, player=player).exists():
        return EventError(
            _("%(player)s is not a member of %(club)s.") % {"player": player, "club": club},
            code="not_a_member",
        )
    if directs_event(by, event):
        return None
    own = by is not None and player.user_id is not None and player.user_id == by.pk
    secretary = club is not None and can_manage_club(by, club)
    if not own and not secretary:
        return EventError(
            _("Players enter themselves, and a club's secretary enters the club's members."),
            code="not_allowed",
            forbidden=True,
        )
    if not entry_is_open(event, now):
        return EventError(_("Entries for this event are closed."), code="closed")
    if own and not secretary and not event.entry_by_players:
        return EventError(
            _("Players do not enter this event themselves: ask your club's secretary."),
            code="not_by_players",
        )
    if secretary and not own and not event.entry_by_clubs:
        return EventError(
            _("Clubs do not enter their members in this event: the players enter themselves."),
            code="not_by_clubs",
        )
    if club is None and not event.guests_allowed:
        return EventError(
            _("This event takes no guests: enter for a club you are a member of."),
            code="no_guests",
        )
    return None


def _divisions_checked(event: Event, divisions: Sequence[Division]) -> list[Division]:
    if not divisions:
        raise EventError(_("Choose the division to play in."), code="no_division")
    chosen = list({division.key: division for division in divisions}.values())
    for division in chosen:
        if division.competition.event_id != event.pk:
            raise EventError(_("That division belongs to another event."), code="other_event")
    return chosen


def _enter(
    event: Event,
    *,
    player: Player,
    club: Club | None,
    divisions: list[Division],
    by: Any,
    club_name: str = "",
    by_number: bool = False,
    person_made: bool = False,
) -> Entry:
    """The entry and its places in the divisions, under the event's lock: the same person
    twice is refused, whichever club they would play for."""
    earlier = Entry.objects.filter(event=event, player=player).select_related("club").first()
    if earlier is not None:
        raise _entered_already(player, earlier)
    entry = Entry(
        event=event,
        player=player,
        club=club,
        club_name=club_name,
        person_made=person_made,
        entered_by=_account(by),
    )
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:  # entered at the same moment by another click
        raise _entered_already(player, None) from None
    for division in divisions:
        division.kind.enter(division=division.competition, player=player, by=by)
    summary: dict[str, Any] = {
        "player": player.name,
        "club": entry.club_shown or None,
        "divisions": [division.name for division in divisions],
    }
    if by_number:
        summary["federation_number"] = player.federation_number
    if person_made:
        summary["person_made"] = True
    _record(event, by=by, action=HistoryAction.EVENT_ENTRY, after=summary)
    if club is not None and club.pk != event.organiser_id:
        _record(event, by=by, action=HistoryAction.EVENT_ENTRY, club_id=club.pk, after=summary)
    event.save(update_fields=["changed_at"])
    entry_made.send(sender=Entry, entry_id=entry.pk)
    return entry


@transaction.atomic
def entry_create(
    *,
    event: Event,
    player: Player,
    club: Club | None,
    divisions: Sequence[Division],
    by: Any,
    now: datetime | None = None,
) -> Entry:
    """Enter `player` in `event` for `club` (None: as a guest) and in each of
    `divisions`: all of it or nothing. The same person twice in an event is refused,
    whichever club they would play for."""
    now = now or timezone.now()
    current = _locked(event.organiser_id, event.pk)
    if refusal := _entry_refusal(current, player, club, by, now):
        raise refusal
    chosen = _divisions_checked(current, divisions)
    return _enter(current, player=player, club=club, divisions=chosen, by=by)


#: A federation's code (`Club.federation_code`'s kind: "NTSV", "VLAS", "FISF").
_FEDERATION_CODE = re.compile(r"[A-Z]{2,10}")
#: A federation number as federations print them: letters and digits, perhaps parted by
#: a hyphen, dot or slash ("1234", "NL-0042").
_NUMBER = re.compile(r"[0-9A-Za-z]+(?:[-./][0-9A-Za-z]+)*")
_NUMBER_LENGTH = 20  # clubs.Player.federation_number


def federation_number_kept(number: str, federation: str = "") -> str:
    """The number as a person's record keeps it: this Bordpunt's own numbers as typed, a
    number of another federation behind its code ("VLAS-1234"), so that a guest's number
    is never one of ours. Raises `EventError` for what no federation prints.

    >>> federation_number_kept(" 1234 "), federation_number_kept("1234", "vlas")
    ('1234', 'VLAS-1234')
    """
    number = number.strip()
    code = federation.strip().upper()
    if code and not _FEDERATION_CODE.fullmatch(code):
        raise EventError(
            _("A federation's code is 2 to 10 letters, such as VLAS."), code="federation_code"
        )
    kept = f"{code}-{number}" if code else number
    if not _NUMBER.fullmatch(number) or len(kept) > _NUMBER_LENGTH:
        raise EventError(
            _(
                "A federation number is letters and digits (a hyphen, dot or slash between "
                "them), %(length)s characters at most with its federation's code."
            )
            % {"length": _NUMBER_LENGTH},
            code="federation_number",
        )
    return kept


def _typed_text(value: str, field: str, model: type[Entry] | type[Player]) -> str:
    value = " ".join(value.split())
    try:
        model._meta.get_field(field).clean(value, None)  # type: ignore[union-attr]
    except ValidationError as error:
        raise EventError(" ".join(error.messages), code="invalid") from None
    return value


def _person_by_number(number: str, name: str) -> tuple[Player, bool]:
    """The person with the federation number, whose name must be `name` (case, spaces and
    accents aside: else two clubs claim one person); or one made with both (True)."""
    person = row_lock(Player.objects.filter(federation_number=number)).first()
    if person is None:
        try:
            with transaction.atomic():  # a savepoint: the same number made at this moment
                return Player.objects.create(name=name, federation_number=number), True
        except IntegrityError:
            # Made by another event's entry or a club meanwhile: committed now.
            person = row_lock(Player.objects.filter(federation_number=number)).first()
    if person is None or name_key(person.name) != name_key(name):
        raise EventError(NUMBER_CLAIMED % {"number": number}, code="number_claimed")
    return person, False


def _club_typed(event: Event, person: Player, typed: str) -> tuple[Club | None, str]:
    """The club an entry by number is for: a club of the person here when the text names
    one (by name or federation code, case aside), else the text as typed; empty: a guest.
    A club here that the person is not a member of is refused, as on the clubs' own entry."""
    if not typed:
        if not event.guests_allowed:
            raise EventError(
                _("This event takes no guests: give the club the person plays for."),
                code="no_guests",
            )
        return None, ""
    named = list(
        Club.objects.filter(is_federation=False)
        .filter(Q(federation_code__iexact=typed) | Q(name__iexact=typed))
        .order_by("pk")
    )
    for club in named:
        if Membership.objects.filter(club=club, player=person).exists():
            return club, ""
    if named:
        raise EventError(
            _("%(player)s is not a member of %(club)s.") % {"player": person, "club": named[0]},
            code="not_a_member",
        )
    return None, typed


@transaction.atomic
def entry_create_by_number(
    *,
    event: Event,
    number: str,
    name: str,
    club: str = "",
    federation: str = "",
    divisions: Sequence[Division],
    by: Any,
) -> Entry:
    """A director enters a person by federation number (`federation`: the code of another
    federation whose number it is; empty: this Bordpunt's own), at any time: the person
    with that number, whose name must be `name`; or, when no record has it, a person made
    with number and name, marked on the entry (`person_made`). `club` is the club as typed:
    one of the person's clubs here (by name or federation code) or, when it is none here,
    kept as typed; empty: a guest. The same person twice is refused, as every entry."""
    current = _locked(event.organiser_id, event.pk)
    if not directs_event(by, current):
        raise EventError(NOT_ALLOWED, code="not_allowed", forbidden=True)
    kept = federation_number_kept(number, federation)
    if not name.split():
        raise EventError(_("Give the person's name."), code="no_name")
    name = _typed_text(name, "name", Player)
    typed = _typed_text(club, "club_name", Entry)
    chosen = _divisions_checked(current, divisions)
    person, made = _person_by_number(kept, name)
    for_club, club_name = _club_typed(current, person, typed)
    return _enter(
        current,
        player=person,
        club=for_club,
        club_name=club_name,
        divisions=chosen,
        by=by,
        by_number=True,
        person_made=made,
    )


def divisions_played(event: Event, player_id: int) -> list[Division]:
    """The divisions of `event` that have the person among their players."""
    return [
        Division(kind, competition)
        for kind in division_kinds()
        for competition in getattr(event, kind.divisions).filter(
            **{f"{kind.players}__player_id": player_id}
        )
    ]


def _entered_already(player: Player, earlier: Entry | None) -> EventError:
    if earlier is not None and earlier.club is not None:
        message = _("%(player)s is already entered in this event, for %(club)s.") % {
            "player": player,
            "club": earlier.club,
        }
    else:
        message = _("%(player)s is already entered in this event.") % {"player": player}
    return EventError(message, code="entered_already")


def _account(by: Any) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


@transaction.atomic
def entry_withdraw(*, entry: Entry, by: Any, now: datetime | None = None) -> None:
    """Take `entry` back, and the person out of every division of the event they play
    in. The person, their club's secretary while entries are open,
    and the event's directors at any time. A person with results in a division is
    withdrawn there by its director, round by round; the entry then stays."""
    now = now or timezone.now()
    current = _locked(entry.event.organiser_id, entry.event_id)
    entry = Entry.objects.select_related("player", "club").get(pk=entry.pk)
    if not directs_event(by, current):
        player = entry.player
        own = by is not None and player.user_id is not None and player.user_id == by.pk
        secretary = entry.club is not None and can_manage_club(by, entry.club)
        if not own and not secretary:
            raise EventError(
                _(
                    "Only the player, their club's secretary and the event's directors may "
                    "withdraw this entry."
                ),
                code="not_allowed",
                forbidden=True,
            )
        if not entry_is_open(current, now):
            raise EventError(
                _("Entries for this event are closed: ask the event's director."),
                code="closed",
            )
    divisions = divisions_played(current, entry.player_id)
    for division in divisions:
        division.kind.withdraw(division=division.competition, player=entry.player, by=by)
    summary = {
        "player": entry.player.name,
        "club": entry.club.name if entry.club else None,
        "divisions": [division.name for division in divisions],
    }
    withdrawn = HistoryAction.EVENT_WITHDRAW
    _record(current, by=by, action=withdrawn, before=summary)
    if entry.club is not None and entry.club_id != current.organiser_id:
        _record(current, by=by, action=withdrawn, club_id=entry.club_id, before=summary)
    entry.delete()
    current.save(update_fields=["changed_at"])


#: A season's settings, as the officials' form edits them and the history keeps them.
SEASON_FIELDS = (
    "name",
    "slug",
    "start",
    "end",
    "gap_value",
    "min_games",
    "min_interclub_share",
    "share_from_interclubs",
    "counted_results",
    "result_months",
    "club_method",
    "club_results",
    "club_players",
    "club_share",
    "club_missing_points",
)

NOT_AN_OFFICIAL = _("Only an official of the federation may do this.")
NOT_A_FEDERATION = _("Only a federation keeps seasons of a ranking.")
SEASON_SLUG_TAKEN = _("The federation has a season with this short name already.")


def _check_official(federation: Club, by: Any) -> None:
    if not federation.is_federation:
        raise EventError(NOT_A_FEDERATION, code="not_a_federation")
    if not can_manage_club(by, federation):
        raise EventError(NOT_AN_OFFICIAL, code="not_an_official", forbidden=True)


def season_settings(season: Season) -> dict[str, Any]:
    """The settings as the history keeps them: JSON values (dates ISO, GV as text)."""
    values: dict[str, Any] = {}
    for name in SEASON_FIELDS:
        value = getattr(season, name)
        if isinstance(value, date):
            value = value.isoformat()
        elif isinstance(value, Decimal):
            value = f"{value.normalize():f}"  # "20", not "2E+1"
        values[name] = value
    return values


def _season_saved(season: Season) -> Season:
    """Checked whole (the constraints too: a short name once per federation), then saved;
    a short name taken meanwhile is refused as the check would have."""
    taken = Season.objects.filter(federation_id=season.federation_id, slug=season.slug)
    if taken.exclude(pk=season.pk).exists():
        raise ValidationError({"slug": SEASON_SLUG_TAKEN})
    season.full_clean()
    try:
        with transaction.atomic():
            season.save()
    except IntegrityError:
        raise ValidationError({"slug": SEASON_SLUG_TAKEN}) from None
    return season


def season_create(*, federation: Club, fields: Mapping[str, Any], by: Any) -> Season:
    """A new season of the federation's ranking. Raises `EventError` (who) or
    `ValidationError` (what), and then saves nothing."""
    _check_official(federation, by)
    with transaction.atomic():
        club_lock(federation.pk)
        season = _season_saved(Season(federation=federation, **dict(fields)))
        history_record(
            club_id=federation.pk,
            by=by,
            action=HistoryAction.SEASON_CREATE,
            object_type="season",
            object_id=season.pk,
            label=season.name,
            after=season_settings(season),
        )
    return season


def season_update(
    *, season: Season, fields: Mapping[str, Any], by: Any, reason: str = ""
) -> Season:
    """The season's settings changed; `season_changed` tells the ranking, in the same
    transaction (with another GV it scores every ranked game of the season again)."""
    _check_official(season.federation, by)
    with transaction.atomic():
        club_lock(season.federation_id)
        stored = Season.objects.get(pk=season.pk)
        before = season_settings(stored)
        for name, value in fields.items():
            setattr(stored, name, value)
        _season_saved(stored)
        after = season_settings(stored)
        changed = [name for name in SEASON_FIELDS if before[name] != after[name]]
        if changed:
            history_record(
                club_id=stored.federation_id,
                by=by,
                action=HistoryAction.SEASON_SETTINGS,
                object_type="season",
                object_id=stored.pk,
                label=stored.name,
                before={name: before[name] for name in changed},
                after={name: after[name] for name in changed},
                reason=reason,
            )
            season_changed.send(sender=Season, season=stored, changed=changed)
    return stored
