"""The ranking's pages at /<federation>/ranglijst/...: public, the settings its officials'."""

from django.urls import path

from ranking import views

season = "<slug:club>/ranglijst/<slug:season>/"

urlpatterns = [
    path("<slug:club>/ranglijst/", views.seasons_page, name="ranking_seasons"),
    path(season, views.season_page, name="ranking_season"),
    path(f"{season}clubs/", views.clubs_page, name="ranking_clubs"),
    path(f"{season}speler/<str:person>/", views.person_page, name="ranking_person"),
    path(f"{season}instellingen/", views.season_edit_page, name="ranking_season_edit"),
    path(f"{season}officieel/", views.publications_page, name="ranking_publications"),
    path(f"{season}officieel/<int:version>/", views.publication_page, name="ranking_publication"),
    path(
        f"{season}officieel/<int:version>.<str:suffix>",
        views.publication_download,
        name="ranking_publication_download",
    ),
]
