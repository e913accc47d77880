"""The home page, sign-up, a new club's first steps, and the operator's pages (under
/dienst/: the clubs, their approval, suspension and removal, acting for a club, the
invitation to sign up).

Django: the URL configuration.
"""

from django.urls import path

from hosting import first_run, views

urlpatterns = [
    path("", views.home, name="home"),
    path("zaal/", views.club_room, name="club_room"),
    path("eerste-start/", first_run.first_run, name="first_run"),
    path("aanmelden/", views.signup, name="signup"),
    path("aanmelden/verstuurd/", views.signup_sent, name="signup_sent"),
    path("aanmelden/bevestigen/<str:token>/", views.signup_confirm_view, name="signup_confirm"),
    path("dienst/uitnodigen/", views.invite, name="signup_invite"),
    path("<slug:club>/beheer/eerste-stappen/", views.first_steps, name="first_steps"),
    path("dienst/", views.club_list, name="operator_clubs"),
    path("dienst/geschiedenis/", views.history_page, name="operator_history"),
    path("dienst/optreden/stoppen/", views.act_stop, name="operator_act_stop"),
    path("dienst/clubs/<slug:club>/", views.club_page, name="operator_club"),
    path("dienst/clubs/<slug:club>/goedkeuren/", views.club_approve, name="operator_approve"),
    path("dienst/clubs/<slug:club>/schorsen/", views.club_suspend, name="operator_suspend"),
    path("dienst/clubs/<slug:club>/heropenen/", views.club_reactivate, name="operator_reactivate"),
    path("dienst/clubs/<slug:club>/verwijderen/", views.club_remove, name="operator_remove"),
    path("dienst/clubs/<slug:club>/optreden/", views.act_start, name="operator_act"),
]
