"""Invitations, the secretary's list of members with their accounts, the club's settings."""

from django.urls import path

from clubs import views

urlpatterns = [
    path("accounts/account/", views.account, name="account"),
    path(
        "accounts/e-mail/<str:token>/",
        views.email_change_confirm_view,
        name="email_change_confirm",
    ),
    path("accounts/uitnodiging/", views.invite_code, name="invite_code"),
    path("accounts/uitnodiging/account/", views.invite_account, name="invite_account"),
    path("accounts/uitnodiging/<id:player>/<str:code>/", views.invite_link, name="invite_link"),
    path(
        "accounts/uitnodiging/<str:code>/",
        views.invite_link_without_player,
        name="invite_link_without_player",
    ),
    path("<slug:club>/beheer/instellingen/", views.club_settings, name="club_settings"),
    path("<slug:club>/beheer/spelers/", views.club_players, name="club_players"),
    path("<slug:club>/beheer/spelers/<id:player_id>/", views.club_player, name="club_player"),
    path(
        "<slug:club>/beheer/spelers/<id:player_id>/uitnodiging-mailen/",
        views.invite_mail,
        name="invite_mail",
    ),
]
