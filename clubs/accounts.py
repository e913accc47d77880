"""Player accounts: a secretary invites a club member, the member makes an account.

An invitation is a short code (8 characters without look-alikes such as 0/O and 1/I/L,
shown on screen and printable) and a link that carries it. It is valid for two weeks and
once: only a keyed hash of the code is stored, so neither the database nor a backup gives
it away, and a new invitation replaces the previous one. Wrong codes are throttled by the
views (clubs/throttle.py), like wrong passwords. Knows nothing of competitions or games.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record, player_history_record
from clubs.locks import row_lock
from clubs.models import Club, ClubStatus, Membership, Player
from clubs.permissions import CLUB_SUSPENDED, can_manage_club

#: No 0/O, 1/I/L: the code is read from paper and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
INVITE_VALID_FOR = timedelta(days=14)


class AccountError(Exception):
    """An invitation or account that cannot be made; the message is for the person."""

    def __init__(self, message: Any, *, forbidden: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.forbidden = forbidden


@dataclass(frozen=True)
class Invitation:
    """What the secretary hands over: shown once, never stored as it is."""

    player: Player
    code: str
    expires_at: datetime

    @property
    def display_code(self) -> str:
        """ABCD-EFGH: easier to read aloud and to copy."""
        return f"{self.code[:4]}-{self.code[4:]}"


def code_normalized(text: str) -> str | None:
    """The code as stored, from what was typed (case, spaces and hyphens ignored);
    None when it cannot be a code at all.

    >>> code_normalized(" abcd-efgh ")
    'ABCDEFGH'
    >>> code_normalized("ABCD-EFG0") is None
    True
    """
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        return None
    return code


def code_hash(code: str) -> str:
    """Keyed with the site's secret: a stolen backup does not reveal which codes are open."""
    return salted_hmac("bordpunt.clubs.invite", code, algorithm="sha256").hexdigest()


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@transaction.atomic
def player_invite(
    *, club: Club, player: Player, by: AbstractBaseUser | None, now: datetime | None = None
) -> Invitation:
    """A new invitation for a member of `club` without an account (replacing an older one)."""
    now = now or timezone.now()
    if by is None or not can_manage_club(by, club):
        raise AccountError(_("Only the club's secretaries can invite players."), forbidden=True)
    locked = row_lock(Player.objects).get(pk=player.pk)
    if not Membership.objects.filter(club=club, player=locked).exists():
        raise AccountError(_("This player is not a member of the club."), forbidden=True)
    if locked.user_id is not None:
        raise AccountError(_("This player already has an account."))
    while True:
        code = _new_code()
        hashed = code_hash(code)
        if not Player.objects.filter(invite_code_hash=hashed).exists():
            break
    had_one = bool(locked.invite_code_hash)
    locked.invite_code_hash = hashed
    locked.invite_expires_at = now + INVITE_VALID_FOR
    locked.save(update_fields=["invite_code_hash", "invite_expires_at"])
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.PLAYER_INVITE,
        object_type="player",
        object_id=locked.pk,
        label=locked.name,
        before={"valid_until": None} if not had_one else None,
        after={"valid_until": locked.invite_expires_at.isoformat()},
        at=now,
    )
    return Invitation(player=locked, code=code, expires_at=locked.invite_expires_at)


def invited_player(code: str, *, now: datetime | None = None) -> Player | None:
    """The player whose open invitation has this code (as normalised), or None."""
    return Player.objects.filter(
        invite_code_hash=code_hash(code),
        invite_expires_at__gt=now or timezone.now(),
        user__isnull=True,
    ).first()


@transaction.atomic
def account_create_from_invite(
    *, code: str, username: str, password: str, now: datetime | None = None
) -> User:
    """Make the account and tie it to the invited player; the invitation is then used up.

    `password` has passed Django's password validators (the form checks them). Two tabs
    using one invitation at once: the player row is locked, the second finds it used.
    """
    now = now or timezone.now()
    player = (
        row_lock(Player.objects)
        .filter(invite_code_hash=code_hash(code), invite_expires_at__gt=now, user__isnull=True)
        .first()
    )
    if player is None:
        raise AccountError(
            _("This invitation is no longer valid. Ask your secretary for a new one.")
        )
    # A suspended club is read-only (clubs.permissions.club_is_read_only): its invitations
    # wait until it is active again.
    if Club.objects.filter(memberships__player=player, status=ClubStatus.SUSPENDED).exists():
        raise AccountError(CLUB_SUSPENDED)
    user_model = get_user_model()
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise AccountError(_("This username is taken; choose another.")) from None
    player.user = user
    player.invite_code_hash = ""
    player.invite_expires_at = None
    player.save(update_fields=["user", "invite_code_hash", "invite_expires_at"])
    player_history_record(
        player,
        by=user,
        action=HistoryAction.ACCOUNT_CREATE,
        after={"username": user.get_username()},
        at=now,
    )
    return user


