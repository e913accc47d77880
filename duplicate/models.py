"""A duplicate evening: its master game turn by turn, and every player's slip.

The master game is stored as what the spelleider did (the tiles drawn, the top chosen);
the board, the racks and the tops follow from those through `rules.duplicate`, so they
are never stored twice. Slips keep what the player wrote and claimed beside what the
engine made of it: the score, and the reason as a code when it scores 0.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.expressions import Combinable
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.inputs import validate_plain_text
from clubs.models import Club, Player, SlipNotation, validate_word_list_name
from clubs.slugs import validate_competition_slug
from competition.models import ArchivableCompetition
from duplicate import clock, ranking
from duplicate.ranking import slip_counts


class DuplicateCompetition(ArchivableCompetition):
    """A season of duplicate evenings: only what a duplicate competition has. It has no
    rounds, games or attendance: those belong to `competition.Competition`, which this is
    not, so a duplicate competition cannot be paired (by construction)."""

    class Rules(models.TextChoices):
        #: What a master game can play: one game for the whole room, with the board rules
        #: of a rule set (Gouds 8's turn limit and clock, a club variant: for a table).
        STANDARD = "standard", _("standard rules")
        SBNL = "sbnl", _("SBNL tournament rules")

    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        related_name="duplicate_competitions",
        verbose_name=_("club"),
    )
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_text])
    #: Shares `/<club>/<short name>/` with the club's paired competitions
    #: (`clubs.slugs.competition_slug_taken`).
    slug = models.SlugField(_("short name"))
    rules = models.CharField(_("rules"), max_length=20, choices=Rules, default=Rules.STANDARD)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    #: `rules.referee.DuplicateSettings.to_dict()`: the preset it started from and every
    #: draw and slip rule; empty = the NTSV preset. Each new evening takes a copy.
    settings = models.JSONField(_("duplicate rules"), default=dict, blank=True)
    best_evenings = models.PositiveSmallIntegerField(
        _("best evenings that count"),
        null=True,
        blank=True,
        help_text=_("The season ranking averages each player's best evenings; empty: all of them."),
    )
    #: The open event this competition is a division of (events/); empty: the club's own.
    event = models.ForeignKey(
        "events.Event",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="duplicate_competitions",
        verbose_name=_("event"),
    )

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("duplicate competition")
        verbose_name_plural = _("duplicate competitions")
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="duplicate_slug_per_club"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("duplicate_evenings", kwargs=self.url_kwargs)

    def clean(self) -> None:
        try:
            validate_competition_slug(self.slug)
        except ValidationError as error:
            raise ValidationError({"slug": error}) from None

    @property
    def url_kwargs(self) -> dict[str, Any]:
        return {"club": self.club.slug, "competition": self.slug}


def _withdrawn_by(evening_number: int | Combinable) -> models.Q:
    """The participants withdrawn from evening `evening_number` or one before it: the rule
    of `Participant.plays_in` in SQL (`evening_number` may be an `OuterRef`)."""
    return models.Q(withdrawn_from_evening__lte=evening_number)


class ParticipantQuerySet(models.QuerySet["Participant"]):
    """Who plays which evening, asked of the rows as `Participant.plays_in` asks it of one
    (tests/duplicate/test_model.py holds the two to each other)."""

    def playing_in(self, evening_number: int | Combinable) -> ParticipantQuerySet:
        """Those who play evening `evening_number`: never withdrawn, or from a later one."""
        return self.exclude(_withdrawn_by(evening_number))

    def withdrawn_in(self, evening_number: int | Combinable) -> ParticipantQuerySet:
        """Those withdrawn from evening `evening_number` or an earlier one: out of it."""
        return self.filter(_withdrawn_by(evening_number))


class Participant(models.Model):
    """A player in a duplicate competition. Withdrawn from evening N: plays the evenings
    before it, and from N on hands in no slip and is out of the rankings, as an entrant
    withdrawn from a round is out of its pairings (`plays_in`; of many rows at once:
    `Participant.objects.playing_in`, `withdrawn_in`)."""

    competition = models.ForeignKey(
        DuplicateCompetition,
        on_delete=models.CASCADE,
        related_name="participants",
        verbose_name=_("competition"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="duplicate_participations",
        verbose_name=_("player"),
    )
    withdrawn_from_evening = models.PositiveSmallIntegerField(
        _("withdrawn from evening"), null=True, blank=True
    )
    #: The table the player sits at in a big room: the jury room counts missing slips by it.
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    created_at = models.DateTimeField(_("entered"), auto_now_add=True)

    objects = ParticipantQuerySet.as_manager()

    class Meta:
        ordering = ["player__name"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="participant_once"),
            models.CheckConstraint(
                condition=models.Q(withdrawn_from_evening__isnull=True)
                | models.Q(withdrawn_from_evening__gte=1),
                name="participant_withdrawn_from_an_evening",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.competition})"

    def plays_in(self, evening_number: int) -> bool:
        """Whether the participant plays evening `evening_number` (the rule of
        `ParticipantQuerySet.playing_in`, of this row)."""
        return self.withdrawn_from_evening is None or evening_number < self.withdrawn_from_evening


class Evening(models.Model):
    """One duplicate evening of a competition: one master game."""

    competition = models.ForeignKey(
        DuplicateCompetition,
        on_delete=models.PROTECT,
        related_name="evenings",
        verbose_name=_("competition"),
    )
    number = models.PositiveSmallIntegerField(_("evening"))
    date = models.DateField(_("date"), null=True, blank=True)
    #: A `rules.RULE_SETS` name: the board rules (rack, bingo bonus, word list).
    rules = models.CharField(_("rules"), max_length=20, default="standard")
    #: The club's own word list when the evening was made (`Club.word_list`,
    #: clubs/word_lists.py); empty: the shipped list of `rules`.
    word_list = models.CharField(
        _("word list"),
        max_length=40,
        blank=True,
        default="",
        db_default="",
        validators=[validate_word_list_name],
    )
    #: `rules.duplicate.DrawRules.to_dict()`; empty = the NTSV's.
    draw_rules = models.JSONField(_("draw rules"), default=dict, blank=True)
    #: `rules.referee.SlipRules.to_dict()`, copied from the competition when the evening
    #: is made, so a later change of the competition's rules leaves it as played; empty =
    #: the NTSV preset's.
    slip_rules = models.JSONField(_("slip rules"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("competition", "number")
        constraints = [
            models.UniqueConstraint(
                fields=("competition", "number"), name="duplicate_evening_number_once"
            )
        ]
        verbose_name = _("duplicate evening")
        verbose_name_plural = _("duplicate evenings")

    def __str__(self) -> str:
        return f"{self.competition} – {self.number}"


class PresenceQuerySet(models.QuerySet["Presence"]):
    """Presence asked of the rows as `duplicate.ranking.present_for` asks it of one
    (tests/duplicate/test_presence.py holds the two to each other)."""

    def not_present_for(self, turn_number: int | Combinable) -> PresenceQuerySet:
        """The presences that keep their player from turn `turn_number` (may be an
        `OuterRef`): absent, or left after an earlier turn."""
        return self.filter(
            models.Q(status=ranking.ABSENT)
            | models.Q(status=ranking.LEFT, left_after_turn__lt=turn_number)
        )


class Presence(models.Model):
    """Whether a participant was at an evening: present, absent, or left after a turn, set
    by the spelleider or the jury (`services.presence.presence_set`). No row: not recorded,
    and the slips say it (`duplicate.ranking.turns_due`, the one rule)."""

    class Status(models.TextChoices):
        PRESENT = ranking.PRESENT, _("present")
        ABSENT = ranking.ABSENT, _("absent")
        LEFT = ranking.LEFT, _("left after a turn")

    evening = models.ForeignKey(
        Evening, on_delete=models.PROTECT, related_name="presences", verbose_name=_("evening")
    )
    participant = models.ForeignKey(
        Participant,
        on_delete=models.CASCADE,
        related_name="presences",
        verbose_name=_("participant"),
    )
    status = models.CharField(_("presence"), max_length=10, choices=Status)
    #: The last turn the player was there for (`Status.LEFT` only).
    left_after_turn = models.PositiveSmallIntegerField(_("left after turn"), null=True, blank=True)

    objects = PresenceQuerySet.as_manager()

    class Meta:
        ordering = ("evening", "participant")
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        constraints = [
            models.UniqueConstraint(
                fields=("evening", "participant"), name="duplicate_presence_once"
            ),
            models.CheckConstraint(
                condition=models.Q(status=ranking.LEFT, left_after_turn__gte=1)
                | models.Q(
                    status__in=(ranking.PRESENT, ranking.ABSENT), left_after_turn__isnull=True
                ),
                name="duplicate_presence_left_after_a_turn",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evening}: {self.participant_id} {self.status}"

    def present_for(self, turn_number: int) -> bool:
        return ranking.present_for(self.status, self.left_after_turn, turn_number)


class Turn(models.Model):
    """One turn of the master game: drawn, then (once the top is chosen) closed."""

    evening = models.ForeignKey(
        Evening, on_delete=models.PROTECT, related_name="turns", verbose_name=_("evening")
    )
    number = models.PositiveSmallIntegerField(_("turn"))
    #: The tiles drawn this turn ("?" = blank); the rest of the rack was kept.
    drawn = models.CharField(_("drawn"), max_length=15)
    #: The draws thrown back for the minimum before `drawn`, space-separated, when the
    #: rules send a rejected rack back whole (`DrawRules.rejection`): the game replays them
    #: (`services.turn_drawn`).
    rejected = models.CharField(_("thrown back"), max_length=200, blank=True)
    rack = models.CharField(_("rack"), max_length=15)
    #: The rack of the draw the last redo cancelled (`services.turn_redo`), or empty:
    #: every tile of it, the kept ones included, went back into the bag before `rejected`
    #: and `drawn`, and `rack` differs from it (FISF §3.6; `DuplicateGame.cancel`).
    cancelled = models.CharField(
        _("rack cancelled"), max_length=15, blank=True, default="", db_default=""
    )
    #: The top put on the board, in the engine's notation; empty while the turn is open.
    top = models.CharField(_("top"), max_length=40, blank=True)
    top_score = models.PositiveIntegerField(_("top score"), null=True, blank=True)
    #: The sum of the tops up to and including this turn.
    total = models.PositiveIntegerField(_("sum of the tops"), null=True, blank=True)
    #: When the rack was announced, on the clock every app server shares
    #: (`clubs.timing.clock_now`): the turn's clock runs from here (`deadline`).
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)
    #: The thinking time of this turn, copied from the evening's slip rules at the draw
    #: (`SlipRules.turn_seconds`): a later change of the rules moves no turn already drawn.
    seconds = models.PositiveSmallIntegerField(_("thinking time (seconds)"), default=180)
    #: Time the spelleider added, with a reason (`turn_add_time`).
    added_seconds = models.PositiveIntegerField(_("time added (seconds)"), default=0)

    class Meta:
        ordering = ("evening", "number")
        constraints = [
            models.UniqueConstraint(fields=("evening", "number"), name="duplicate_turn_once"),
            models.CheckConstraint(
                condition=models.Q(top="") | models.Q(top_score__isnull=False),
                name="duplicate_top_has_score",
            ),
        ]
        verbose_name = _("duplicate turn")
        verbose_name_plural = _("duplicate turns")

    def __str__(self) -> str:
        return f"{self.evening}, {self.number}"

    @property
    def is_open(self) -> bool:
        return not self.top

    @property
    def deadline(self) -> datetime | None:
        """When this turn's time is up (None: drawn before the app kept the time)."""
        return clock.deadline(self.drawn_at, self.seconds + self.added_seconds)

    def in_time(self, at: datetime, grace_seconds: int) -> bool:
        """Whether a slip arriving at ``at`` is in time: the top not on the board, and the
        clock not run out (`duplicate.clock.in_time`, with the evening's grace)."""
        return self.is_open and clock.in_time(self.deadline, at, grace_seconds)


