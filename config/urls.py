"""URL configuration: public pages first, the secretary's pages under /beheer/."""

from functools import wraps

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import Http404
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from config.health import health
from config.security import LoginView, PasswordResetView


def mail_required(view):
    """Password reset mails a link: without mail configured the pages do not exist (404),
    rather than saying "sent" while the mail goes nowhere."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not settings.MAIL_CONFIGURED:
            raise Http404("Password reset needs mail; none is configured.")
        return view(request, *args, **kwargs)

    return wrapper


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page names; the icon is a static file."""
    return redirect(static("favicon.svg"), permanent=True)


accounts = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        mail_required(PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        mail_required(auth_views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        mail_required(auth_views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        mail_required(auth_views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    path("gezond/", health, name="health"),
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/", include(accounts)),
    path("", include("hosting.urls")),
    path("", include("privacy.urls")),
    path("", include("notifications.urls")),
    path("", include("clubs.urls")),
    # Before the competitions: `/<club>/ranglijst/<season>/` is not a competition's page.
    path("", include("ranking.urls")),
    path("", include("persons.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
    path("", include("archives.urls")),
    path("", include("events.urls")),
    path("", include("pairing.urls")),
    path("", include("interchange.urls")),
    path("", include("ranking.files_urls")),
    path("", include("competition.urls")),
    path("", include("duplicate.urls")),
]

# A database fault raised before any view (a middleware reading the session) gets the
# 503 page that names it, like one raised in a view (config/errors.py).
handler500 = "config.errors.server_error"
