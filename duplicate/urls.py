"""The duplicate pages at /<club>/<competition>/duplicate/...; the spelleider's and the
secretary's under .../beheer/duplicate/."""

from django.urls import path

from duplicate.views import competitions, evenings, jury, presence, public, slips

competition = "<slug:club>/<slug:competition>/"
evening = f"{competition}duplicate/<number:number>/"
managed = f"{competition}beheer/duplicate/<number:number>/"

urlpatterns = [
    path(
        "<slug:club>/beheer/nieuwe-duplicate/",
        competitions.duplicate_create_view,
        name="duplicate_create",
    ),
    path(
        "<slug:club>/evenement/<slug:event>/beheer/nieuwe-duplicate/",
        competitions.duplicate_create_view,
        name="event_duplicate_create",
    ),
    path(
        f"{competition}beheer/duplicate/instellingen/",
        competitions.settings_page,
        name="duplicate_settings",
    ),
    path(
        f"{competition}beheer/duplicate/regels/",
        competitions.rules_page,
        name="duplicate_rules",
    ),
    path(
        f"{competition}beheer/duplicate/deelnemers/",
        competitions.participants_page,
        name="duplicate_participants",
    ),
    path(
        f"{competition}beheer/duplicate/geschiedenis/",
        competitions.history_page,
        name="duplicate_history",
    ),
    path(f"{competition}duplicate/", public.evenings_page, name="duplicate_evenings"),
    path(
        f"{competition}beheer/duplicate/nieuw/",
        evenings.evening_create_view,
        name="duplicate_evening_create",
    ),
    path(evening, public.evening_page, name="duplicate_evening"),
    path(f"{evening}scherm/", public.screen, name="duplicate_screen"),
    path(f"{evening}uitslag.csv", public.evening_csv, name="duplicate_evening_csv"),
    path(f"{evening}print/", public.evening_print, name="duplicate_print"),
    path(f"{evening}meesterspel.gcg", public.evening_gcg, name="duplicate_gcg"),
    path(f"{evening}scherm/paneel/", public.screen_panel, name="duplicate_screen_panel"),
    path(f"{evening}briefje/", slips.slip, name="duplicate_slip"),
    path(f"{evening}briefje/voorbeeld/", slips.slip_preview, name="duplicate_slip_preview"),
    path(f"{evening}briefje/volgende/", slips.slip_next_turn, name="duplicate_slip_next_turn"),
    path(managed, evenings.leader, name="duplicate_leader"),
    path(f"{managed}ingeleverd/", evenings.leader_slips, name="duplicate_leader_slips"),
    path(f"{managed}briefjes/", evenings.paper_slips, name="duplicate_paper"),
    path(f"{managed}jury/", jury.jury_room, name="duplicate_jury"),
    path(f"{managed}aanwezig/", presence.presence_page, name="duplicate_presence"),
    path(f"{evening}nacontrole/", public.post_check, name="duplicate_post_check"),
]
