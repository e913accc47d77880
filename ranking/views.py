"""The ranking's pages: a federation's seasons, a season's ranking of persons and of clubs,
a person's results, the settings (the federation's officials), and the official versions
published, each with its changes and its JSON and CSV.

Thin: the reads are `ranking.selectors` and `ranking.publications`; the writes are the
seasons' own (`events.services.season_create`, `season_update`) and
`ranking.publications.publication_create`.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.models import Club
from clubs.permissions import can_manage_club
from events.models import Season
from events.services import EventError, season_create, season_update
from ranking import publications, selectors
from ranking.exports import publication_csv, publication_data
from ranking.forms import PublicationForm, SeasonForm


def _refused(form: SeasonForm, error: ValidationError | EventError) -> None:
    if isinstance(error, EventError):
        form.add_error(None, str(error.message))
    elif hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


@require_http_methods(["GET", "HEAD", "POST"])
def seasons_page(request: HttpRequest, club: str) -> HttpResponse:
    """The federation's seasons; its officials make a new one here."""
    federation = selectors.federation_get(club)
    if request.method == "POST":
        return _season_create(request, federation)
    can_manage = can_manage_club(request.user, federation)
    return _seasons(request, federation, SeasonForm() if can_manage else None, can_manage)


@login_required
def _season_create(request: HttpRequest, federation: Club) -> HttpResponse:
    if not can_manage_club(request.user, federation):
        raise PermissionDenied
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = season_create(federation=federation, fields=form.settings(), by=request.user)
        except (ValidationError, EventError) as error:
            _refused(form, error)
        else:
            messages.success(request, _("The season is made."))
            return redirect("ranking_season", federation.slug, season.slug)
    return _seasons(request, federation, form, True)


def _seasons(
    request: HttpRequest, federation: Club, form: SeasonForm | None, can_manage: bool
) -> HttpResponse:
    return render(
        request,
        "ranking/seasons.html",
        {
            "club": federation,
            "seasons": list(federation.seasons.all()),
            "form": form,
            "can_manage": can_manage,
        },
    )


def _context(request: HttpRequest, club: str, season: str, tab: str) -> dict:
    found = selectors.season_get(federation_slug=club, season_slug=season)
    on = selectors.parse_date(request.GET.get("op"))
    standings = selectors.season_standings(found, on)
    return {
        "club": found.federation,
        "season": found,
        "standings": standings,
        "on": standings.ranking.on,
        "can_manage": can_manage_club(request.user, found.federation),
        "tab": tab,
        "official": publications.publication_latest(found),
    }


