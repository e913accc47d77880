"""Changes to clubs, players and memberships made in the admin, each kept in the history.

The secretary's pages change players through the competition's services (entering a new
player, inviting one); what is left is the site admin's: a club's name, a player's name or
account, who is secretary where. A player belongs to no single club, so a change to a
player is recorded in the history of every club they are a member of.
"""

from __future__ import annotations

import secrets
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Model

from clubs.history import HistoryAction, history_record, player_history_record
from clubs.locks import row_lock
from clubs.models import Club, Membership, Player
from clubs.signals import club_changed, player_changed

CLUB_FIELDS = (
    "name",
    "slug",
    "city",
    "rating_system",
    "slip_notation",
    "word_list",
    "former_member_retention_months",
)
PLAYER_FIELDS = ("name", "federation_number", "rating", "rating_deviation", "user")

M = TypeVar("M", bound=Model)


def _values(obj: Model | None, fields: tuple[str, ...]) -> dict[str, Any]:
    """The fields as the history stores them; an account by its user name."""
    if obj is None:
        return {}
    values = {}
    for name in fields:
        value = getattr(obj, name)
        values["username" if name == "user" else name] = (
            value.get_username() if name == "user" and value is not None else value
        )
    return values


def _changed(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict, dict]:
    keys = [key for key in dict.fromkeys([*before, *after]) if before.get(key) != after.get(key)]
    return {key: before.get(key) for key in keys}, {key: after.get(key) for key in keys}


def _stored(model: type[M], pk: int | None) -> M | None:
    """The row as the database has it (a validated admin form has already changed `obj`)."""
    return model._default_manager.filter(pk=pk).first() if pk else None


@transaction.atomic
def club_save(club: Club, *, by: Any) -> Club:
    """Save a club; a change of name, short name or city is kept. A new club starts without
    history, so one made by mistake can still be deleted (history keeps a club)."""
    before = _values(_stored(Club, club.pk), CLUB_FIELDS)
    club.clean()  # the admin's form has checked too; this holds for any other caller
    club.save()
    old, new = _changed(before, _values(club, CLUB_FIELDS))
    if before and (old or new):
        club_changed.send(sender=Club, club_id=club.pk)
        history_record(
            club_id=club.pk,
            by=by,
            action=HistoryAction.CLUB_CHANGE,
            object_type="club",
            object_id=club.pk,
            label=club.name,
            before=old,
            after=new,
        )
    return club


@transaction.atomic
def player_save(player: Player, *, by: Any) -> Player:
    """Save a player; a change is recorded in each of the player's clubs."""
    before = _values(_stored(Player, player.pk), PLAYER_FIELDS)
    player.save()
    old, new = _changed(before, _values(player, PLAYER_FIELDS))
    if before and (old or new):
        player_changed.send(sender=Player, player_id=player.pk)
        player_history_record(
            player, by=by, action=HistoryAction.PLAYER_CHANGE, before=old, after=new
        )
    return player


@transaction.atomic
def player_calendar_renew(*, player: Player, by: Any) -> None:
    """A new secret address for the player's own calendar feed (clubs/calendars.py); the
    old one stops working. The history says that it was renewed, never the key itself.
    """
    locked = row_lock(Player.objects.filter(pk=player.pk)).get()
    had_one = bool(locked.calendar_key)
    locked.calendar_key = player.calendar_key = secrets.token_hex(16)
    locked.save(update_fields=["calendar_key"])
    player_history_record(
        locked,
        by=by,
        action=HistoryAction.PLAYER_CALENDAR,
        before={"calendar_feed": had_one},
        after={"calendar_feed": True},
    )


@transaction.atomic
def player_delete(player: Player, *, by: Any) -> None:
    """Delete a player (one without games: the database protects those), kept in the
    history of each of their clubs."""
    player_history_record(
        player, by=by, action=HistoryAction.PLAYER_DELETE, before=_values(player, PLAYER_FIELDS)
    )
    player.delete()


@transaction.atomic
def membership_save(membership: Membership, *, by: Any) -> Membership:
    """A player joins a club, or gets another role there (secretary or member)."""
    stored = _stored(Membership, membership.pk)
    membership.save()
    if stored is not None and (stored.club_id, stored.player_id) == (
        membership.club_id,
        membership.player_id,
    ):
        if stored.role != membership.role:
            _record_membership(
                membership,
                by=by,
                action=HistoryAction.MEMBERSHIP_ROLE,
                before={"role": stored.role},
                after={"role": membership.role},
            )
        return membership
    if stored is not None:  # moved to another club or player: the old one ends
        _record_membership(
            stored, by=by, action=HistoryAction.MEMBERSHIP_REMOVE, before={"role": stored.role}
        )
    _record_membership(
        membership, by=by, action=HistoryAction.MEMBERSHIP_ADD, after={"role": membership.role}
    )
    return membership


@transaction.atomic
def membership_delete(membership: Membership, *, by: Any) -> None:
    _record_membership(
        membership, by=by, action=HistoryAction.MEMBERSHIP_REMOVE, before={"role": membership.role}
    )
    membership.delete()


def _record_membership(membership: Membership, *, by, action, before=None, after=None) -> None:
    history_record(
        club_id=membership.club_id,
        by=by,
        action=action,
        object_type="player",
        object_id=membership.player_id,
        label=membership.player.name,
        before=before,
        after=after,
    )
