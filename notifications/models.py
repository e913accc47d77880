"""Who wants which kind of notification, and every notification queued, sent or not.

A `Notification` is unique per person, kind and object (`object_key`, such as "round:12"):
the database refuses a second one, so one event notified twice sends one mail.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from notifications.kinds import Kind


class Subscription(models.Model):
    """One person's yes to one kind (opt-in: no row, no mail)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_subscriptions",
        verbose_name=_("person"),
    )
    kind = models.CharField(_("kind"), max_length=40, choices=Kind)
    #: The language the person read the settings page in: their mails are written in it.
    language = models.CharField(_("language"), max_length=10, default="nl")

    class Meta:
        verbose_name = _("notification subscription")
        verbose_name_plural = _("notification subscriptions")
        ordering = ["user", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="subscription_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.kind}"


class Notification(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("not sent")
        SKIPPED = "skipped", _("not sent")

    class Reason(models.TextChoices):
        NONE = "", _("–")
        NO_ADDRESS = "no_address", _("your account has no e-mail address")
        UNSUBSCRIBED = "unsubscribed", _("you unsubscribed before it was sent")
        REFUSED = "refused", _("the mail server refused the address")
        UNREACHABLE = "unreachable", _("the mail server could not be reached")
        GONE = "gone", _("what it was about no longer applies")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        verbose_name=_("person"),
    )
    kind = models.CharField(_("kind"), max_length=40, choices=Kind)
    object_key = models.CharField(_("about"), max_length=60)
    #: The club the mail is sent on behalf of: its name is the sender's.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    #: Codes and ids the mail is written from when it is sent, never its text.
    params = models.JSONField(_("details"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.QUEUED)
    reason = models.CharField(
        _("reason"), max_length=20, choices=Reason, default=Reason.NONE, blank=True
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    created_at = models.DateTimeField(_("queued at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "object_key"], name="notification_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.kind} – {self.object_key}"
