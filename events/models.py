"""What spans clubs: the federation's seasons and open events.

A federation is a `clubs.Club` marked `is_federation`: it has secretaries (its officials),
addresses and a history like any club, and it organises events and keeps the seasons of
its ranking. An event is organised by a club or a federation; its divisions are the
competitions (paired or duplicate) that point to it with their `event`. The person is the
`clubs.Player`; an `Entry` says that a person plays in an event and for which club.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.inputs import validate_plain_text
from clubs.models import Club, Player


class Season(models.Model):
    """A federation's season: the ranked events of its dates, and the rules its ranking
    follows (docs/ranking.md gives each rule with its source)."""

    federation = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        related_name="seasons",
        verbose_name=_("federation"),
        limit_choices_to={"is_federation": True},
    )
    name = models.CharField(_("name"), max_length=60, validators=[validate_plain_text])
    slug = models.SlugField(_("short name"))
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    #: GV: the average gap between a game's winner and its median player in earlier
    #: seasons, in percent. The winner scores 100, the median player 100 − GV.
    gap_value = models.DecimalField(
        _("GV (winner–median gap, %)"),
        max_digits=6,
        decimal_places=3,
        default=Decimal("20"),
        validators=[MinValueValidator(Decimal("0.001")), MaxValueValidator(Decimal("100"))],
    )
    min_games = models.PositiveSmallIntegerField(
        _("minimum games"), default=0, validators=[MaxValueValidator(1000)]
    )
    min_interclub_share = models.PositiveSmallIntegerField(
        _("minimum share of the season's interclubs (%)"),
        default=0,
        validators=[MaxValueValidator(100)],
    )
    #: HR 5.7: the share applies only when the season counts more than ten interclubs.
    share_from_interclubs = models.PositiveSmallIntegerField(
        _("the share applies from this many interclubs in the season"),
        default=11,
        db_default=11,
        validators=[MaxValueValidator(1000)],
    )
    #: The best this many results count; empty: every result.
    counted_results = models.PositiveSmallIntegerField(
        _("results that count"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    #: A result drops out this many months after its game; empty: never.
    result_months = models.PositiveSmallIntegerField(
        _("a result counts for (months)"), null=True, blank=True, default=12
    )

    class ClubMethod(models.TextChoices):
        """How the clubs are ranked (ranking.core.ClubMethod, the same codes)."""

        PLACES = "places", _("by places per interclub (NTSV)")
        AVERAGE = "average", _("by the average of the best percentages")

    club_method = models.CharField(
        _("club ranking"),
        max_length=10,
        choices=ClubMethod,
        default=ClubMethod.PLACES,
        db_default=ClubMethod.PLACES,
    )
    #: By average: a club's ranking takes its best this many results of the season.
    club_results = models.PositiveSmallIntegerField(
        _("results per club that count"), default=10, validators=[MinValueValidator(1)]
    )
    #: By places: a club scores in an interclub with this many players, by their places.
    club_players = models.PositiveSmallIntegerField(
        _("players per club whose places count"),
        default=3,
        db_default=3,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
    )
    club_share = models.PositiveSmallIntegerField(
        _("share of the interclubs a club's score takes (%)"),
        default=50,
        db_default=50,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
    )
    club_missing_points = models.PositiveIntegerField(
        _("points for each interclub a club lacks"),
        default=500,
        db_default=500,
        validators=[MaxValueValidator(100000)],
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-start"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["federation", "slug"], name="season_slug_once"),
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """An event open to players of other clubs and to guests, organised by a club or a
    federation: an interclub, an open tournament. Its divisions are competitions."""

    class Kind(models.TextChoices):
        INTERCLUB = "interclub", _("interclub")
        OPEN = "open", _("open tournament")

    organiser = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="events", verbose_name=_("organiser")
    )
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_text])
    slug = models.SlugField(_("short name"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind, default=Kind.OPEN)
    #: The event's identity across Bordpunts: a results file carries it, and the
    #: federation's instance refuses the same event twice.
    uid = models.UUIDField(_("identity"), default=uuid.uuid4, unique=True, editable=False)
    date = models.DateField(_("date"), null=True, blank=True)
    #: The season whose ranking the event's games count for; empty: not ranked.
    season = models.ForeignKey(
        Season,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("season"),
    )
    entry_by_players = models.BooleanField(_("players enter themselves"), default=True)
    entry_by_clubs = models.BooleanField(_("clubs enter their members"), default=True)
    guests_allowed = models.BooleanField(_("guests may play"), default=True)
    entry_closes_at = models.DateTimeField(_("entry closes"), null=True, blank=True)
    #: Direct the event (its divisions, rounds and results) without being a secretary of
    #: the organiser.
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_events",
        verbose_name=_("event directors"),
    )
    #: Type the players' paper slips in the jury room of its duplicate divisions.
    jury = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="jury_events", verbose_name=_("jury")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    changed_at = models.DateTimeField(_("last changed"), auto_now=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.UniqueConstraint(fields=["organiser", "slug"], name="event_slug_once"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("event", kwargs={"club": self.organiser.slug, "event": self.slug})


class Entry(models.Model):
    """A person in an event, for a club or as a guest (`club` empty). Once per event: a
    person plays an event for one club, whichever divisions they play in."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="entries", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="event_entries", verbose_name=_("player")
    )
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="event_entries",
        verbose_name=_("for club"),
    )
    #: The club as a director typed it, entering a person by federation number for a club
    #: that is not one of theirs here (a club of another Bordpunt or federation); empty
    #: with `club` set, and for a guest.
    club_name = models.CharField(
        _("club (as typed)"),
        max_length=120,
        blank=True,
        db_default="",
        validators=[validate_plain_text],
    )
    #: The person was made by this entry: a director entered a federation number no
    #: record had (events.services.entry_create_by_number). Such a person has no
    #: membership; privacy/retention.py counts their time from the event.
    person_made = models.BooleanField(
        _("person made by the entry"), default=False, db_default=False
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    created_at = models.DateTimeField(_("entered"), auto_now_add=True)

    class Meta:
        ordering = ["event", "player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.event})"

    @property
    def club_shown(self) -> str:
        """The club the person plays for, as the pages show it; empty: a guest."""
        return self.club.name if self.club is not None else self.club_name
