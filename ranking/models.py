"""The ranked results of a season, whichever Bordpunt played them.

A `RankedEvent` is one event's results as the ranking keeps them: published from an event
played here, or imported from another Bordpunt's results file (ranking/files.py). Its
games keep every player's points and the ranking percentage the NTSV formula gives
(ranking/core.py), unrounded. The names and clubs are kept as they were at the event, so a
later rename or move changes nothing that was played.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from events.models import Event, Season


class RankedEvent(models.Model):
    class Source(models.TextChoices):
        LOCAL = "local", _("played here")
        IMPORTED = "imported", _("imported from a results file")

    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="ranked_events", verbose_name=_("season")
    )
    #: `events.Event.uid` of the event, here or on the Bordpunt that played it: once only.
    uid = models.UUIDField(_("event identity"), unique=True)
    event = models.OneToOneField(
        Event,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ranked",
        verbose_name=_("event"),
    )
    name = models.CharField(_("name"), max_length=120)
    organiser = models.CharField(_("organiser"), max_length=120, blank=True)
    kind = models.CharField(_("kind"), max_length=20, choices=Event.Kind, default=Event.Kind.OPEN)
    date = models.DateField(_("date"))
    source = models.CharField(_("source"), max_length=10, choices=Source, default=Source.LOCAL)
    #: The SHA-256 of the imported file, to say which file it was.
    file_sha256 = models.CharField(_("file checksum"), max_length=64, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("ranked event")
        verbose_name_plural = _("ranked events")

    def __str__(self) -> str:
        return self.name


class RankedGame(models.Model):
    """One ranked game of an event: a duplicate game (every player the same racks)."""

    event = models.ForeignKey(
        RankedEvent, on_delete=models.CASCADE, related_name="games", verbose_name=_("event")
    )
    number = models.PositiveSmallIntegerField(_("game"))
    date = models.DateField(_("date"))
    #: The duplicate evening played here whose results these are (ranking.services publishes
    #: it again when it changes); empty for an imported game.
    evening = models.OneToOneField(
        "duplicate.Evening",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ranked_game",
        verbose_name=_("duplicate evening"),
    )
    #: Points of the game's winner and of its median player, as the percentages used them.
    winner_points = models.IntegerField(_("winner's points"))
    median_points = models.FloatField(_("median points"))

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("ranked game")
        verbose_name_plural = _("ranked games")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="ranked_game_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event} – {self.number}"


class RankedResult(models.Model):
    """A player's points in a ranked game and their ranking percentage, unrounded."""

    game = models.ForeignKey(
        RankedGame, on_delete=models.CASCADE, related_name="results", verbose_name=_("game")
    )
    #: The person, when known here (by federation number); empty for a guest without one.
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ranked_results",
        verbose_name=_("player"),
    )
    federation_number = models.CharField(_("federation number"), max_length=20, blank=True)
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ranked_results",
        verbose_name=_("club"),
    )
    #: The club as the results file or the event named it (a guest: empty).
    club_name = models.CharField(_("club name"), max_length=120, blank=True)
    points = models.IntegerField(_("points"))
    #: 100 − VMW × GV / VIW (ranking/core.py), kept unrounded.
    percentage = models.FloatField(_("percentage"))

    class Meta:
        ordering = ["game", "-points", "name"]
        verbose_name = _("ranked result")
        verbose_name_plural = _("ranked results")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=models.Q(player__isnull=False),
                name="ranked_result_once_per_person",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.points}"


class Publication(models.Model):
    """A season's ranking frozen as the federation's official version: its rows are kept
    as they were published (`PublishedPerson`, `PublishedClub`), so a later result, a
    correction or another GV changes no version; a correction is a new version, with its
    reason, and the changes from the version before are shown (the NTSV announces them)."""

    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="publications", verbose_name=_("season")
    )
    version = models.PositiveIntegerField(_("version"))
    #: The date the ranking is of (its `on`).
    on = models.DateField(_("ranking on"))
    published_at = models.DateTimeField(_("published"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    #: Who published it, as they were named then (the account may go).
    by_name = models.CharField(_("published by"), max_length=150, blank=True)
    #: Why a correction was published (empty for the first version).
    reason = models.TextField(_("reason"), blank=True)
    interclubs = models.PositiveIntegerField(_("interclubs"))
    interclubs_needed = models.PositiveIntegerField(_("interclubs needed"))

    class Meta:
        ordering = ["season", "-version"]
        verbose_name = _("published ranking")
        verbose_name_plural = _("published rankings")
        constraints = [
            models.UniqueConstraint(fields=["season", "version"], name="publication_version_once"),
        ]

    def __str__(self) -> str:
        return f"{self.season} v{self.version}"


class PublishedPerson(models.Model):
    """A person's row in a published ranking, as it was published."""

    publication = models.ForeignKey(
        Publication, on_delete=models.CASCADE, related_name="persons", verbose_name=_("version")
    )
    #: The row's place in the list (ranked first, then the unranked).
    position = models.PositiveIntegerField(_("position"))
    #: `ranking.selectors.person_key`: a player's id here, or `nr-<federation number>`.
    person = models.CharField(_("person"), max_length=30)
    #: The person here (for an erasure: privacy/erasure.py); empty for one of another
    #: Bordpunt.
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
    )
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    federation_number = models.CharField(_("federation number"), max_length=20, blank=True)
    name = models.CharField(_("name"), max_length=120)
    club_name = models.CharField(_("club"), max_length=120, blank=True)
    games = models.PositiveIntegerField(_("games"))
    interclubs = models.PositiveIntegerField(_("interclubs"))
    counted = models.PositiveIntegerField(_("counted"))
    average = models.FloatField(_("average percentage"))
    #: Why the person is not ranked: "games", "interclubs" or empty.
    unranked_reason = models.CharField(_("not ranked because"), max_length=20, blank=True)

    class Meta:
        ordering = ["publication", "position"]
        verbose_name = _("published person")
        verbose_name_plural = _("published persons")
        constraints = [
            models.UniqueConstraint(fields=["publication", "person"], name="published_person_once"),
        ]

    def __str__(self) -> str:
        return self.name


class PublishedClub(models.Model):
    """A club's row in a published ranking, as it was published."""

    publication = models.ForeignKey(
        Publication, on_delete=models.CASCADE, related_name="clubs", verbose_name=_("version")
    )
    position = models.PositiveIntegerField(_("position"))
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    name = models.CharField(_("club"), max_length=120)
    rank = models.PositiveIntegerField(_("rank"))
    score = models.FloatField(_("score"))
    results = models.PositiveIntegerField(_("results"))

    class Meta:
        ordering = ["publication", "position"]
        verbose_name = _("published club")
        verbose_name_plural = _("published clubs")

    def __str__(self) -> str:
        return self.name
