"""A club's sign-up waiting for its address to be confirmed, and the operator's invitations.

Django: the models.
"""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.inputs import validate_plain_text


class SignUp(models.Model):
    """A sign-up until its mailed link is followed (hosting/services.py). One per address,
    case ignored: two sign-ups at once for one address cannot both wait, so they cannot make
    two accounts. The password is kept as Django hashes it; the row goes when it is used."""

    email = models.EmailField(_("e-mail address"))
    club_name = models.CharField(_("club name"), max_length=120, validators=[validate_plain_text])
    city = models.CharField(_("town"), max_length=80, blank=True, validators=[validate_plain_text])
    secretary_name = models.CharField(
        _("your name"), max_length=120, validators=[validate_plain_text]
    )
    password = models.CharField(_("password (hashed)"), max_length=128, editable=False)
    #: Changes with every new sign-up for the address: an older link then no longer works.
    key = models.CharField(max_length=32, editable=False)
    language = models.CharField(max_length=8, blank=True, editable=False)
    created_at = models.DateTimeField(_("signed up"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        constraints = [
            models.UniqueConstraint(Lower("email"), name="signup_one_per_address"),
        ]

    def __str__(self) -> str:
        return f"{self.club_name} <{self.email}>"


class SignUpInvitation(models.Model):
    """An invitation to sign a club up that the operator mailed (BORDPUNT_SIGNUP=invite):
    kept, as the record of who invited whom and when. The mailed link is signed, not stored."""

    email = models.EmailField(_("e-mail address"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    by_name = models.CharField(_("by (name)"), max_length=150, blank=True)
    sent_at = models.DateTimeField(_("sent"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["-sent_at"]
        verbose_name = _("sign-up invitation")
        verbose_name_plural = _("sign-up invitations")

    def __str__(self) -> str:
        return self.email
