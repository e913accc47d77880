"""A person's copy of their data (AVG art. 15 and 20): everything Bordpunt keeps about
them, as one JSON document (the format is docs/privacy.md).

What is theirs: the account, the player, the memberships, the entries in competitions and
duplicates, the absences, the games of published rounds with their seats and moves, the
duplicate slips, the games and moves they entered for others, and the history entries by
them or about them. A draft round is its club's secretaries' alone (DESIGN.md, rule 9), so
its games and their history come in once the round is published.

The copy names other people by their players' names, never by their accounts: a username
or an e-mail address (a club's signed-up secretary logs in with their address) is the
person's own alone (`_names`, `_author`, `_without_accounts`).

`RELATIONS` names every foreign key to a player or an account and where the copy holds
it; `tests/privacy/test_export.py` walks every model and fails when a new one is not named,
so data added later cannot be left out of the copy unnoticed.

Django: a selector (reads only), in a fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from clubs.models import HistoryEntry, Membership, Player
from competition.models import Absence, Entrant
from duplicate.models import Participant, Slip
from events.models import Entry, Event
from games.models import Game, Move
from notifications.models import Notification, Subscription
from ranking.models import PublishedPerson, RankedResult

FORMAT = "bordpunt-personal-data"
VERSION = 1

#: Every (model, field) that points to a player or an account, and the key of the copy
#: that holds it; None with the reason when it is not the person's data.
RELATIONS: dict[tuple[str, str], str | None] = {
    ("clubs.player", "user"): "player",
    ("clubs.club", "members"): "memberships",
    ("clubs.membership", "player"): "memberships",
    ("clubs.historyentry", "by"): "history",
    ("competition.entrant", "player"): "competitions",
    ("competition.absence", "player"): "absences",
    ("games.seat", "player"): "games",
    ("games.game", "entered_by"): "entered",
    ("games.move", "entered_by"): "entered",
    ("duplicate.participant", "player"): "duplicates",
    ("duplicate.slip", "player"): "slips",
    ("events.entry", "player"): "events",
    ("events.entry", "entered_by"): "events_entered",
    ("events.event", "directors"): "event_roles",
    ("events.event", "jury"): "event_roles",
    ("ranking.rankedresult", "player"): "ranked_results",
    ("ranking.publishedperson", "player"): "published_rankings",
    ("notifications.subscription", "user"): "notifications",
    ("notifications.notification", "user"): "notifications_sent",
    # The official who published a version of the season's ranking: an act for the
    # federation, as an event's results imported (below).
    ("ranking.publication", "by"): None,
    # The federation official who published or imported an event's results: an act for
    # the federation, as the admin's log (the account's removal leaves it without a name).
    ("ranking.rankedevent", "by"): None,
    # A merge of two records of one person (persons/): which rows moved between them, by
    # id. The rows are the person's data and in the copy under the kept record, as are the
    # history entries of the merge; who merged acted for a club or the federation.
    ("persons.personmerge", "keep"): None,
    ("persons.personmerge", "other"): None,
    ("persons.personmerge", "by"): None,
    ("persons.personmerge", "undone_by"): None,
    # The site admin's own log of the admin pages: what a staff member did there, kept by
    # Django, not data about the person (an erasure blanks the player's name in it).
    ("admin.logentry", "user"): None,
    # The operator's record of the sign-up invitations they mailed: what the operator did
    # for the service, as the admin's log (the account's removal leaves it without a name).
    ("hosting.signupinvitation", "by"): None,
    # A form's key, kept three days so that a form sent twice is saved once: what the
    # form saved is in the copy (its move, slip or result), the key says nothing more.
    ("clubs.submission", "by"): None,
    # The jury member who typed a slip a second time, differently: an act for the event,
    # kept until the spelleider resolves it; the slip itself is in the player's copy.
    ("duplicate.slipconflict", "typed_by"): None,
}


def _account(user: Any) -> dict[str, Any] | None:
    if user is None:
        return None
    return {
        "username": user.get_username(),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
    }


def _player(player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "federation_number": player.federation_number,
        "start_rating": player.rating,
        "start_rating_deviation": player.rating_deviation,
        "invitation_valid_until": player.invite_expires_at,
    }


def _game(game: Game, moves: list[Move], you: int) -> dict[str, Any]:
    competition = game.round.competition
    return {
        "id": game.pk,
        "club": competition.club.slug,
        "competition": competition.slug,
        "competition_name": competition.name,
        "round": game.round.number,
        "date": game.round.date,
        "table": game.table,
        "outcome": game.outcome,
        "confirmation": game.confirmation,
        "starter": game.starter,
        "seats": [
            {
                "position": seat.position,
                "player": seat.player.name,
                "is_you": seat.player_id == you,
                "score": seat.score,
                "place": seat.place,
                "flag_fell": seat.flag_fell,
                "forfeited": seat.forfeited,
                "confirmed": seat.confirmed,
            }
            for seat in game.seat_list
        ],
        "moves": [
            {
                "number": move.number,
                "seat": move.seat,
                "notation": move.notation,
                "rack": move.rack,
                "score": move.score,
                "total": move.total,
                "entered_at": move.entered_at,
                "thinking_ms": move.think_ms,
            }
            for move in moves
        ],
    }


#: The keys of a history entry's `before` and `after` that hold accounts: a username (or a
#: list of them), an e-mail address.
USERNAME_KEYS = ("username", "directors", "jury")
EMAIL_KEYS = ("email",)


@dataclass(frozen=True)
class _Names:
    """Whom the copy may name how: the person's own accounts and addresses, and the names of
    the players of the other accounts the history mentions."""

    own: frozenset[str]  # the person's username and address, folded
    by_id: dict[int, str]  # account id -> its player's name
    by_username: dict[str, str]  # username, folded -> its player's name

    def account(self, username: Any) -> Any:
        """An account mentioned in the history: the person's own as it is, another by the
        name of its player (None when it has none)."""
        if not isinstance(username, str) or username.casefold() in self.own:
            return username
        return self.by_username.get(username.casefold())


def _names(user: Any, entries: list[HistoryEntry]) -> _Names:
    """The names of the players of the accounts `entries` mention: one query."""
    usernames: set[str] = set()
    for entry in entries:
        for values in (entry.before, entry.after):
            if isinstance(values, dict):
                for key in USERNAME_KEYS:
                    value = values.get(key)
                    usernames.update(
                        item
                        for item in (value if isinstance(value, list) else [value])
                        if isinstance(item, str)
                    )
    authors = {entry.by_id for entry in entries if entry.by_id is not None}
    by_id: dict[int, str] = {}
    by_username: dict[str, str] = {}
    if usernames or authors:
        for user_id, username, name in Player.objects.filter(
            Q(user_id__in=authors) | Q(user__username__in=usernames)
        ).values_list("user_id", "user__username", "name"):
            by_id[user_id] = name
            by_username[username.casefold()] = name
    own = {user.get_username(), user.email}
    return _Names(frozenset(value.casefold() for value in own if value), by_id, by_username)


def _author(entry: HistoryEntry, user: Any, names: _Names) -> str | None:
    """Who made the change, by their player's name; the person themself by their own name
    (their username when they have no player). None for anyone without a player (the
    operator, a federation official) or an account since removed: never another's username,
    which for a club's signed-up secretary is their e-mail address."""
    if entry.by_id is not None and entry.by_id == user.pk:
        return names.by_id.get(user.pk, user.get_username())
    return names.by_id.get(entry.by_id) if entry.by_id is not None else None


