"""The site's URL configuration with club pages added later, each missing something,
for tests/test_isolation.py: the probe must find each without being told of it."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import include, path
from django.views.decorators.http import require_safe

from clubs.models import Club
from clubs.permissions import can_manage_club
from games.models import Game


@login_required
def members(request, club):
    """Asks for a login and forgets to ask whose club it is; takes a post as well."""
    return HttpResponse(f"the members of {club}")


def notices(request, club):
    """Public, and shows whoever is logged in a link to the club's secretary's pages."""
    link = f'<a href="/{club}/beheer/spelers/">' if request.user.is_authenticated else ""
    return HttpResponse(f"<html><body>notices {link}</body></html>")


def game_note(request, club, game_id):
    """Asks whose club it is, then finds the game by its id alone, whoever's club has it."""
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    game = get_object_or_404(Game, pk=game_id)
    return HttpResponse(f"a note on game {game.pk}")


def turn(request, club, turn_id):
    return HttpResponse("a turn")


urlpatterns = [
    path("<slug:club>/beheer/ledenlijst/", members),
    path("<slug:club>/beurt/<int:turn_id>/", turn),
    path("<slug:club>/mededelingen/", require_safe(notices)),
    path("<slug:club>/beheer/partij/<id:game_id>/notitie/", require_safe(game_note)),
    path("", include("config.urls")),
]
