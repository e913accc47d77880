"""The site's URL configuration with three club pages added later, each missing something,
for tests/test_isolation.py: the probe must find each without being told of it."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import include, path


@login_required
def members(request, club):
    """Asks for a login and forgets to ask whose club it is; takes a post as well."""
    return HttpResponse(f"the members of {club}")


def turn(request, club, turn_id):
    return HttpResponse("a turn")


urlpatterns = [
    path("<slug:club>/beheer/ledenlijst/", members),
    path("<slug:club>/beurt/<int:turn_id>/", turn),
    path("", include("config.urls")),
]