@require_safe
def season_page(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """The season's ranking of persons on a date (`?op=YYYY-MM-DD`; default: today, or the
    season's last day once it is over)."""
    context = _context(request, club, season, "persons")
    standings = context["standings"]
    context["rows"] = [
        (
            row,
            standings.names[row.person],
            standings.club_names.get(standings.person_clubs.get(row.person) or 0, ""),
        )
        for row in standings.ranking.persons
    ]
    return render(request, "ranking/season.html", context)


@require_safe
def clubs_page(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """The season's ranking of clubs: each club's best results."""
    context = _context(request, club, season, "clubs")
    standings = context["standings"]
    context["by_places"] = context["season"].club_method == Season.ClubMethod.PLACES
    context["kept"] = standings.ranking.club_games_counted
    context["rows"] = [
        (
            row,
            standings.club_names.get(row.club, ""),
            [(result, standings.names[result.person]) for result in row.counted],
            [
                (
                    game,
                    standings.games[(game.players[0].person, game.game)],
                    [(player, standings.names[player.person]) for player in game.players],
                )
                for game in row.games
            ],
        )
        for row in standings.ranking.clubs
    ]
    return render(request, "ranking/clubs.html", context)


@require_safe
def person_page(request: HttpRequest, club: str, season: str, person: str) -> HttpResponse:
    """A person's results of the season, counted and not, each with its percentage."""
    context = _context(request, club, season, "persons")
    standings = context["standings"]
    if person not in standings.names:
        raise Http404("No results of this person in the season.")
    row = next((r for r in standings.ranking.persons if r.person == person), None)
    context.update(
        {
            "person": person,
            "name": standings.names[person],
            "row": row,
            "lines": [
                (line, standings.games[(person, line.result.game)])
                for line in (row.results if row else ())
            ],
            "person_club": standings.club_names.get(standings.person_clubs.get(person) or 0, ""),
        }
    )
    return render(request, "ranking/person.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_edit_page(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """The season's settings (its federation's officials); another GV scores every ranked
    game of the season again."""
    found = selectors.season_get(federation_slug=club, season_slug=season)
    if not can_manage_club(request.user, found.federation):
        raise PermissionDenied
    form = SeasonForm(instance=found, with_reason=True)
    if request.method == "POST":
        form = SeasonForm(request.POST, instance=found, with_reason=True)
        if form.is_valid():
            try:
                changed = season_update(
                    season=found,
                    fields=form.settings(),
                    by=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except (ValidationError, EventError) as error:
                _refused(form, error)
            else:
                messages.success(request, _("Settings saved."))
                return redirect("ranking_season", changed.federation.slug, changed.slug)
        found.refresh_from_db()
    return render(
        request,
        "ranking/season_form.html",
        {"club": found.federation, "season": found, "form": form, "tab": "settings"},
    )


@require_http_methods(["GET", "HEAD", "POST"])
def publications_page(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """The official versions of the season's ranking; its officials publish one here (the
    ranking on a date), a correction with its reason."""
    found = selectors.season_get(federation_slug=club, season_slug=season)
    can_manage = can_manage_club(request.user, found.federation)
    versions = list(found.publications.all())
    latest = versions[0].version if versions else 0
    form = PublicationForm(initial={"after_version": latest}) if can_manage else None
    if request.method == "POST":
        if not can_manage:
            raise PermissionDenied
        form = PublicationForm(request.POST)
        if form.is_valid():
            try:
                made = publications.publication_create(
                    season=found,
                    by=request.user,
                    on=form.cleaned_data["on"],
                    reason=form.cleaned_data["reason"],
                    after_version=form.cleaned_data["after_version"],
                )
            except publications.PublicationError as error:
                form.add_error(None, error.message)
            else:
                messages.success(
                    request, _("Version %(version)s is published.") % {"version": made.version}
                )
                return redirect("ranking_publication", club, season, made.version)
    return render(
        request,
        "ranking/publications.html",
        {
            "club": found.federation,
            "season": found,
            "versions": versions,
            "form": form,
            "can_manage": can_manage,
            "tab": "publications",
        },
    )


def _publication(club: str, season: str, version: int) -> tuple:
    found = selectors.season_get(federation_slug=club, season_slug=season)
    publication = publications.publication_get(found, version)
    if publication is None:
        raise Http404("No such version.")
    publication.season = found
    return found, publication


@require_safe
def publication_page(request: HttpRequest, club: str, season: str, version: int) -> HttpResponse:
    """One official version as it was published, and what changed from the one before."""
    found, publication = _publication(club, season, version)
    return render(
        request,
        "ranking/publication.html",
        {
            "club": found.federation,
            "season": found,
            "publication": publication,
            "persons": list(publication.persons.all()),
            "clubs": list(publication.clubs.all()),
            "changed": publications.publication_changes(publication),
            "can_manage": can_manage_club(request.user, found.federation),
            "tab": "publications",
        },
    )


@require_safe
def publication_download(
    request: HttpRequest, club: str, season: str, version: int, suffix: str
) -> HttpResponse:
    """A version's JSON (persons, clubs, the changes) or CSV (persons)."""
    if suffix not in ("json", "csv"):
        raise Http404("No such download.")
    found, publication = _publication(club, season, version)
    persons = list(publication.persons.all())
    if suffix == "json":
        data = publication_data(
            publication,
            persons,
            list(publication.clubs.all()),
            publications.publication_changes(publication),
        )
        response = HttpResponse(
            json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json"
        )
    else:
        response = HttpResponse(publication_csv(persons), content_type="text/csv; charset=utf-8")
    name = f"{found.federation.slug}-{found.slug}-ranglijst-v{publication.version}.{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
