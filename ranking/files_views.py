"""An event's results file: the page and downloads for its directors, the upload, preview
and confirmation for the federation's officials. Each view calls one service.

Django: views.
"""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club
from events.models import Event, Season
from ranking.files import (
    EventFile,
    event_results_file,
    may_export,
    results_file_csv,
    results_file_json,
)
from ranking.files_forms import ResultsConfirmForm, ResultsUploadForm
from ranking.files_import import (
    ImportPlan,
    ResultsImportError,
    may_import,
    results_import_apply,
    results_import_plan,
)


def _exported(request, club: str, event: str) -> tuple[Event, EventFile]:
    """The event of the address and its file, for those who may export it."""
    found = get_object_or_404(
        Event.objects.select_related("organiser", "season"), organiser__slug=club, slug=event
    )
    if not may_export(request.user, found):
        raise PermissionDenied
    return found, event_results_file(found)


@login_required
def event_results_page(request, club: str, event: str):
    """What the event's results file holds, and its downloads."""
    found, exported = _exported(request, club, event)
    return render(request, "ranking/results_file.html", {"event": found, "exported": exported})


def _download(request, club: str, event: str, suffix: str):
    found, exported = _exported(request, club, event)
    if exported.results is None:
        messages.error(
            request, _("No evening of this event is finished yet: there is nothing to export.")
        )
        return redirect("event_results_file", club=club, event=event)
    if suffix == "json":
        response = HttpResponse(
            results_file_json(exported.results), content_type="application/json"
        )
    else:
        response = HttpResponse(
            results_file_csv(exported.results), content_type="text/csv; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{found.slug}-uitslagen.{suffix}"'
    return response


@login_required
def event_results_json(request, club: str, event: str):
    return _download(request, club, event, "json")


@login_required
def event_results_csv(request, club: str, event: str):
    return _download(request, club, event, "csv")


def _session_key(federation: Club) -> str:
    return f"results-file-import-{federation.pk}"


@login_required
def results_import_view(request, club: str):
    """Upload a results file, see what it holds and what it would do, then confirm. The
    file stays in the session between the preview and the confirmation; the browser sends
    back its digest and the season, and the service reads and checks it all again."""
    federation = get_object_or_404(Club, slug=club)
    if not federation.is_federation:
        raise Http404("Only a federation imports results files.")
    if not may_import(request.user, federation):
        raise PermissionDenied
    key = _session_key(federation)
    stored = request.session.get(key)
    if request.method == "POST" and "cancel" in request.POST:
        request.session.pop(key, None)
        return redirect("ranking_import", club=federation.slug)
    if request.method == "POST" and "digest" in request.POST:
        return _confirm(request, federation, stored)
    form = ResultsUploadForm(request.POST or None, request.FILES or None, federation=federation)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read()
        season = form.cleaned_data["season"]
        plan = results_import_plan(data=data, season=season, by=request.user)
        if plan.file is None:
            errors = plan.problems
        else:
            stored = {
                "text": data.decode("utf-8-sig"),
                "digest": hashlib.sha256(data).hexdigest(),
                "season": season.pk,
                "filename": form.cleaned_data["file"].name[:100],
            }
            request.session[key] = stored
            return _preview(request, federation, stored, plan)
    return render(
        request,
        "ranking/results_import.html",
        {"federation": federation, "form": form, "errors": errors},
    )


def _confirm(request, federation: Club, stored: dict | None):
    form = ResultsConfirmForm(request.POST)
    if stored is None or not form.is_valid() or form.cleaned_data["digest"] != stored["digest"]:
        messages.error(
            request, _("The uploaded file has expired or was replaced; choose it again.")
        )
        return redirect("ranking_import", club=federation.slug)
    season = Season.objects.filter(federation=federation, pk=form.cleaned_data["season"]).first()
    if season is None or season.pk != stored["season"]:
        messages.error(
            request, _("That season does not exist (any more); choose the file and season again.")
        )
        request.session.pop(_session_key(federation), None)
        return redirect("ranking_import", club=federation.slug)
    data = stored["text"].encode("utf-8")
    try:
        summary = results_import_apply(data=data, season=season, by=request.user)
    except ResultsImportError:
        plan = results_import_plan(data=data, season=season, by=request.user)
        messages.error(request, _("Nothing was imported."))
        return _preview(request, federation, stored, plan)
    request.session.pop(_session_key(federation), None)
    messages.success(
        request,
        _("%(name)s is in the ranking of %(season)s: %(games)s, %(results)s, %(persons)s.")
        % {
            "name": summary.ranked.name,
            "season": season.name,
            "games": ngettext("%(count)s game", "%(count)s games", summary.games)
            % {"count": summary.games},
            "results": ngettext("%(count)s result", "%(count)s results", summary.results)
            % {"count": summary.results},
            "persons": ngettext(
                "%(count)s new person", "%(count)s new persons", summary.new_persons
            )
            % {"count": summary.new_persons},
        },
    )
    return redirect("ranking_import", club=federation.slug)


PREVIEW_ROWS = 300  # persons listed per kind; the counts are always complete


def _preview(request, federation: Club, stored: dict, plan: ImportPlan):
    form = ResultsConfirmForm(initial={"digest": stored["digest"], "season": stored["season"]})
    return render(
        request,
        "ranking/results_import_preview.html",
        {
            "federation": federation,
            "plan": plan,
            "form": form,
            "filename": stored.get("filename", ""),
            "preview_rows": PREVIEW_ROWS,
        },
    )