def _without_accounts(values: Any, names: _Names) -> Any:
    """An entry's `before` or `after` with other people's accounts named by their players
    and their addresses left out; the person's own stay."""
    if not isinstance(values, dict):
        return values
    cleaned = dict(values)
    for key in USERNAME_KEYS:
        if isinstance(value := cleaned.get(key), list):
            cleaned[key] = [names.account(item) for item in value]
        elif key in cleaned:
            cleaned[key] = names.account(value)
    for key in EMAIL_KEYS:
        value = cleaned.get(key)
        if isinstance(value, str) and value.casefold() not in names.own:
            cleaned[key] = None
    return cleaned


def _history(
    entry: HistoryEntry, user: Any, player: Player | None, names: _Names
) -> dict[str, Any]:
    # An entry about the person's own player (an invitation mailed to them, their address
    # changed: the old one too) holds their own accounts and addresses, as they were.
    own = player is not None and entry.object_type == "player" and entry.object_id == player.pk
    return {
        "club": entry.club.slug if entry.club else None,  # a removed club's: none
        "at": entry.at,
        "action": entry.action,
        "by": _author(entry, user, names),
        "by_you": entry.by_id is not None and entry.by_id == user.pk,
        "object_type": entry.object_type,
        "object": entry.object_label,
        "competition_id": entry.competition_id,
        "duplicate_id": entry.duplicate_id,
        "round": entry.round_number,
        "game_id": entry.game_id,
        "before": entry.before if own else _without_accounts(entry.before, names),
        "after": entry.after if own else _without_accounts(entry.after, names),
        "reason_code": entry.reason_code,
        "reason": entry.reason,
    }


