"""The home page, sign-up, a new club's first steps and the operator's invitation to sign up.

Django: the URL configuration.
"""

from django.urls import path

from hosting import first_run, views

urlpatterns = [
    path("", views.home, name="home"),
    path("eerste-start/", first_run.first_run, name="first_run"),
    path("aanmelden/", views.signup, name="signup"),
    path("aanmelden/verstuurd/", views.signup_sent, name="signup_sent"),
    path("aanmelden/bevestigen/<str:token>/", views.signup_confirm_view, name="signup_confirm"),
    path("dienst/uitnodigen/", views.invite, name="signup_invite"),
    path("<slug:club>/beheer/eerste-stappen/", views.first_steps, name="first_steps"),
]
