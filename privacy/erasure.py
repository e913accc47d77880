"""Erasure (AVG art. 17): a person's account and personal data go, their results stay.

`player_erase` is the one way a person is erased: at their own request (*My data*), at the
request of a member without an account through their club's secretary
(`player_erase_for_club`; a person in no club, made by a results file or a director's
entry, through the federation or club that alone holds their data), or when every club
that holds their data has kept them past its retention period (`privacy.retention`). In
one transaction it

- deletes the user account and its sessions (and the login throttles under its name);
- blanks the player: the name becomes the neutral placeholder `erased_name(pk)` ("#12",
  no language, so every page, export and download shows it without a change of theirs),
  no federation number, start rating, invitation; the memberships go; the ranking's
  results keep their points and percentages under the placeholder, without the number;
- keeps every entry, seat, game, move, slip and absence, so no one else's standing,
  ranking or game changes;
- takes the person's names (all they ever had here), account name, e-mail and federation
  number out of the history of every club they were in (the history refuses every other
  change: `HistoryQuerySet.erase_personal_data` is the exception, called only here), and
  records the fact of the erasure there: when and why, not the data.

A name is replaced where it stands alone, not glued to a letter or digit ("An – Bert",
"An was late"), and not inside another player's longer name: "An" takes no bite out of
"Annie" or "An de Vries". (Another player of exactly the same name cannot be told apart in
a text; their history loses the name too: the person's privacy goes first.)

Django: a service.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, HistoryReason, history_record
from clubs.locks import row_lock
from clubs.models import Club, HistoryEntry, Membership, Player, Throttle, erased_name
from clubs.permissions import can_manage_club
from clubs.signals import player_changed
from competition.models import Entrant
from duplicate.models import Participant
from events.models import Entry
from ranking.models import PublishedPerson, RankedResult

#: The keys of a player's own history entries (`clubs.services.PLAYER_FIELDS`, an
#: invitation, an account) whose values are the person's data.
PERSONAL_KEYS = ("name", "federation_number", "username", "rating", "rating_deviation")


class ErasureError(Exception):
    """The erasure cannot be done; `message` says why, in the reader's language."""

    def __init__(self, message: Any) -> None:
        super().__init__(message)
        self.message = message


ALREADY_ERASED = _("This player's data has been erased already.")
ONLY_SECRETARY = _(
    "You are the only secretary of %(club)s: make another member secretary first, so that "
    "the club is not left without one."
)
HAS_ACCOUNT = _(
    "%(name)s has an account: they download and erase their data themselves, on My data."
)
OTHER_CLUB = _("%(name)s is a member of another club too: that club keeps their data.")


def _check_erasable(player: Player) -> None:
    if player.erased_at is not None:
        raise ErasureError(ALREADY_ERASED)
    secretary = Membership.Role.SECRETARY
    for membership in Membership.objects.filter(player=player, role=secretary).select_related(
        "club"
    ):
        others = Membership.objects.filter(club=membership.club_id, role=secretary)
        if not others.exclude(player=player).exists():
            raise ErasureError(ONLY_SECRETARY % {"club": membership.club.name})


def player_club_ids(player: Player) -> set[int]:
    """Every club the person is or was in: as a member, in a competition or a duplicate,
    in an event (its organiser, and the club the entry was for), in a federation's ranking,
    or in a history entry about them."""
    club_ids = set(Membership.objects.filter(player=player).values_list("club_id", flat=True))
    for organiser_id, club_id in Entry.objects.filter(player=player).values_list(
        "event__organiser_id", "club_id"
    ):
        club_ids |= {organiser_id} | ({club_id} if club_id is not None else set())
    club_ids |= set(
        RankedResult.objects.filter(player=player).values_list(
            "game__event__season__federation_id", flat=True
        )
    )
    club_ids |= set(
        Entrant.objects.filter(player=player).values_list("competition__club_id", flat=True)
    )
    club_ids |= set(
        Participant.objects.filter(player=player).values_list("competition__club_id", flat=True)
    )
    club_ids |= set(
        HistoryEntry.objects.filter(object_type="player", object_id=player.pk).values_list(
            "club_id", flat=True
        )
    )
    if player.user_id is not None:
        club_ids |= set(
            HistoryEntry.objects.filter(by_id=player.user_id).values_list("club_id", flat=True)
        )
    return club_ids


