"""An event's results file: its download from the event, the federation's import.

Django: the URL configuration.
"""

from django.urls import path

from ranking import files_views

event = "<slug:club>/evenement/<slug:event>/"

urlpatterns = [
    path(f"{event}uitslagenbestand/", files_views.event_results_page, name="event_results_file"),
    path(
        f"{event}uitslagenbestand/uitslagen.json",
        files_views.event_results_json,
        name="event_results_json",
    ),
    path(
        f"{event}uitslagenbestand/uitslagen.csv",
        files_views.event_results_csv,
        name="event_results_csv",
    ),
    path(
        "<slug:club>/beheer/uitslagen-importeren/",
        files_views.results_import_view,
        name="ranking_import",
    ),
]
