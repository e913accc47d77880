"""The notification settings and the unsubscribe address."""

from django.urls import path

from notifications import views

urlpatterns = [
    path("accounts/meldingen/", views.notification_settings, name="notification_settings"),
    path(
        "meldingen/afmelden/<str:token>/",
        views.notification_unsubscribe,
        name="notification_unsubscribe",
    ),
]