def _personal_texts(player: Player, club_ids: Iterable[int]) -> set[str]:
    """The person's strings: name, account, e-mail, federation number, now and as the
    history kept them before a change."""
    texts = {player.name, player.federation_number or ""}
    user = player.user
    if user is not None:
        texts |= {user.get_username(), user.email, user.get_full_name()}
    own = HistoryEntry.objects.filter(
        club_id__in=club_ids, object_type="player", object_id=player.pk
    ).values_list("before", "after")
    for before, after in own:
        for side in (before, after):
            if isinstance(side, dict):
                texts |= {str(side[key]) for key in PERSONAL_KEYS[:3] if side.get(key)}
    return {text.strip() for text in texts if text and text.strip()}


def _alternatives(texts: Iterable[str]) -> str:
    return "|".join(re.escape(text) for text in sorted(texts, key=len, reverse=True))


class _Redactor:
    """Replaces the person's texts where they stand alone (not glued to a letter or digit),
    except inside a longer name of someone else: "An" leaves "An de Vries" alone."""

    def __init__(self, texts: set[str], other_names: Iterable[str], placeholder: str) -> None:
        self.pattern = re.compile(rf"(?<!\w)(?:{_alternatives(texts)})(?!\w)")
        longer = {name for name in other_names if name not in texts and self.pattern.search(name)}
        self.longer = re.compile(rf"(?<!\w)(?:{_alternatives(longer)})(?!\w)") if longer else None
        self.placeholder = placeholder

    def text(self, value: str) -> str:
        kept: list[str] = []

        def keep(match: re.Match[str]) -> str:
            kept.append(match.group())
            return f"\x00{len(kept) - 1}\x00"  # no name holds a control character

        if self.longer is not None:
            value = self.longer.sub(keep, value)
        value = self.pattern.sub(self.placeholder, value)
        return re.sub("\x00(\\d+)\x00", lambda match: kept[int(match.group(1))], value)

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            return {key: self.value(item) for key, item in value.items()}
        return value


def _own_side(side: Any, placeholder: str) -> Any:
    """A side of an entry about the player themself: their data replaced outright."""
    if not isinstance(side, dict):
        return side
    return {
        key: (placeholder if value and key in PERSONAL_KEYS[:3] else None)
        if key in PERSONAL_KEYS
        else value
        for key, value in side.items()
    }


def _history_redactions(
    player: Player, club_ids: set[int], texts: set[str], placeholder: str
) -> dict[int, dict[str, Any]]:
    """Per history entry of the person's clubs, the fields that held their data."""
    others = Player.objects.exclude(pk=player.pk).values_list("name", flat=True)
    redactor = _Redactor(texts, others.iterator(), placeholder)
    user_id = player.user_id
    username = player.user.get_username() if player.user is not None else None
    changes: dict[int, dict[str, Any]] = {}
    rows = HistoryEntry.objects.filter(club_id__in=club_ids).values_list(
        "pk",
        "by_id",
        "by_name",
        "object_type",
        "object_id",
        "object_label",
        "before",
        "after",
        "reason",
    )
    for pk, by_id, by_name, object_type, object_id, label, before, after, reason in rows.iterator():
        own = object_type == "player" and object_id == player.pk
        new: dict[str, Any] = {
            "object_label": placeholder if own else redactor.text(label),
            "before": _own_side(before, placeholder) if own else before,
            "after": _own_side(after, placeholder) if own else after,
            "reason": redactor.text(reason),
        }
        new["before"] = redactor.value(new["before"])
        new["after"] = redactor.value(new["after"])
        if (user_id is not None and by_id == user_id) or (
            by_id is None and username is not None and by_name == username
        ):
            new |= {"by": None, "by_name": placeholder}
        old = {"object_label": label, "before": before, "after": after, "reason": reason}
        old |= {"by": by_id, "by_name": by_name} if "by" in new else {}
        changed = {key: value for key, value in new.items() if old[key] != value}
        if changed:
            changes[pk] = changed
    return changes


def held_by_club(player: Player, club: Club) -> bool:
    """Whether the person is the club's to erase at their request: a member of it, or a
    person in no club whose data the club (a federation's ranking, an event's organiser)
    holds. `player_erase_for_club` asks again, and refuses what another club holds too."""
    memberships = set(Membership.objects.filter(player=player).values_list("club_id", flat=True))
    return club.pk in (memberships or player_club_ids(player))


