"""The operator's pages under /dienst/: the clubs, their status, acting for one.

Thin: each action is one service of `hosting.services`, its refusal a message. Only an
account with the operator's permission (`clubs.permissions.is_operator`) comes in; anyone
else is refused as the secretary's pages refuse (login, then 403).

Django: views.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.history import HistoryAction
from clubs.models import Club, ClubStatus
from clubs.permissions import is_operator
from hosting import services
from hosting.forms import ReasonForm, RemoveForm, StatusFilterForm
from hosting.middleware import ACTING, operator_page
from hosting.selectors import clubs_for_operator, operator_history
from hosting.services import OperatorError


def operator_required(view):
    """The operator's alone: a visitor is sent to log in, anyone else refused (403)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_operator(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return operator_page(wrapper)


def _reason_error(form) -> str:
    """What is wrong with the typed reason (too long, a null character), as Django says it."""
    return form.errors["reason"][0]


@operator_required
def club_list(request):
    """Every club with its status, town, creation, members, competitions, last activity."""
    form = StatusFilterForm(request.GET or None)
    status = form.cleaned_data["status"] if form.is_valid() else None
    return render(
        request,
        "hosting/clubs.html",
        {"clubs": clubs_for_operator(status or None), "form": form, "status": status},
    )


@operator_required
def club_page(request, club: str):
    """One club: its status, its archive, and the operator's actions."""
    club_obj = get_object_or_404(Club, slug=club)
    return render(
        request,
        "hosting/club.html",
        {
            "club": club_obj,
            "ClubStatus": ClubStatus,
            "last_change": services.last_change_at(club_obj),
            "removal_refusal": services.removal_refusal(club_obj),
            # One form per action, each with its own ids on the one page.
            "forms": {
                name: ReasonForm(auto_id=f"id_{name}_%s")
                for name in ("approve", "suspend", "reactivate", "act")
            },
            "remove_form": RemoveForm(auto_id="id_remove_%s"),
            "history": club_obj.history.filter(action__startswith="operator.").select_related("by")[
                :20
            ],
            "acting": getattr(request, "acting_club", None),
        },
    )


@operator_required
def history_page(request):
    """The operator's actions, those on removed clubs included."""
    return render(request, "hosting/history.html", {"entries": operator_history()})


def _status_action(action: HistoryAction, done):
    @operator_required
    @require_POST
    def view(request, club: str):
        club_obj = get_object_or_404(Club, slug=club)
        form = ReasonForm(request.POST)
        if not form.is_valid():
            messages.error(request, _reason_error(form))
            return redirect("operator_club", club=club_obj.slug)
        try:
            services.club_set_status(
                club=club_obj, action=action, by=request.user, reason=form.cleaned_data["reason"]
            )
        except OperatorError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, done % {"club": club_obj.name})
        return redirect("operator_club", club=club_obj.slug)

    return view


club_approve = _status_action(HistoryAction.OPERATOR_APPROVE, gettext_lazy("%(club)s is approved."))
club_suspend = _status_action(
    HistoryAction.OPERATOR_SUSPEND, gettext_lazy("%(club)s is suspended.")
)
club_reactivate = _status_action(
    HistoryAction.OPERATOR_REACTIVATE, gettext_lazy("%(club)s is active again.")
)


@operator_required
@require_POST
def club_remove(request, club: str):
    club_obj = get_object_or_404(Club, slug=club)
    form = RemoveForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _reason_error(form)
            if "reason" in form.errors
            else _("Type the club's short name to confirm the removal."),
        )
        return redirect("operator_club", club=club_obj.slug)
    try:
        removal = services.club_remove(
            club=club_obj,
            by=request.user,
            reason=form.cleaned_data["reason"],
            confirm_slug=form.cleaned_data["confirm_slug"],
        )
    except OperatorError as error:
        messages.error(request, error.message)
        return redirect("operator_club", club=club_obj.slug)
    if (getattr(request, "acting_club", None) or {}).get("id") == club_obj.pk:
        del request.session[ACTING]
    messages.success(request, _("%(club)s is removed.") % {"club": removal.name})
    return redirect("operator_clubs")


@operator_required
@require_POST
def act_start(request, club: str):
    """Start acting for the club: recorded, kept in the session, shown on every page."""
    club_obj = get_object_or_404(Club, slug=club)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _reason_error(form))
        return redirect("operator_club", club=club_obj.slug)
    reason = form.cleaned_data["reason"]
    acting = getattr(request, "acting_club", None)
    try:
        if acting is not None and acting["id"] != club_obj.pk:
            services.acting_stop(club_id=acting["id"], by=request.user)
        if acting is None or acting["id"] != club_obj.pk:
            services.acting_start(club=club_obj, by=request.user, reason=reason)
    except OperatorError as error:
        messages.error(request, error.message)
        return redirect("operator_club", club=club_obj.slug)
    request.session[ACTING] = {"id": club_obj.pk, "slug": club_obj.slug, "name": club_obj.name}
    messages.info(request, _("You are acting for %(club)s.") % {"club": club_obj.name})
    return redirect(club_obj.get_absolute_url())


@operator_required
@require_POST
def act_stop(request):
    """Stop acting for the club (recorded); back to the club on the operator's pages."""
    acting = request.session.pop(ACTING, None)
    if acting is None:
        return redirect("operator_clubs")
    services.acting_stop(club_id=acting["id"], by=request.user)
    messages.info(request, _("You no longer act for %(club)s.") % {"club": acting["name"]})
    if Club.objects.filter(pk=acting["id"]).exists():
        return redirect("operator_club", club=acting["slug"])
    return redirect("operator_clubs")
