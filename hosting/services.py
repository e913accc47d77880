"""The hosted service's writes: a club that signs itself up, and the operator's actions on
a club.

Sign-up: the sign-up waits for its mailed link, and following the link makes the account,
the player, the club and the secretary's membership together, or nothing. The links are
signed with Django's signing (`TimestampSigner`), so they expire by themselves and carry
nothing to store; a confirmation link names its sign-up row and that row's key, so it works
once (the row goes when it is used) and only for the newest sign-up of the address.
BORDPUNT_SIGNUP chooses who may sign up (config/settings.py).

The operator: approve, suspend, reactivate, remove a club, act for it. Each runs inside
`transaction.atomic` with the club's row locked (`clubs.locks.club_lock`) and leaves one
history entry with who, when, before, after and why; a refused action changes nothing and
leaves no entry. Who may call them is the views' check (`clubs.permissions.is_operator`);
the services check the club's state.

Django: services.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from archives.removal import club_rows_delete
from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock, club_names_lock, row_lock
from clubs.models import Club, ClubStatus, HistoryEntry, Membership, Player, club_name_taken
from clubs.slugs import validate_club_slug
from competition.services.competitions import competition_create
from hosting.middleware import forget_club_status
from hosting.models import SignUp, SignUpInvitation

CONFIRM_SALT = "bordpunt.hosting.signup"
INVITATION_SALT = "bordpunt.hosting.invitation"
#: Room for "-99" behind the name's part of a short name (a SlugField holds 50).
SLUG_BASE_LENGTH = 40


class SignUpError(Exception):
    """A sign-up that cannot go on; the message is for the person."""

    def __init__(self, message: Any) -> None:
        super().__init__(message)
        self.message = message


def email_key(email: str) -> str:
    """One address however it is written: the username of its account."""
    return email.strip().lower()


def account_exists(email: str) -> bool:
    """Whether the address has an account: as its username or as its e-mail address."""
    key = email_key(email)
    return get_user_model().objects.filter(Q(username=key) | Q(email__iexact=key)).exists()


@dataclass(frozen=True)
class Requested:
    """What a sign-up led to. The visitor sees the same page whatever it is."""

    signup: SignUp | None  # None: the address has an account, or another tab just signed up
    token: str = ""
    has_account: bool = False


def signup_request(
    *,
    email: str,
    club_name: str,
    city: str,
    secretary_name: str,
    password: str,
    language: str = "",
    now: datetime | None = None,
) -> Requested:
    """Keep a sign-up until its link is followed; a newer one for the address replaces it
    (the older link then stops working). `password` has passed the password validators.
    Sign-ups older than the link's life are removed on the way."""
    now = now or timezone.now()
    if account_exists(email):
        return Requested(signup=None, has_account=True)
    try:
        with transaction.atomic():
            SignUp.objects.filter(
                created_at__lt=now - timedelta(hours=settings.SIGNUP_LINK_HOURS)
            ).delete()
            SignUp.objects.filter(email__iexact=email_key(email)).delete()
            signup = SignUp.objects.create(
                email=email.strip(),
                club_name=club_name.strip(),
                city=city.strip(),
                secretary_name=secretary_name.strip(),
                password=make_password(password),
                key=secrets.token_hex(16),
                language=language[:8],
                created_at=now,
            )
    except IntegrityError:  # the same address signed up at this very moment: that one mails
        return Requested(signup=None)
    return Requested(signup=signup, token=confirm_token(signup))


def confirm_token(signup: SignUp) -> str:
    return signing.TimestampSigner(salt=CONFIRM_SALT).sign_object(
        {"id": signup.pk, "key": signup.key}
    )


