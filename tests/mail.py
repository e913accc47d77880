"""A real SMTP server for the mail tests: aiosmtpd's Controller on a free port.

The `smtp` fixture starts it, points Django's mail settings at it (the SMTP backend, as a
hosted Bordpunt sends through EMAIL_URL) and gives the messages it received, parsed.
Tests read the link from a received message and follow it.

tests/conftest.py makes the fixture every test's: ask for `smtp`, and read a link with
`smtp.link(address)`.
"""

from __future__ import annotations

import re
import socket
import threading
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

LINK = re.compile(r"https?://\S+")


class Inbox:
    """What the server received, in order; safe to read from the test's thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd's handler hook
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        with self._lock:
            self._messages.append(message)
        return "250 Message accepted for delivery"

    @property
    def messages(self) -> list[EmailMessage]:
        with self._lock:
            return list(self._messages)

    def to(self, address: str) -> list[EmailMessage]:
        """The messages whose envelope names `address` (case ignored)."""
        wanted = address.casefold()
        return [
            message
            for message in self.messages
            if wanted in [part.strip().casefold() for part in message["X-Envelope-To"].split(",")]
        ]

    @staticmethod
    def text(message: EmailMessage) -> str:
        body = message.get_body(preferencelist=("plain",))
        assert body is not None, "the message has no plain text part"
        return body.get_content()

    def link(self, address: str, *, containing: str = "") -> str:
        """The first link in the last message to `address` whose URL contains `containing`."""
        messages = self.to(address)
        assert messages, f"no message to {address}; received: {len(self.messages)}"
        links = [link for link in LINK.findall(self.text(messages[-1])) if containing in link]
        assert links, f"no link with {containing!r} in: {self.text(messages[-1])}"
        return links[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp(settings):
    """A running SMTP server and Django pointed at it; yields its `Inbox`."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = controller.hostname
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 10
    settings.MAIL_CONFIGURED = True
    try:
        yield inbox
    finally:
        controller.stop()