@transaction.atomic
def player_erase_for_club(*, club: Club, player: Player, by: Any) -> None:
    """A member without an account asks their club's secretary to be erased (they cannot
    do it themselves). Refused for a member with an account (theirs to do, and a secretary
    must not end someone's account) and for a member of another club too (that club's data
    is not this secretary's to erase). A person in no club (a results file or a director's
    entry made them) asks the club or federation that holds their data, when no other
    club holds any (`player_club_ids`)."""
    if not can_manage_club(by, club):
        raise ErasureError(_("Only the club's secretaries can do this."))
    # Locked and asked first: the second of two erasures at once then hears what it hears
    # one after the other (erased already), not that the member's memberships are gone.
    player = row_lock(Player.objects).get(pk=player.pk)
    if player.erased_at is not None:
        raise ErasureError(ALREADY_ERASED)
    if player.user_id is not None:
        raise ErasureError(HAS_ACCOUNT % {"name": player.name})
    clubs = set(Membership.objects.filter(player=player).values_list("club_id", flat=True))
    if not clubs:
        # A person in no club (made by a results file or by a director's entry by number):
        # the club or federation that holds their data, when it is the only one.
        clubs = player_club_ids(player)
    if club.pk not in clubs:
        raise ErasureError(_("This player is not a member of the club."))
    if clubs != {club.pk}:
        raise ErasureError(OTHER_CLUB % {"name": player.name})
    player_erase(player=player, by=by, reason_code=HistoryReason.ERASE_CLUB_REQUEST)


def _delete_sessions(user_id: int) -> None:
    """The account's sessions in the session store, so no browser stays logged in (the
    store's own `delete`, which clears a cached copy too)."""
    from importlib import import_module

    from django.contrib.sessions.models import Session

    engine = import_module(settings.SESSION_ENGINE)
    if not settings.SESSION_ENGINE.endswith(("db", "cached_db")):
        return  # signed cookies or a pure cache: the deleted account logs nobody in
    store = engine.SessionStore()
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user_id):
            store.delete(session.session_key)


@transaction.atomic
def player_erase(*, player: Player, by: Any, reason_code: str, now: datetime | None = None) -> None:
    """Erase the person: see the module's docstring. `by` is who asked (recorded when it
    is someone else; a person erasing themself is recorded by the reason alone, since
    their account goes); `reason_code` a `HistoryReason` of erasure."""
    now = now or timezone.now()
    # Locked, so that two erasures of one person at once end as one (the second refused).
    player = row_lock(Player.objects.select_related("user")).get(pk=player.pk)
    _check_erasable(player)
    placeholder = erased_name(player.pk)
    club_ids = player_club_ids(player)
    texts = _personal_texts(player, club_ids)
    HistoryEntry.objects.erase_personal_data(
        _history_redactions(player, club_ids, texts, placeholder)
    )
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Player), object_id=str(player.pk)
    ).update(object_repr=placeholder, change_message="")
    user = player.user
    # A person erasing themself is recorded by the reason: their account is about to go.
    asked_by = None if by is None or getattr(by, "pk", None) == player.user_id else by
    if user is not None:
        _delete_sessions(user.pk)
        Throttle.objects.filter(subject=user.get_username().casefold()[:150]).delete()
        player.user = None
        user.delete()
    Membership.objects.filter(player=player).delete()
    # The ranking keeps each result's name as it was at the event: erased with the rest.
    RankedResult.objects.filter(player=player).update(name=placeholder, federation_number="")
    PublishedPerson.objects.filter(player=player).update(name=placeholder, federation_number="")
    Player.objects.filter(pk=player.pk).update(
        name=placeholder,
        user=None,
        federation_number=None,
        rating=None,
        rating_deviation=None,
        invite_code_hash="",
        invite_expires_at=None,
        calendar_key="",
        erased_at=now,
    )
    for club_id in sorted(club_ids):
        history_record(
            club_id=club_id,
            by=asked_by,
            action=HistoryAction.PLAYER_ERASE,
            object_type="player",
            object_id=player.pk,
            label=placeholder,
            reason_code=reason_code,
            at=now,
        )
    player_changed.send(sender=Player, player_id=player.pk)
