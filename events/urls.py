"""The event pages at /<club>/evenement/<event>/...; the directors' under .../beheer/.

Django: the URL configuration. Included before the competitions' (`/<club>/<short name>/`).
"""

from django.urls import path

from events import views

event = "<slug:club>/evenement/<slug:event>/"

urlpatterns = [
    path("<slug:club>/beheer/nieuw-evenement/", views.event_create, name="event_create"),
    path(event, views.event_page, name="event"),
    path(f"{event}agenda.ics", views.event_calendar_feed, name="event_calendar"),
    path(f"{event}afdeling/<slug:competition>/", views.division_page, name="event_division"),
    path(f"{event}inschrijven/", views.event_enter, name="event_enter"),
    path(
        f"{event}inschrijving/<id:entry_id>/intrekken/",
        views.entry_withdraw,
        name="event_entry_withdraw",
    ),
    path(f"{event}beheer/", views.event_manage, name="event_manage"),
    path(
        f"{event}beheer/inschrijven-op-nummer/",
        views.event_enter_by_number,
        name="event_enter_by_number",
    ),
    path(f"{event}beheer/directeuren/", views.event_directors, name="event_directors"),
    path(f"{event}beheer/jury/", views.event_jury, name="event_jury"),
]
