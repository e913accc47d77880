"""Clubs, their players and who is secretary where. Knows nothing of competitions."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.inputs import validate_plain_text


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_text])
    slug = models.SlugField(_("short name"), unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    members = models.ManyToManyField(
        "Player", through="Membership", related_name="clubs", verbose_name=_("members")
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club", kwargs={"club": self.slug})


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_text])
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("user account"),
    )
    federation_number = models.CharField(
        _("federation number"), max_length=20, blank=True, null=True, unique=True
    )
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("member")
        SECRETARY = "secretary", _("secretary")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role, default=Role.MEMBER)

    class Meta:
        ordering = ["club", "player__name"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="membership_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_role_display()}, {self.club})"
