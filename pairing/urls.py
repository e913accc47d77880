"""The director's pages of a round: attendance and pairing, under the competition's /beheer/.

Django: the URL configuration.
"""

from django.urls import path

from pairing.views import attendance, director

competition = "<slug:club>/<slug:competition>/"

urlpatterns = [
    path(
        f"{competition}beheer/ronde/<number:number>/aanwezig/",
        attendance.attendance,
        name="attendance",
    ),
    path(
        f"{competition}beheer/ronde/<number:number>/indeling/",
        director.round_pairing,
        name="round_pairing",
    ),
]
