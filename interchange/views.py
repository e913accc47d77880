"""TSH in and out from the secretary's pages: a download of the .t file, and an upload
that creates a tournament. Each view calls one service."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club
from clubs.permissions import can_manage_club
from competition.forms import TshImportForm
from competition.models import Competition
from competition.services import CompetitionError
from competition.views.access import secretary_required
from interchange.tsh import tsh_export, tsh_import


@secretary_required
def tsh_page(request, competition: Competition):
    """What the export holds, and the download button."""
    return render(request, "competition/tsh.html", {"competition": competition})


@secretary_required
def tsh_download(request, competition: Competition):
    try:
        text = tsh_export(competition=competition)
    except CompetitionError as error:
        messages.error(request, error.message)
        return redirect("tsh", **competition.url_kwargs)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}.t"'
    return response


@login_required
def tsh_import_view(request, club: str):
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    form = TshImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            summary = tsh_import(
                club=club_obj,
                data=data["file"].read(),
                name=data["name"],
                slug=data["slug"],
                rules=data["rules"],
                by=request.user,
            )
        except CompetitionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("%(name)s created: %(players)s, %(rounds)s, %(games)s.")
                % {
                    "name": summary.competition.name,
                    "players": ngettext("%(count)s player", "%(count)s players", summary.players)
                    % {"count": summary.players},
                    "rounds": ngettext("%(count)s round", "%(count)s rounds", summary.rounds)
                    % {"count": summary.rounds},
                    "games": ngettext("%(count)s game", "%(count)s games", summary.games)
                    % {"count": summary.games},
                },
            )
            for player, number in summary.unmatched_forfeits:
                messages.warning(
                    request,
                    _(
                        "Round %(round)s: %(player)s lost by forfeit without an opponent "
                        "in the file; this was not imported."
                    )
                    % {"round": number, "player": player},
                )
            return redirect(summary.competition)
    return render(request, "competition/tsh_import.html", {"form": form, "club": club_obj})