def _confirm_payload(token: str) -> dict[str, Any]:
    """The link's content, or a SignUpError that says why it does not work."""
    try:
        payload = signing.TimestampSigner(salt=CONFIRM_SALT).unsign_object(
            token, max_age=timedelta(hours=settings.SIGNUP_LINK_HOURS)
        )
    except signing.SignatureExpired:
        raise SignUpError(_("This link has expired. Sign up again for a new one.")) from None
    except (signing.BadSignature, ValueError):
        raise SignUpError(_("This link is not valid. Copy the whole link from the mail.")) from None
    if not isinstance(payload, dict) or not isinstance(payload.get("id"), int):
        raise SignUpError(_("This link is not valid. Copy the whole link from the mail."))
    return payload


USED = _(
    "This link has been used already, or a newer sign-up replaced it. Log in, or sign up again."
)


def signup_waiting(token: str) -> SignUp:
    """The sign-up a link confirms, to show before it is confirmed."""
    payload = _confirm_payload(token)
    signup = SignUp.objects.filter(pk=payload["id"], key=str(payload.get("key"))).first()
    if signup is None:
        raise SignUpError(USED)
    return signup


def club_slug_for(name: str) -> str:
    """A free short name from the club's name: "De Goudse Letters" -> "de-goudse-letters",
    then "-2", "-3"... A name without Latin letters becomes "club"; a short name that a page
    of the site has is passed over."""
    base = slugify(name)[:SLUG_BASE_LENGTH].strip("-_") or "club"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    number = 1
    while True:
        slug = base if number == 1 else f"{base}-{number}"
        number += 1
        if slug in taken:
            continue
        try:
            validate_club_slug(slug)
        except ValidationError:
            continue
        return slug


@dataclass(frozen=True)
class Confirmed:
    user: User
    club: Club


def signup_confirm(token: str, *, now: datetime | None = None) -> Confirmed:
    """Make the account, the player, the club and the membership, in one transaction, and
    use the sign-up up. Two clicks at once: the row is locked, the second finds it gone. Two
    sign-ups of one club name at once: the names' lock (clubs.locks.club_names_lock) lets
    the second check the name after the first one's club is there. A club made by other
    means (the admin) at the same moment with the same short name: everything is rolled
    back and tried once more, when the name check sees that club."""
    payload = _confirm_payload(token)
    for attempt in range(2):
        try:
            return _confirm(payload, now=now or timezone.now())
        except IntegrityError:
            if attempt:
                raise SignUpError(
                    _("The club could not be made just now. Follow the link once more.")
                ) from None
    raise AssertionError("unreachable")


def _club_with_secretary(
    user: User, *, secretary_name: str, club_name: str, city: str, status: str, now: datetime
) -> Club:
    """A new club with `user` as its secretary's account: the player, the club, the
    membership and the history's entry. Inside the caller's transaction."""
    player = Player.objects.create(name=secretary_name, user=user)
    club = Club(name=club_name, slug=club_slug_for(club_name), city=city, status=status)
    club.created_at = now
    club.save()
    Membership.objects.create(club=club, player=player, role=Membership.Role.SECRETARY)
    history_record(
        club_id=club.pk,
        by=user,
        action=HistoryAction.CLUB_SIGNUP,
        object_type="club",
        object_id=club.pk,
        label=club.name,
        after={
            "name": club.name,
            "slug": club.slug,
            "city": club.city,
            "username": user.get_username(),
        },
        at=now,
    )
    return club


@transaction.atomic
def _confirm(payload: dict[str, Any], *, now: datetime) -> Confirmed:
    signup = row_lock(SignUp.objects).filter(pk=payload["id"], key=str(payload.get("key"))).first()
    if signup is None:
        raise SignUpError(USED)
    club_names_lock()
    if account_exists(signup.email):
        raise SignUpError(
            _("This address already has an account. Log in, or ask for a new password.")
        )
    if club_name_taken(signup.club_name):
        raise SignUpError(
            _(
                "Another club with this name signed up in the meantime. Sign up again "
                "with another name."
            )
        )
    user = User(username=email_key(signup.email), email=signup.email)  # AUTH_USER_MODEL
    user.password = signup.password  # hashed at sign-up
    user.save()
    club = _club_with_secretary(
        user,
        secretary_name=signup.secretary_name,
        club_name=signup.club_name,
        city=signup.city,
        status=ClubStatus.PENDING if settings.SIGNUP_MODE == "approve" else ClubStatus.ACTIVE,
        now=now,
    )
    signup.delete()
    return Confirmed(user=user, club=club)


