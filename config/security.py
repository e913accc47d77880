"""Logging in safely: the visitor's address and the lockout page for the login throttle
(django-axes), and the login page that says where a forgotten password is solved."""

import math

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest
from django.shortcuts import render


def client_ip(request: HttpRequest) -> str:
    """The visitor's address: behind a reverse proxy (`DJANGO_BEHIND_PROXY`), the last
    address in X-Forwarded-For, the one our own proxy added; earlier entries are whatever
    the visitor chose to send. Otherwise the connection's own address."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return request.META.get("REMOTE_ADDR", "")


def lockout_response(request: HttpRequest, original_response=None, credentials=None):
    """The page after too many wrong passwords: in the visitor's language, with how long."""
    minutes = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    return render(
        request,
        "registration/locked_out.html",
        {"lockout_minutes": minutes},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )


class ThrottledBackend(AxesStandaloneBackend):
    """django-axes' check before the password check, for every login through a request.

    Without a request (a management command, `Client.login` in a test) there is no
    address to throttle: the check steps aside instead of refusing the login outright.
    """

    def authenticate(self, request: HttpRequest | None, *args, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)


class LoginView(auth_views.LoginView):
    """Django's login page, which also says where a forgotten password is solved."""

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "mail_configured": settings.MAIL_CONFIGURED}
