"""The club's status and the operator's acting, asked once per request here, for every page.

`OperatorMiddleware` (after authentication): an operator acting for a club (the session
keeps it, `hosting.views.ACTING`) manages that club in this request: it sets
`clubs.permissions.ACTING_FOR` on the user, which `can_manage_club` reads. A session that
says so for an account without the permission is cleared.

`ClubStatusMiddleware` holds the one rule of a club's status (`clubs.models.ClubStatus`)
for every view whose URL names a club (`<club>`) or, for writes, a game (`<game_id>`):
- suspended: every write (any method but GET, HEAD, OPTIONS, TRACE) is refused before the
  view runs, with a 403 that says why (htmx: a redirect to the page, which says it); the
  pages stay readable and say that the club is suspended;
- pending (waiting for the operator's approval): its pages are a 404 for everyone but its
  secretaries (who prepare it), staff and the operator.
A new page under a club's address is covered without being listed anywhere. The
operator's own pages (`operator_page`) are left alone. It costs one query on a page of a
club, none elsewhere.

Django: middleware.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubStatus
from clubs.permissions import ACTING_FOR, can_manage_club, is_operator
from games.models import Game

#: The session's key for the club the operator acts for: {"id", "slug", "name"}.
ACTING = "hosting.acting"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
SUSPENDED = _(
    "This club is suspended by the operator of Bordpunt: everything can be read, "
    "but nothing can be changed."
)


def operator_page(view):
    """Mark a view as the operator's: the club's status does not apply to it."""
    view.operator_page = True
    return view


class OperatorMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        # The session is read only when the request has one (no query for a visitor).
        if request.session.session_key is not None and ACTING in request.session:
            acting = request.session[ACTING]
            if is_operator(request.user):
                setattr(request.user, ACTING_FOR, acting["id"])
                request.acting_club = acting
            else:
                del request.session[ACTING]
        return self.get_response(request)


def _club_of(view_kwargs, *, writes: bool) -> Club | None:
    slug = view_kwargs.get("club")
    if isinstance(slug, str):
        return Club.objects.only("pk", "name", "slug", "status").filter(slug=slug).first()
    game_id = view_kwargs.get("game_id")
    if writes and isinstance(game_id, int):
        found = (
            Game.objects.filter(pk=game_id)
            .values_list(
                "round__competition__club_id",
                "round__competition__club__name",
                "round__competition__club__slug",
                "round__competition__club__status",
            )
            .first()
        )
        if found is not None:
            return Club(pk=found[0], name=found[1], slug=found[2], status=found[3])
    return None


class ClubStatusMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(view_func, "operator_page", False):
            return None
        writes = request.method not in SAFE_METHODS
        club = _club_of(view_kwargs, writes=writes)
        if club is None or club.status == ClubStatus.ACTIVE:
            return None
        request.club_state = {"name": club.name, "status": club.status}
        if club.status == ClubStatus.PENDING and not (
            can_manage_club(request.user, club) or is_operator(request.user)
        ):
            raise Http404("The club waits for the operator's approval.")
        if club.status == ClubStatus.SUSPENDED and writes:
            return suspended_refusal(request, club)
        return None


def suspended_refusal(request, club: Club) -> HttpResponse:
    """A write to a suspended club: refused, saying why, nothing changed."""
    if getattr(request, "htmx", False):
        # htmx would swap the page into the part it posted from: the page itself says it.
        messages.error(request, SUSPENDED)
        response = HttpResponse(str(SUSPENDED), status=403)
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
        {"club": club, "message": SUSPENDED, "back": back},
        status=403,
    )
