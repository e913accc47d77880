"""Cheap repeat visits: the public pages answer a conditional request with 304.

A page's ETag is a hash of what decides its content: the competition's last change
(`Competition.changed_at`, see competition/versioning.py), the release of the code, the
reader's language, and whether the reader sees drafts (a secretary sees more). HTML pages
also carry the user and the CSRF cookie (their forms hold a token made from it), so one
browser's copy never answers for another's. A 304 costs one query: the timestamp.

The browser is told to revalidate every time (`no-cache`): a change shows at once.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache, wraps

from django.conf import settings
from django.contrib import messages
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition

from clubs.models import Club
from clubs.permissions import can_manage_club
from competition.models import Competition


@cache
def release() -> str:
    """What changes with a new version of the code: `BORDPUNT_RELEASE`, or else a digest of
    the code, templates and translations on disk (the same in every worker)."""
    if os.environ.get("BORDPUNT_RELEASE"):
        return os.environ["BORDPUNT_RELEASE"]
    digest = hashlib.sha256()
    for folder in ("clubs", "competition", "config", "games", "templates", "locale"):
        for path in sorted((settings.BASE_DIR / folder).rglob("*")):
            if path.suffix in {".py", ".html", ".mo"}:
                stat = path.stat()
                digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}".encode())
    return digest.hexdigest()[:16]


def _etag(request, *, club: str, competition: str, personal: bool) -> str | None:
    row = (
        Competition.objects.filter(club__slug=club, slug=competition)
        .values_list("changed_at", "club_id")
        .first()
    )
    if row is None:
        return None  # the view answers 404
    if personal:
        if settings.CSRF_COOKIE_NAME not in request.COOKIES:
            return None  # a first visit: the page sets the cookie its forms are made from
        if len(messages.get_messages(request)):
            return None  # a message waits to be shown: render the page
    changed_at, club_id = row
    user = request.user
    sees_drafts = user.is_authenticated and can_manage_club(user, Club(pk=club_id))
    parts = [
        changed_at.isoformat(),
        release(),
        request.LANGUAGE_CODE,
        "drafts" if sees_drafts else "public",
    ]
    if personal:
        parts += [str(user.pk or ""), request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def conditional_page(view=None, *, personal: bool = True):
    """Answer If-None-Match with 304 while the competition is unchanged.

    `personal=False` for the JSON and CSV exports: the same for every reader.
    """

    def decorate(view):
        conditional = condition(
            etag_func=lambda request, club, competition, **kwargs: _etag(
                request, club=club, competition=competition, personal=personal
            )
        )(view)

        @wraps(view)
        def wrapper(request, *args, **kwargs):
            response = conditional(request, *args, **kwargs)
            if response.has_header("ETag"):
                if personal:
                    patch_cache_control(response, no_cache=True, private=True)
                else:
                    patch_cache_control(response, no_cache=True)
            return response

        return wrapper

    return decorate(view) if view is not None else decorate
