"""Read-only JSON and CSV, so a club website can embed the standings and rounds."""

from django.http import HttpResponse, JsonResponse
from django.utils.text import slugify

from competition import exports, selectors
from competition.views.public import after_round_param


def _embeddable(response: HttpResponse) -> HttpResponse:
    # Public read-only data: any club website may fetch it from the browser.
    response["Access-Control-Allow-Origin"] = "*"
    return response


def standings_json(request, club: str, competition: str):
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    view = selectors.standings_get(competition_obj, after_round=after_round_param(request))
    return _embeddable(JsonResponse(exports.standings_document(competition_obj, view)))


def standings_csv(request, club: str, competition: str):
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    view = selectors.standings_get(competition_obj, after_round=after_round_param(request))
    response = HttpResponse(exports.standings_csv(view), content_type="text/csv; charset=utf-8")
    filename = f"{slugify(competition_obj.name)}-stand.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return _embeddable(response)


def round_json(request, club: str, competition: str, number: int):
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    round_obj = selectors.visible_round_get(competition_obj, number, user=request.user)
    games = list(selectors.round_games(round_obj))
    return _embeddable(JsonResponse(exports.round_document(competition_obj, round_obj, games)))
