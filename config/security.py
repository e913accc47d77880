"""Logging in safely: the visitor's address, the throttled password check, the "shared
device" choice, and the login page that says where a forgotten password is solved."""

import time
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs.models import ThrottleScope
from clubs.throttle import (
    Key,
    client_ip,
    login_keys,
    mail_wait_message,
    throttle_clear,
    throttle_fail,
    throttle_wait,
    wait_message,
)

#: Where a shared device's login keeps the moment it was made (seconds since the epoch).
SHARED_SINCE = "bordpunt_shared_since"
#: The request attribute through which the backend tells the form how long to wait.
WAIT_ATTRIBUTE = "login_wait_minutes"


class ThrottledBackend(ModelBackend):
    """Django's password check behind the throttle (clubs/throttle.py), for every login
    through a request: the login page and the admin's alike.

    While a key waits the password is not even checked (PermissionDenied ends Django's
    authentication). Without a request (a management command, `Client.login` in a test)
    there is no address to throttle, and the plain check runs.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return super().authenticate(request, username, password, **kwargs)
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        keys = login_keys(username=username, address=client_ip(request))
        waiting = throttle_wait(keys)
        if waiting:
            setattr(request, WAIT_ATTRIBUTE, waiting)
            raise PermissionDenied
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            waiting = throttle_fail(keys)
            if waiting:
                setattr(request, WAIT_ATTRIBUTE, waiting)
        else:
            throttle_clear(keys[:1])
        return user


class LoginForm(AuthenticationForm):
    """Username, password, and whether this is a device others use too."""

    shared_device = forms.BooleanField(label=_("Shared device"), required=False)

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        # Made here, not at import: in the language of this request.
        self.fields["shared_device"].help_text = ngettext(
            "A tablet at the table, a club computer: you are logged out when the browser "
            "closes, and after %(hours)d hour in any case.",
            "A tablet at the table, a club computer: you are logged out when the browser "
            "closes, and after %(hours)d hours in any case.",
            settings.SHARED_DEVICE_HOURS,
        ) % {"hours": settings.SHARED_DEVICE_HOURS}

    def clean_username(self) -> str:
        """An account made by sign-up has the lower-cased e-mail address as its username
        (hosting/): the address logs in however it is written. A username as an admin
        typed it, capitals and all, still logs in as it is."""
        username = self.cleaned_data.get("username") or ""
        if (
            "@" in username
            and username != username.lower()
            and not get_user_model().objects.filter(username=username).exists()
        ):
            return username.lower()
        return username

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            waiting = getattr(self.request, WAIT_ATTRIBUTE, 0)
            if waiting:
                raise ValidationError(wait_message(waiting), code="throttled") from None
            raise


class LoginView(auth_views.LoginView):
    """Django's login page, which also says where a forgotten password is solved, answers
    429 while the throttle makes the visitor wait, and keeps a shared device's login short."""

    form_class = LoginForm

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "mail_configured": settings.MAIL_CONFIGURED}

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response

    def form_valid(self, form):
        response = super().form_valid(form)
        session = self.request.session
        if form.cleaned_data.get("shared_device"):
            session.set_expiry(0)  # the cookie goes when the browser closes
            session[SHARED_SINCE] = int(time.time())  # and the session after the hours
        else:
            session.set_expiry(None)
            session.pop(SHARED_SINCE, None)
        return response


def shared_login_expired(since: object, *, now: float) -> bool:
    """Whether a shared device's login made at `since` has had its hours.

    >>> shared_login_expired(0, now=4 * 3600 - 1), shared_login_expired(0, now=4 * 3600)
    (False, True)
    >>> shared_login_expired("garbage", now=0)
    True
    """
    if not isinstance(since, int) or isinstance(since, bool):
        return True
    return now - since >= settings.SHARED_DEVICE_HOURS * 3600


class EmailPasswordResetForm(PasswordResetForm):
    """Django's reset form, which finds accounts by their e-mail address; also an account
    whose username is the address and that has no address of its own (one an admin made
    that way): the mail goes to its username."""

    def get_users(self, email):
        yield from super().get_users(email)
        by_username = get_user_model()._default_manager.filter(
            username__iexact=email, email="", is_active=True
        )
        yield from (user for user in by_username if user.has_usable_password())

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        # The account without an address of its own: its username is the address.
        to_email = to_email or context["user"].get_username()
        context["email"] = to_email
        super().send_mail(
            subject_template_name,
            email_template_name,
            context,
            from_email,
            to_email,
            html_email_template_name=html_email_template_name,
        )


class PasswordResetView(auth_views.PasswordResetView):
    """Django's page; the mails it sends are throttled per visitor's address and per
    address typed, so nobody floods a mailbox. The answer is the same whether or not an
    account has the address."""

    form_class = EmailPasswordResetForm

    def form_valid(self, form):
        keys = [
            Key(ThrottleScope.MAIL_SENDER, "", client_ip(self.request)[:64]),
            Key(ThrottleScope.MAIL_RECIPIENT, form.cleaned_data["email"].lower()[:150], ""),
        ]
        waiting = throttle_wait(keys)
        if waiting:
            form.add_error(None, ValidationError(mail_wait_message(waiting), code="throttled"))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        throttle_fail(keys)
        return super().form_valid(form)