def invitation_token(email: str) -> str:
    return signing.TimestampSigner(salt=INVITATION_SALT).sign_object({"email": email_key(email)})


def invited_email(token: str) -> str | None:
    """The address an operator's invitation names, while it is valid; None otherwise."""
    try:
        payload = signing.TimestampSigner(salt=INVITATION_SALT).unsign_object(
            token, max_age=timedelta(days=settings.SIGNUP_INVITATION_DAYS)
        )
    except (signing.BadSignature, ValueError):
        return None
    email = payload.get("email") if isinstance(payload, dict) else None
    return email if isinstance(email, str) else None


@transaction.atomic
def signup_invite(*, email: str, by: User) -> str:
    """The operator invites an address to sign a club up: kept as a `SignUpInvitation`;
    the signed token for the mailed link is returned."""
    SignUpInvitation.objects.create(email=email.strip(), by=by, by_name=by.get_username())
    return invitation_token(email)


#: Entries that change nothing of the club's data: an archive taken after them still holds
#: everything, so they do not count as the club's last change for its removal.
NOT_A_CHANGE = (
    HistoryAction.ARCHIVE_DOWNLOAD,
    HistoryAction.OPERATOR_ACT_START,
    HistoryAction.OPERATOR_ACT_STOP,
)

#: Which status each action takes a club from, and to.
TRANSITIONS = {
    HistoryAction.OPERATOR_APPROVE: ((ClubStatus.PENDING,), ClubStatus.ACTIVE),
    HistoryAction.OPERATOR_SUSPEND: ((ClubStatus.ACTIVE, ClubStatus.PENDING), ClubStatus.SUSPENDED),
    HistoryAction.OPERATOR_REACTIVATE: ((ClubStatus.SUSPENDED,), ClubStatus.ACTIVE),
}


class OperatorError(Exception):
    """An operator's action refused; `message` says why in the reader's language."""

    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Removal:
    """What a removal took: the club's name and short name, and the rows of each model."""

    name: str
    slug: str
    deleted: dict[str, int]


def _locked(club: Club) -> Club:
    club_lock(club.pk)
    fresh = Club.objects.filter(pk=club.pk).first()
    if fresh is None:
        raise OperatorError(_("This club no longer exists."))
    return fresh


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise OperatorError(_("Give a reason: it is kept in the club's history."))
    return reason


@transaction.atomic
def club_set_status(*, club: Club, action: HistoryAction, by: Any, reason: str = "") -> Club:
    """Approve, suspend or reactivate `club` (`TRANSITIONS`); suspending needs a reason."""
    sources, target = TRANSITIONS[action]
    if action == HistoryAction.OPERATOR_SUSPEND:
        reason = _reason(reason)
    club = _locked(club)
    if club.status not in sources:
        raise OperatorError(
            _("This club is %(status)s: that cannot be done now.")
            % {"status": club.get_status_display()}
        )
    before = club.status
    Club.objects.filter(pk=club.pk).update(status=target)
    club.status = target
    slug = club.slug
    transaction.on_commit(lambda: forget_club_status(slug))
    history_record(
        club_id=club.pk,
        by=by,
        action=action,
        object_type="club",
        object_id=club.pk,
        label=club.name,
        before={"club_status": before},
        after={"club_status": target},
        reason=reason,
    )
    return club


def last_change_at(club: Club) -> datetime | None:
    """When the club last changed: its newest history entry that changed something."""
    return (
        HistoryEntry.objects.filter(club=club)
        .exclude(action__in=NOT_A_CHANGE)
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )


