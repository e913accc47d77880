"""The site's URL configuration with two pages added later, for tests/clubs/test_reserved_slugs."""

from django.http import HttpResponse
from django.urls import include, path


def page(request, **kwargs):
    return HttpResponse("a page added later")


urlpatterns = [
    path("nieuwe-pagina/", page),
    path("<slug:club>/ledenlijst/", page),
    path("", include("config.urls")),
]
