"""Public pages at /<club>/<competition>/...; the secretary's pages under .../beheer/.

Django: the URL configuration.
"""

from django.urls import path

from competition.views import (
    export,
    history,
    paper,
    public,
    ratings,
    screen,
    secretary,
)
from competition.views.conditional import conditional_page

competition = "<slug:club>/<slug:competition>/"

urlpatterns = [
    path("<slug:club>/", public.club_detail, name="club"),
    path(
        "<slug:club>/beheer/nieuwe-competitie/",
        secretary.competition_create,
        name="competition_create",
    ),
    path(
        "<slug:club>/evenement/<slug:event>/beheer/nieuwe-competitie/",
        secretary.competition_create,
        name="event_competition_create",
    ),
    path(
        "<slug:club>/speler/<id:player_id>/",
        history.player_history_page,
        name="player_history",
    ),
    path("<slug:club>/rating/", ratings.rating_list, name="ratings"),
    path("<slug:club>/rating/<id:player_id>/", ratings.rating_history_page, name="rating_history"),
    path(competition, conditional_page(public.standings_page), name="standings"),
    path(
        f"{competition}stand.json",
        conditional_page(export.standings_json, personal=False),
        name="standings_json",
    ),
    path(
        f"{competition}stand.csv",
        conditional_page(export.standings_csv, personal=False),
        name="standings_csv",
    ),
    path(
        "<slug:club>/<slug:competition>.ics",
        public.competition_calendar_feed,
        name="competition_calendar",
    ),
    path(f"{competition}kruistabel/", conditional_page(public.crosstable_page), name="crosstable"),
    path(f"{competition}ronde/<number:number>/", conditional_page(public.round_page), name="round"),
    path(
        f"{competition}ronde/<number:number>/print/",
        conditional_page(public.round_print),
        name="round_print",
    ),
    path(
        f"{competition}ronde/<number:number>/scoreformulieren/",
        conditional_page(paper.round_scoresheets),
        name="round_scoresheets",
    ),
    path(
        f"{competition}scherm/",
        conditional_page(screen.club_screen, personal=False),
        name="screen",
    ),
    path(
        f"{competition}scherm/panelen/",
        conditional_page(screen.club_screen_panels, personal=False),
        name="screen_panels",
    ),
    path(
        f"{competition}ronde/<number:number>.json",
        conditional_page(export.round_json, personal=False),
        name="round_json",
    ),
    path(
        f"{competition}speler/<id:player_id>/", conditional_page(public.player_page), name="player"
    ),
    path(f"{competition}geschiedenis/", secretary.competition_history, name="competition_history"),
    path(f"{competition}beheer/", secretary.competition_edit, name="competition_edit"),
    path(
        f"{competition}beheer/archiveren/",
        secretary.competition_archive_view,
        name="competition_archive",
    ),
    path(f"{competition}beheer/deelnemers/", secretary.entrants, name="entrants"),
    path(
        f"{competition}beheer/deelnemers/terugtrekken/",
        secretary.entrant_withdraw_view,
        name="entrant_withdraw",
    ),
    path(
        f"{competition}beheer/deelnemers/groep/",
        secretary.entrant_group_view,
        name="entrant_group",
    ),
    path(
        f"{competition}beheer/deelnemers/groepen-op-rating/",
        secretary.groups_fill_view,
        name="groups_fill",
    ),
    path(f"{competition}beheer/ronde/nieuw/", secretary.round_create_view, name="round_create"),
    path(
        f"{competition}beheer/ronde/<number:number>/uitslagen/",
        secretary.round_results,
        name="round_results",
    ),
    path(
        f"{competition}beheer/partij/<id:game_id>/corrigeren/",
        secretary.game_correct,
        name="game_correct",
    ),
    path(f"{competition}beheer/importeren/", secretary.results_import_view, name="results_import"),
    path(
        f"{competition}beheer/uitslagen.csv",
        secretary.results_csv_download,
        name="results_csv",
    ),
]
