"""Sign-up and the operator's pages (the operator's under /dienst/).

Django: the URL configuration.
"""

from django.urls import path

from hosting import views

urlpatterns = [
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
