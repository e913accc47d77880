"""The site's URL configuration with club pages added later, each missing something,
for tests/test_isolation.py: the probe must find each without being told of it."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_safe


@login_required
def members(request, club):
    """Asks for a login and forgets to ask whose club it is; takes a post as well."""
    return HttpResponse(f"the members of {club}")


def notices(request, club):
    """Public, and shows whoever is logged in a link to the club's secretary's pages."""
    link = f'<a href="/{club}/beheer/spelers/">' if request.user.is_authenticated else ""
    return HttpResponse(f"<html><body>notices {link}</body></html>")


def turn(request, club, turn_id):
    return HttpResponse("a turn")


urlpatterns = [
    path("<slug:club>/beheer/ledenlijst/", members),
    path("<slug:club>/beurt/<int:turn_id>/", turn),
    path("<slug:club>/mededelingen/", require_safe(notices)),
    path("", include("config.urls")),
]
