"""Cheap repeat visits: the public pages answer a conditional request with 304.

A page's ETag is a hash of what decides its content: the competition's last change
(`Competition.changed_at`, see competition/versioning.py), its club's status (a suspended
club's pages say so), the release of the code, the
reader's language, and whether the reader sees drafts (a secretary sees more). HTML pages
also carry the user and the CSRF cookie (their forms hold a token made from it), so one
browser's copy never answers for another's. A 304 costs one query: the timestamp.

The browser is told to revalidate every time (`no-cache`): a change shows at once.
`RepeatVisitMiddleware` answers the visitor without a session before the rest of the
middleware runs; the view's decorator answers everyone else.

The pages that are the same for every reader (`personal=False`: the club-room screen, the
exports) are also kept whole in the cache for visitors without a session, under their
ETag: the screens of a room's twenty followers, who poll every 15 seconds while moves come
in, are rendered once per change, by whichever app server comes first, not once per
follower (benchmarks/hosted.py). The key holds the version, so nothing is invalidated.
"""

from __future__ import annotations

import functools
import hashlib
import os
from functools import wraps
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags, quote_etag
from django.views.decorators.http import condition, require_safe

from clubs.language import chosen_language
from clubs.models import Club
from competition.models import Competition
from events.permissions import manages_competition_of


@functools.cache
def release() -> str:
    """What changes with a new version of the code: `BORDPUNT_RELEASE`, or else a digest of
    the code, templates, translations and static files on disk (the same in every worker):
    a page refers to the static files by their hashed names, so a new stylesheet alone
    must change the page's ETag too."""
    if os.environ.get("BORDPUNT_RELEASE"):
        return os.environ["BORDPUNT_RELEASE"]
    digest = hashlib.sha256()
    folders = {Path(app.path) for app in apps.get_app_configs()} & {
        path for path in settings.BASE_DIR.iterdir() if path.is_dir()
    }
    shared = ("config", "rules", "templates", "locale", "static")
    folders |= {settings.BASE_DIR / name for name in shared}
    for folder in sorted(folders):
        for path in sorted(folder.rglob("*")):
            if path.suffix in {".py", ".html", ".mo", ".css", ".js", ".svg"}:
                stat = path.stat()
                digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}".encode())
    return digest.hexdigest()[:16]


def _etag(request, *, club: str, competition: str, personal: bool) -> str | None:
    row = (
        Competition.objects.filter(club__slug=club, slug=competition)
        .values_list("changed_at", "club_id", "club__status", "event_id")
        .first()
    )
    if row is None:
        return None  # the view answers 404
    if personal:
        if settings.CSRF_COOKIE_NAME not in request.COOKIES:
            return None  # a first visit: the page sets the cookie its forms are made from
        if _message_waiting(request):
            return None  # a message waits to be shown: render the page
    changed_at, club_id, club_status, event_id = row
    user = getattr(request, "user", None)
    sees_drafts = (
        user is not None
        and user.is_authenticated
        and manages_competition_of(user, club=Club(pk=club_id), event_id=event_id)
    )
    parts = [
        str(changed_at),
        club_status,  # a suspended club's pages say so (hosting.middleware)
        release(),
        request.LANGUAGE_CODE,
        "drafts" if sees_drafts else "public",
    ]
    if personal:
        user_id = str(user.pk) if user is not None and user.is_authenticated else ""
        parts += [user_id, request.COOKIES[settings.CSRF_COOKIE_NAME]]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def _message_waiting(request) -> bool:
    if hasattr(request, "_messages"):
        return bool(len(messages.get_messages(request)))
    # Before the session middleware (the fast path below): only a visitor without a
    # session comes this far, so a waiting message can only be in its cookie.
    return bool(request.COOKIES.get(CookieStorage.cookie_name))


def _revalidated(response: HttpResponseBase, *, personal: bool) -> HttpResponseBase:
    if response.has_header("ETag"):
        if personal:
            patch_cache_control(response, no_cache=True, private=True)
        else:
            patch_cache_control(response, no_cache=True)
    return response


def conditional_page(view=None, *, personal: bool = True):
    """Answer If-None-Match with 304 while the competition is unchanged.

    `personal=False` for the JSON and CSV exports: the same for every reader. A page
    with an ETag is a read: GET and HEAD only, any other method is a 405.
    """

    def decorate(view):
        def etag(request, club: str, competition: str, **kwargs) -> str | None:
            if hasattr(request, "repeat_visit_etag"):  # the middleware's, a query ago
                return request.repeat_visit_etag
            return _etag(request, club=club, competition=competition, personal=personal)

        conditional = require_safe(condition(etag_func=etag)(view))

        @wraps(view)
        def wrapper(request, *args, **kwargs):
            return _revalidated(conditional(request, *args, **kwargs), personal=personal)

        wrapper.repeat_visit_etag = etag  # type: ignore[attr-defined]  # read by the middleware
        wrapper.repeat_visit_personal = personal  # type: ignore[attr-defined]  # likewise
        return wrapper

    return decorate(view) if view is not None else decorate


#: How long a whole page stays in the cache: its key changes with the competition anyway.
PAGE_SECONDS = 600


class RepeatVisitMiddleware:
    """For a visitor without a session, before sessions, authentication and messages are
    even set up: the 304 of a reload of an unchanged page (the club-room screen's poll
    costs one query), and the kept copy of a page that is the same for every reader.

    Same ETag as the view's own (`conditional_page`); everyone else (logged in, a message
    waiting, no matching ETag) goes through the whole stack as usual.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.method in ("GET", "HEAD")
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
        ):
            response = self._answered(request)
            if response is not None:
                return response
        return self.get_response(request)

    def _answered(self, request) -> HttpResponseBase | None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        etag_func = getattr(match.func, "repeat_visit_etag", None)
        if etag_func is None:
            return None
        personal = match.func.repeat_visit_personal  # type: ignore[attr-defined]  # set above
        if personal and "HTTP_IF_NONE_MATCH" not in request.META:
            return None  # only a 304 is answered here, and this asks for none
        request.LANGUAGE_CODE = chosen_language(request)
        etag = etag_func(request, *match.args, **match.kwargs)
        if not personal:  # the same for every reader: the view's decorator need not ask again
            request.repeat_visit_etag = etag
        if etag is None:
            return None
        if quote_etag(etag) in parse_etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
            response = HttpResponseNotModified()
            response["ETag"] = quote_etag(etag)
            return _revalidated(response, personal=personal)
        if personal or request.method != "GET":
            return None
        return self._kept_page(request, etag)

    def _kept_page(self, request, etag: str) -> HttpResponseBase:
        """The page from the cache, or rendered and kept there."""
        path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:32]
        key = f"page:{etag}:{path}"
        kept = cache.get(key)
        if kept is not None:
            response = HttpResponse(kept["content"], status=200)
            for name, value in kept["headers"]:
                response[name] = value
            return response
        response = self.get_response(request)
        if (
            response.status_code == 200
            and not response.streaming
            and not response.cookies
            and response.get("ETag") == quote_etag(etag)
        ):
            # Every header the stack below set (the Content-Security-Policy, framing, the
            # ETag): a kept page is answered as it was. Cookies are not headers here.
            headers = list(response.items())
            cache.set(key, {"content": response.content, "headers": headers}, PAGE_SECONDS)
        return response