@transaction.atomic
def invite_mail_record(
    *, club: Club, player: Player, code: str, email: str, by: AbstractBaseUser | None
) -> None:
    """The secretary mails an open invitation (its code, as the invitation page showed it)
    to an address: kept in the history; the view sends the mail after this commits."""
    if by is None or not can_manage_club(by, club):
        raise AccountError(_("Only the club's secretaries can invite players."), forbidden=True)
    found = invited_player(code)
    if found is None or found.pk != player.pk:
        raise AccountError(
            _("This invitation is no longer open. Make a new one on the players page.")
        )
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.PLAYER_INVITE_MAIL,
        object_type="player",
        object_id=player.pk,
        label=player.name,
        after={"email": email.strip()},
    )


#: A changed address is confirmed from the new address within this time.
EMAIL_CHANGE_VALID_FOR = timedelta(hours=48)
EMAIL_CHANGE_SALT = "bordpunt.clubs.email_change"


def email_in_use(email: str, *, other_than: AbstractBaseUser | None = None) -> bool:
    """Whether another account has the address, as its address or as its username."""
    key = email.strip().lower()
    users = get_user_model().objects.filter(Q(username=key) | Q(email__iexact=key))
    if other_than is not None:
        users = users.exclude(pk=other_than.pk)
    return users.exists()


def email_change_token(user: AbstractBaseUser, new_email: str) -> str:
    """Signed, with the account's current address: once the address has changed, the link
    no longer matches, so it works once."""
    return signing.TimestampSigner(salt=EMAIL_CHANGE_SALT).sign_object(
        {"user": user.pk, "old": getattr(user, "email", "").lower(), "new": new_email.strip()}
    )


INVALID_CHANGE = _(
    "This link no longer works: it has been used, it expired, or the address changed "
    "since. Ask for a new one on your account page."
)


def _email_change_payload(token: str) -> dict[str, Any]:
    try:
        payload = signing.TimestampSigner(salt=EMAIL_CHANGE_SALT).unsign_object(
            token, max_age=EMAIL_CHANGE_VALID_FOR
        )
    except (signing.BadSignature, ValueError):
        raise AccountError(INVALID_CHANGE) from None
    if not (
        isinstance(payload, dict)
        and isinstance(payload.get("user"), int)
        and isinstance(payload.get("old"), str)
        and isinstance(payload.get("new"), str)
    ):
        raise AccountError(INVALID_CHANGE)
    return payload


def email_change_waiting(token: str) -> tuple[User, str]:
    """The account and the new address a link would set, to show before it is followed."""
    payload = _email_change_payload(token)
    user = User.objects.filter(pk=payload["user"]).first()
    if user is None or user.email.lower() != payload["old"]:
        raise AccountError(INVALID_CHANGE)
    return user, payload["new"]


@transaction.atomic
def email_change_confirm(token: str, *, now: datetime | None = None) -> User:
    """Set the address the link names. An account whose username was its address (a club's
    sign-up) gets the new one as its username too, so it logs in with it. Kept in the
    history of each club of the account's player."""
    payload = _email_change_payload(token)
    user = row_lock(User.objects).filter(pk=payload["user"]).first()
    if user is None or user.email.lower() != payload["old"]:
        raise AccountError(INVALID_CHANGE)
    new = payload["new"]
    if email_in_use(new, other_than=user):
        raise AccountError(_("Another account has this address already."))
    before = {"email": user.email}
    if user.username == payload["old"] and payload["old"]:
        user.username = new.lower()
    user.email = new
    try:
        with transaction.atomic():
            user.save(update_fields=["email", "username"])
    except IntegrityError:  # the username taken at this very moment
        raise AccountError(_("Another account has this address already.")) from None
    player = Player.objects.filter(user=user).first()
    if player is not None:
        player_history_record(
            player,
            by=user,
            action=HistoryAction.ACCOUNT_EMAIL,
            before=before,
            after={"email": new},
            at=now,
        )
    return user
