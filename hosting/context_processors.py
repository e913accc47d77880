"""The banners of every page: the club the operator acts for, a club's status.

Django: a context processor; what it shows was read by `hosting.middleware`.
"""

from __future__ import annotations


def hosting(request) -> dict:
    return {
        "acting_club": getattr(request, "acting_club", None),
        "club_state": getattr(request, "club_state", None),
    }
