"""The signed address of a one-click unsubscribe: it names a person and a kind, needs no
login, and cannot be made for someone else without the secret key."""

from __future__ import annotations

from django.core import signing

from notifications.kinds import Kind

SALT = "notifications.unsubscribe"


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return signing.dumps([user_id, kind], salt=SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[int, str] | None:
    """(user id, kind) of a valid token, else None (forged, cut short, an unknown kind)."""
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    match value:
        case [int(user_id), str(kind)] if kind in Kind.values:
            return user_id, kind
    return None
