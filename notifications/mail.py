"""One notification as a mail: plain text and HTML in the person's language, the club's
name as the sender, and a one-click unsubscribe (RFC 8058: List-Unsubscribe with an https
address and List-Unsubscribe-Post) at a signed address that needs no login."""

from __future__ import annotations

from email.utils import formataddr
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from notifications.models import Notification
from notifications.tokens import unsubscribe_token


def site_url(path: str) -> str:
    """An address on this Bordpunt for a mail, which no request is there to tell."""
    return settings.SITE_URL.rstrip("/") + path


def notification_message(
    notification: Notification, *, to: str, language: str, context: dict[str, Any]
) -> EmailMultiAlternatives:
    unsubscribe = site_url(
        reverse(
            "notification_unsubscribe",
            kwargs={
                "token": unsubscribe_token(user_id=notification.user_id, kind=notification.kind)
            },
        )
    )
    context = {
        **context,
        "club": notification.club,
        "link": site_url(context["path"]),
        "settings_link": site_url(reverse("notification_settings")),
        "unsubscribe_link": unsubscribe,
    }
    template = f"notifications/mail/{notification.kind}"
    with translation.override(language):
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        text = render_to_string(f"{template}.txt", context)
        html = render_to_string(f"{template}.html", context)
    message = EmailMultiAlternatives(
        subject,
        text,
        formataddr((notification.club.name, settings.DEFAULT_FROM_EMAIL)),
        [to],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message
