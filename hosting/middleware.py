"""The club's status and the operator's acting, asked once per request here, for every page.

`OperatorMiddleware` (after authentication): an operator acting for a club (the session
keeps it, `hosting.views.ACTING`) manages that club in this request: it sets
`clubs.permissions.ACTING_FOR` on the user, which `can_manage_club` reads. A session that
says so for an account without the permission is cleared.

`ClubStatusMiddleware` holds a club's status (`clubs.models.ClubStatus`) for every view
whose URL names a club (`<club>`):
- suspended (`clubs.permissions.club_is_read_only`): every write (any method but GET,
  HEAD, OPTIONS, TRACE) is refused before the view runs, with a 403 that says why (htmx:
  a redirect to the page, which says it); the pages stay readable and say that the club
  is suspended. A game's pages are addressed by the game (`/partij/<id>/`): their writes
  (the board's moves, a player's own result, the clock) are refused by `games.policy`,
  which every writer of a game asks and which has the club loaded already;
- pending (waiting for the operator's approval): its pages are a 404 for everyone but its
  secretaries (who prepare it), staff and the operator.
A new page under a club's address is covered without being listed anywhere. The
operator's own pages (`operator_page`) are left alone. It costs one query on a write to
an address of a club, and on a page of a club at most one per `STATUS_SECONDS` (the
cache), none elsewhere.

Django: middleware.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from clubs.models import Club, ClubStatus
from clubs.permissions import (
    ACTING_FOR,
    CLUB_SUSPENDED,
    can_manage_club,
    club_is_read_only,
    is_operator,
)

#: The session's key for the club the operator acts for: {"id", "slug", "name"}.
ACTING = "hosting.acting"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def operator_page(view):
    """Mark a view as the operator's: the club's status does not apply to it."""
    view.operator_page = True
    return view


class OperatorMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        # The session is read only when the request has one (no query for a visitor); with
        # one, `config.middleware.SharedDeviceMiddleware` has read it already.
        if request.session.session_key is not None and ACTING in request.session:
            acting = request.session[ACTING]
            if is_operator(request.user):
                setattr(request.user, ACTING_FOR, acting["id"])
                request.acting_club = acting
            else:
                del request.session[ACTING]
        return self.get_response(request)


#: How long a page may show a club's status as it was (a write always reads it afresh).
STATUS_SECONDS = 10


def _status_key(slug: str) -> str:
    return f"hosting.club-status:{slug}"


def club_status(slug: str, *, fresh: bool) -> Club | None:
    """The club of `slug` with its name and status, or None when there is none.

    A write reads the database: a suspension holds from the moment it is committed. A page
    may read the cache, for `STATUS_SECONDS` at most: the phones of a duplicate evening ask
    for the next draw every few seconds in one query, and a second one for the status on
    each would double it. The operator's services forget the cached status when they change
    it (`forget_club_status`), so with Redis every server sees a change at once; with a
    cache per process (no REDIS_URL) another worker may show the old status's notice for
    those seconds. A club that is not found is not cached: one made meanwhile counts at once.
    """
    if len(slug) > (Club._meta.get_field("slug").max_length or 0):
        return None  # no club's: not asked of the cache (a key of any length) nor the database
    key = _status_key(slug)
    if not fresh:
        cached = cache.get(key)
        if cached is not None:
            pk, name, status = cached
            return Club(pk=pk, name=name, slug=slug, status=status)
    row = Club.objects.filter(slug=slug).values_list("pk", "name", "status").first()
    if row is None:
        return None
    cache.set(key, row, STATUS_SECONDS)
    pk, name, status = row
    return Club(pk=pk, name=name, slug=slug, status=status)


def forget_club_status(slug: str) -> None:
    """After a change of the club's status has been committed: the next page reads it."""
    cache.delete(_status_key(slug))


class ClubStatusMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(view_func, "operator_page", False):
            return None
        slug = view_kwargs.get("club")
        if not isinstance(slug, str):
            return None
        club = club_status(slug, fresh=request.method not in SAFE_METHODS)
        if club is None or club.status == ClubStatus.ACTIVE:
            return None
        request.club_state = {"name": club.name, "status": club.status}
        if club.status == ClubStatus.PENDING and not (
            can_manage_club(request.user, club) or is_operator(request.user)
        ):
            raise Http404("The club waits for the operator's approval.")
        if club_is_read_only(club) and request.method not in SAFE_METHODS:
            return suspended_refusal(request, club)
        return None


def suspended_refusal(request, club: Club) -> HttpResponse:
    """A write to a suspended club: refused, saying why, nothing changed."""
    if getattr(request, "htmx", False):
        # htmx would swap the page into the part it posted from: the page itself says it.
        messages.error(request, CLUB_SUSPENDED)
        response = HttpResponse(str(CLUB_SUSPENDED), status=403)
        back = request.htmx.current_url
        if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
            response["HX-Redirect"] = back
        return response
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = club.get_absolute_url()
    return render(
        request,
        "hosting/suspended.html",
        {"club": club, "message": CLUB_SUSPENDED, "back": back},
        status=403,
    )
