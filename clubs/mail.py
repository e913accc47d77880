"""Mail to one address: a subject and a plain text body from templates, in the language of
the page that asks for it. Plain text: nothing is HTML-escaped ("Letters & Woorden" stays
so), and the subject is one line. Goes through Django's mail settings (EMAIL_URL,
config/settings.py); sent after the transaction that made its link commits, so a link
never names something that was rolled back.

Knows nothing of competitions or games.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template import Context, Engine

logger = logging.getLogger(__name__)


def mail_render(template: str, context: dict[str, Any]) -> tuple[str, str]:
    """(subject, body) from `<template>_subject.txt` and `<template>.txt`."""
    context = {"site_name": "Bordpunt", **context}
    subject = " ".join(_render_text(f"{template}_subject.txt", context).split())
    body = _render_text(f"{template}.txt", context)
    return subject, body


def _render_text(name: str, context: dict[str, Any]) -> str:
    return Engine.get_default().get_template(name).render(Context(context, autoescape=False))


def mail_send(*, to: str, template: str, context: dict[str, Any]) -> None:
    """Send now, or after the current transaction commits. A mail server that refuses is
    logged, not shown: the page's answer must not depend on it (and must not tell whether
    an address has an account)."""
    subject, body = mail_render(template, context)
    message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to])

    def send() -> None:
        try:
            message.send()
        except OSError:
            logger.exception("Mail to one address could not be sent (%s).", template)

    transaction.on_commit(send)