def removal_refusal(club: Club) -> Any | None:
    """Why `club` may not be removed now, or None: only after its archive was downloaded
    later than its last change, so that nothing of it is lost with it."""
    downloaded = club.archive_downloaded_at
    if downloaded is None:
        return _("Download the club's archive first: a club is removed only after that.")
    changed = last_change_at(club)
    if changed is not None and changed >= downloaded:
        return _(
            "The club changed after its archive was last downloaded: download it again, "
            "then remove the club."
        )
    return None


@transaction.atomic
def club_remove(*, club: Club, by: Any, reason: str, confirm_slug: str) -> Removal:
    """Delete `club` and everything of it, its history too (the archive keeps it) but the
    operator's own entries about it (`clubs.history.OPERATOR_KEPT`); one entry without a
    club keeps the fact: who, when, which club (name, short name, town), why."""
    reason = _reason(reason)
    club = _locked(club)
    if confirm_slug.strip() != club.slug:
        raise OperatorError(_("Type the club's short name to confirm the removal."))
    refusal = removal_refusal(club)
    if refusal is not None:
        raise OperatorError(refusal)
    before = {
        "name": club.name,
        "slug": club.slug,
        "city": club.city,
        "club_status": club.status,
        "archive_downloaded_at": club.archive_downloaded_at,
    }
    deleted = club_rows_delete(club)
    slug = club.slug
    transaction.on_commit(lambda: forget_club_status(slug))
    history_record(
        club_id=None,
        by=by,
        action=HistoryAction.OPERATOR_REMOVE,
        object_type="club",
        object_id=club.pk,
        label=club.name,
        before=before,
        reason=reason,
    )
    return Removal(name=club.name, slug=club.slug, deleted=deleted)


@transaction.atomic
def acting_start(*, club: Club, by: Any, reason: str) -> None:
    """Record that the operator starts acting for `club` (the session keeps it: the view)."""
    reason = _reason(reason)
    club = _locked(club)
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.OPERATOR_ACT_START,
        object_type="club",
        object_id=club.pk,
        label=club.name,
        reason=reason,
        at=timezone.now(),
    )


@transaction.atomic
def acting_stop(*, club_id: int, by: Any) -> None:
    """Record that the operator stops acting for the club (gone meanwhile: nothing to keep)."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.OPERATOR_ACT_STOP,
        object_type="club",
        object_id=club.pk,
        label=club.name,
    )


class FirstRunError(Exception):
    """Why the first-run setup cannot make the club (the message is for the user)."""


FIRST_RUN_DONE = _("This Bordpunt has its club already: log in.")


@transaction.atomic
def club_first_run(
    *,
    club_name: str,
    secretary_name: str,
    username: str,
    password: str,
    rules: str,
    competition_name: str,
    now: datetime | None = None,
) -> Confirmed:
    """An installed Bordpunt's first club (`bordpunt run` on an empty home): the
    secretary's account, player and membership, the club, and its first competition under
    the chosen rules, together or not at all. Refused once the home has a club: SQLite's
    write lock, taken at BEGIN, lets two clicks at once in one at a time."""
    now = now or timezone.now()
    if Club.objects.exists():
        raise FirstRunError(FIRST_RUN_DONE)
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise FirstRunError(_("This username is taken. Choose another."))
    user = User(username=username)  # AUTH_USER_MODEL
    user.set_password(password)
    user.save()
    club = _club_with_secretary(
        user,
        secretary_name=secretary_name,
        club_name=club_name,
        city="",
        status=ClubStatus.ACTIVE,
        now=now,
    )
    competition_create(
        club=club,
        settings={
            "name": competition_name,
            "slug": slugify(competition_name)[:50] or "competitie",
            "rules": rules,
        },
        by=user,
    )
    return Confirmed(user=user, club=club)