class SlipQuerySet(models.QuerySet["Slip"]):
    def standing(self) -> SlipQuerySet:
        """The slips that stand: not void by a redo of their turn (`Slip.void`). Every
        ranking, count and list of slips reads these; the history keeps the void ones."""
        return self.filter(void=False)


class Slip(models.Model):
    """A player's play for one turn (*beurtbriefje*), scored by the engine."""

    turn = models.ForeignKey(
        Turn, on_delete=models.PROTECT, related_name="slips", verbose_name=_("turn")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="duplicate_slips", verbose_name=_("player")
    )
    #: What the player wrote, e.g. "8H WOORD".
    text = models.CharField(_("play"), max_length=60)
    #: The notation `text` is written in: the club's when it was handed in or corrected.
    #: It is read in it again whenever it is scored again, so a later change of the
    #: club's notation changes how the slip is shown, never its score.
    written_in = models.CharField(
        _("notation"), max_length=16, choices=SlipNotation, default=SlipNotation.ROWS_NUMBERED
    )
    claimed = models.PositiveIntegerField(_("claimed score"), null=True, blank=True)
    score = models.PositiveIntegerField(_("score"))
    #: Why it scores 0 (a `rules.MESSAGES` code), or empty.
    reason_code = models.CharField(_("reason"), max_length=40, blank=True)
    reason_params = models.JSONField(default=dict, blank=True)
    #: The claimed score was not the real one: the real one counts.
    corrected = models.BooleanField(_("corrected"), default=False)
    is_top = models.BooleanField(_("top"), default=False)
    #: The faults the referee found (`rules.referee.FAULTS` codes), whatever they led to.
    faults = models.JSONField(_("faults"), default=list, blank=True)
    #: The slip's warning (a fault's code), or empty: the evening's warnings beyond the
    #: free ones cost points (`rules.referee.tally`).
    warning = models.CharField(_("warning"), max_length=40, blank=True)
    #: Points taken off this slip's play for a fault (already off `score`).
    penalty = models.PositiveSmallIntegerField(_("penalty"), default=0)
    #: Handed in from a phone after the turn's time or after the top was put on the board
    #: (`Turn.in_time`): kept, scores 0 in every ranking unless `late_accepted`. The
    #: engine's own score and top mark stay on the row, so accepting needs no rescoring.
    late = models.BooleanField(_("late"), default=False)
    #: The spelleider accepted the late slip, with a reason (`slip_accept_late`): it counts.
    late_accepted = models.BooleanField(_("late slip accepted"), default=False)
    #: Handed in on a draw the spelleider cancelled (`turn_redo`, FISF §3.6): kept as it
    #: was, with its history, and never counted; its player hands in again on the new rack.
    void = models.BooleanField(_("void"), default=False, db_default=False)
    submitted_at = models.DateTimeField(auto_now_add=True)

    objects = SlipQuerySet.as_manager()

    class Meta:
        ordering = ("turn", "player")
        constraints = [
            # One slip that stands per player and turn; the void ones stay beside it.
            models.UniqueConstraint(
                fields=("turn", "player"),
                condition=models.Q(void=False),
                name="duplicate_slip_once",
            )
        ]
        verbose_name = _("slip")
        verbose_name_plural = _("slips")

    def __str__(self) -> str:
        return f"{self.turn}: {self.text}"

    @property
    def counts(self) -> bool:
        """Whether the slip counts (`duplicate.ranking.slip_counts`, the one rule)."""
        return not self.void and slip_counts(late=self.late, accepted=self.late_accepted)

    @property
    def counted_score(self) -> int:
        """What the slip scores in the rankings: its score, or 0 when it does not count."""
        return self.score if self.counts else 0

    @property
    def counted_top(self) -> bool:
        return self.is_top and self.counts

    @property
    def warning_text(self) -> str:
        """The fault the slip was warned for, in the reader's language."""
        from duplicate.rule_fields import FAULT_LABELS

        return str(FAULT_LABELS.get(self.warning, self.warning))

    @property
    def reason_text(self) -> str:
        """Why it scores 0, in the reader's language (the row keeps the code)."""
        from games.rule_messages import describe

        return describe(self.reason_code, self.reason_params) if self.reason_code else ""


class SlipConflict(models.Model):
    """A second typing of a paper slip that differs from the slip already in (two jury
    members typed the same slip, and read it differently): kept beside the slip, which
    counts as it is until the spelleider resolves the conflict, taking this typing (the
    slip corrected) or keeping the slip. A second typing that is the same is refused."""

    slip = models.ForeignKey(
        Slip, on_delete=models.CASCADE, related_name="conflicts", verbose_name=_("slip")
    )
    text = models.CharField(_("play"), max_length=60)
    claimed = models.PositiveIntegerField(_("claimed score"), null=True, blank=True)
    typed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("typed by"),
    )
    typed_at = models.DateTimeField(_("typed"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True)
    #: True: the slip took this typing; False: the slip was kept; None: not resolved yet.
    taken = models.BooleanField(_("typing taken"), null=True, blank=True)

    class Meta:
        ordering = ("typed_at", "pk")
        verbose_name = _("slip conflict")
        verbose_name_plural = _("slip conflicts")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(resolved_at__isnull=True, taken__isnull=True)
                | models.Q(resolved_at__isnull=False, taken__isnull=False),
                name="slip_conflict_resolved_with_a_choice",
            )
        ]

    def __str__(self) -> str:
        return f"{self.slip}: {self.text}"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None