def personal_data(user: Any, *, now: datetime | None = None) -> dict[str, Any]:
    """Everything kept about the person of `user`'s account: 17 queries, 18 when its history
    names other accounts, whatever their number of games, moves and slips."""
    player = Player.objects.filter(user=user).first()
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now or timezone.now(),
        "account": _account(user),
        "player": None,
        "memberships": [],
        "competitions": [],
        "absences": [],
        "games": [],
        "duplicates": [],
        "slips": [],
        "entered": {
            "games": list(Game.objects.filter(entered_by=user).values_list("pk", flat=True)),
            "moves": [
                {"game": game, "number": number}
                for game, number in Move.objects.filter(entered_by=user).values_list(
                    "game_id", "number"
                )
            ],
        },
        "events": [],
        "events_entered": [
            {"event": event, "player": name}
            for event, name in Entry.objects.filter(entered_by=user)
            .order_by("pk")
            .values_list("event__name", "player__name")
        ],
        "event_roles": [
            {"event": event.name, "organiser": event.organiser.slug, "role": role}
            for role, events in (
                ("director", Event.objects.filter(directors=user)),
                ("jury", Event.objects.filter(jury=user)),
            )
            for event in events.select_related("organiser").order_by("pk")
        ],
        "ranked_results": [],
        "published_rankings": [],
        "notifications": sorted(
            Subscription.objects.filter(user=user).values_list("kind", flat=True)
        ),
        "notifications_sent": [
            {
                "kind": sent.kind,
                "about": sent.object_key,
                "club": sent.club.slug,
                "status": sent.status,
                "reason": sent.reason,
                "queued_at": sent.created_at,
            }
            for sent in Notification.objects.filter(user=user).select_related("club").order_by("pk")
        ],
        "history": [],
    }
    about = Q(by=user)
    if player is not None:
        data["player"] = _player(player)
        data["memberships"] = [
            {"club": m.club.slug, "club_name": m.club.name, "role": m.role}
            for m in Membership.objects.filter(player=player).select_related("club")
        ]
        entrants = list(
            Entrant.objects.filter(player=player)
            .select_related("competition__club", "group")
            .order_by("pk")
        )
        data["competitions"] = [
            {
                "club": e.competition.club.slug,
                "competition": e.competition.slug,
                "competition_name": e.competition.name,
                "group": e.group.name if e.group else None,
                "seed": e.seed,
                "plays_from_round": e.joined_round,
                "withdrawn_from_round": e.withdrawn_from_round,
            }
            for e in entrants
        ]
        data["absences"] = [
            {"competition": competition, "round": number}
            for competition, number in Absence.objects.filter(player=player)
            .order_by("pk")
            .values_list("round__competition__slug", "round__number")
        ]
        games = list(
            Game.objects.published()
            .filter(seats__player=player)
            .select_related("round__competition__club")
            .with_seats()
            .order_by("round__competition_id", "round__number", "table", "pk")
        )
        moves: dict[int, list[Move]] = {}
        for move in Move.objects.filter(game__in=[game.pk for game in games]).order_by(
            "game_id", "number"
        ):
            moves.setdefault(move.game_id, []).append(move)
        data["games"] = [_game(game, moves.get(game.pk, []), player.pk) for game in games]
        participants = list(
            Participant.objects.filter(player=player)
            .select_related("competition__club")
            .order_by("pk")
        )
        data["duplicates"] = [
            {
                "club": p.competition.club.slug,
                "competition": p.competition.slug,
                "competition_name": p.competition.name,
                "withdrawn_from_evening": p.withdrawn_from_evening,
            }
            for p in participants
        ]
        data["slips"] = [
            {
                "competition": slip.turn.evening.competition.slug,
                "evening": slip.turn.evening.number,
                "turn": slip.turn.number,
                "play": slip.text,
                "claimed": slip.claimed,
                "score": slip.score,
                "top": slip.is_top,
                "warning": slip.warning,
                "penalty": slip.penalty,
                "late": slip.late,
                "late_accepted": slip.late_accepted,
                "void": slip.void,
                "handed_in_at": slip.submitted_at,
            }
            for slip in Slip.objects.filter(player=player)
            .select_related("turn__evening__competition")
            .order_by("turn__evening__competition_id", "turn__evening__number", "turn__number")
        ]
        data["events"] = [
            {
                "event": entry.event.name,
                "organiser": entry.event.organiser.slug,
                "for_club": entry.club.slug if entry.club else None,
                "entered_at": entry.created_at,
            }
            for entry in Entry.objects.filter(player=player)
            .select_related("event__organiser", "club")
            .order_by("pk")
        ]
        data["ranked_results"] = [
            {
                "event": result.game.event.name,
                "game": result.game.number,
                "date": result.game.date,
                "name": result.name,
                "club": result.club_name,
                "points": result.points,
                "percentage": result.percentage,
            }
            for result in RankedResult.objects.filter(player=player)
            .select_related("game__event")
            .order_by("game__date", "pk")
        ]
        data["published_rankings"] = [
            {
                "season": row.publication.season.name,
                "version": row.publication.version,
                "on": row.publication.on,
                "name": row.name,
                "club": row.club_name,
                "rank": row.rank,
                "average": row.average,
            }
            for row in PublishedPerson.objects.filter(player=player)
            .select_related("publication__season")
            .order_by("publication__season", "publication__version")
        ]
        about |= (
            Q(object_type="player", object_id=player.pk)
            | Q(object_type="entrant", object_id__in=[e.pk for e in entrants])
            | Q(object_type="participant", object_id__in=[p.pk for p in participants])
            | Q(game_id__in=[game.pk for game in games])
        )
    entries = list(HistoryEntry.objects.filter(about).select_related("club").order_by("at", "pk"))
    names = _names(user, entries)
    data["history"] = [_history(entry, user, player, names) for entry in entries]
    return data
