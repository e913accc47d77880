"""What Django's own signals mean to the operator: a logout ends acting for a club.

Django: signal receivers.
"""

from __future__ import annotations

from hosting.middleware import ACTING
from hosting.services import acting_stop


def acting_ends_at_logout(sender, request, user, **kwargs) -> None:
    """Record the end of acting before the session (which holds it) is flushed."""
    session = getattr(request, "session", None)
    if user is None or session is None:
        return
    acting = session.get(ACTING)
    if acting is not None:
        acting_stop(club_id=acting["id"], by=user)
