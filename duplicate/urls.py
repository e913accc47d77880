"""The duplicate pages at /<club>/<competition>/duplicate/...; the spelleider's and the
secretary's under .../beheer/duplicate/."""

from django.urls import path

from duplicate import views

competition = "<slug:club>/<slug:competition>/"
evening = f"{competition}duplicate/<number:number>/"
managed = f"{competition}beheer/duplicate/<number:number>/"

urlpatterns = [
    path(
        "<slug:club>/beheer/nieuwe-duplicate/",
        views.duplicate_create_view,
        name="duplicate_create",
    ),
    path(
        "<slug:club>/evenement/<slug:event>/beheer/nieuwe-duplicate/",
        views.duplicate_create_view,
        name="event_duplicate_create",
    ),
    path(
        f"{competition}beheer/duplicate/instellingen/",
        views.settings_page,
        name="duplicate_settings",
    ),
    path(
        f"{competition}beheer/duplicate/regels/",
        views.rules_page,
        name="duplicate_rules",
    ),
    path(
        f"{competition}beheer/duplicate/deelnemers/",
        views.participants_page,
        name="duplicate_participants",
    ),
    path(
        f"{competition}beheer/duplicate/geschiedenis/", views.history_page, name="duplicate_history"
    ),
    path(f"{competition}duplicate/", views.evenings_page, name="duplicate_evenings"),
    path(
        f"{competition}beheer/duplicate/nieuw/",
        views.evening_create_view,
        name="duplicate_evening_create",
    ),
    path(evening, views.evening_page, name="duplicate_evening"),
    path(f"{evening}scherm/", views.screen, name="duplicate_screen"),
    path(f"{evening}uitslag.csv", views.evening_csv, name="duplicate_evening_csv"),
    path(f"{evening}print/", views.evening_print, name="duplicate_print"),
    path(f"{evening}meesterspel.gcg", views.evening_gcg, name="duplicate_gcg"),
    path(f"{evening}scherm/paneel/", views.screen_panel, name="duplicate_screen_panel"),
    path(f"{evening}briefje/", views.slip, name="duplicate_slip"),
    path(f"{evening}briefje/voorbeeld/", views.slip_preview, name="duplicate_slip_preview"),
    path(f"{evening}briefje/volgende/", views.slip_next_turn, name="duplicate_slip_next_turn"),
    path(managed, views.leader, name="duplicate_leader"),
    path(f"{managed}ingeleverd/", views.leader_slips, name="duplicate_leader_slips"),
    path(f"{managed}briefjes/", views.paper_slips, name="duplicate_paper"),
    path(f"{managed}jury/", views.jury_room, name="duplicate_jury"),
    path(f"{evening}nacontrole/", views.post_check, name="duplicate_post_check"),
]
