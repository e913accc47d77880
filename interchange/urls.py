"""TSH files in and out: the club's import and a competition's page and download.

Django: the URL configuration.
"""

from django.urls import path

from interchange import views

competition = "<slug:club>/<slug:competition>/"

urlpatterns = [
    path("<slug:club>/beheer/tsh-importeren/", views.tsh_import_view, name="tsh_import"),
    path(f"{competition}beheer/tsh/", views.tsh_page, name="tsh"),
    path(f"{competition}beheer/tsh/export.t", views.tsh_download, name="tsh_download"),
]
