"""A person's own data and its erasure, the privacy page.

Django: the URL configuration.
"""

from django.urls import path

from privacy import views

urlpatterns = [
    path("privacy/", views.privacy_page, name="privacy"),
    path("privacy/mijn-gegevens/", views.my_data, name="my_data"),
    path("privacy/mijn-gegevens.json", views.my_data_download, name="my_data_download"),
    path("privacy/mijn-gegevens/verwijderen/", views.my_data_erase, name="my_data_erase"),
    path(
        "<slug:club>/beheer/spelers/<id:player_id>/wissen/",
        views.member_erase,
        name="member_erase",
    ),
]
