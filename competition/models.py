"""Competitions, their groups, entrants and rounds.

A round's games (its pairings and results) live in the games app; this app creates them
and reads their results for the standings.

Django: the ORM models.
"""

from collections.abc import Collection
from datetime import date, time
from typing import Any, Self

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.inputs import validate_plain_text
from clubs.models import Club, Player
from clubs.permissions import clubs_managed_by
from clubs.slugs import validate_competition_slug
from events.permissions import events_directed_by, manages_competition
from games.models import PUBLIC_ROUND_STATUSES, RoundStatus

TIEBREAK_CHOICES = [
    ("spread", _("spread (saldo)")),
    ("wins", _("wins")),
    ("head_to_head", _("head-to-head")),
    ("opponents_match_points", _("opponents' match points (Buchholz)")),
    ("sonneborn_berger", _("Sonneborn-Berger")),
    ("relative_score", _("relative score (own score against the table's average)")),
]


class TableSize(models.TextChoices):
    """How the players present sit: the codes of the engine's `SIZE_CHOICES` (2, 3, 4,
    "fours"); 4 and "fours" split alike, as there is no table of 5."""

    TWO = "2", _("tables of 2 (one against one)")
    THREE = "3", _("tables of 3 (a table of 4 where one or two are left over)")
    FOUR = "4", _("tables of 4 (tables of 3 where players are left over)")
    FOURS = "fours", _("as many tables of 4 as possible, the rest of 3")


def table_size_choice(code: str) -> int | str:
    """The engine's choice (`pairing.core.table_sizes`) for a stored code."""
    return "fours" if code == TableSize.FOURS else int(code)


#: More planned evenings than a season has (two a week all year) are a mistake in the list.
MAX_EVENINGS = 104


def validate_evening_dates(value: object) -> None:
    """The planned evenings: a list of distinct ISO dates (``"2026-09-14"``), in order."""
    if not isinstance(value, list) or len(value) > MAX_EVENINGS:
        raise ValidationError(_("At most %(count)s dates.") % {"count": MAX_EVENINGS})
    try:
        parsed = [date.fromisoformat(item) for item in value]
    except (TypeError, ValueError):
        raise ValidationError(_("Dates as YYYY-MM-DD.")) from None
    if [day.isoformat() for day in parsed] != value or sorted(set(parsed)) != parsed:
        raise ValidationError(_("Dates as YYYY-MM-DD, each once, in order."))


def validate_tiebreaks(value: object) -> None:
    known = {key for key, _label in TIEBREAK_CHOICES}
    if not isinstance(value, list) or any(item not in known for item in value):
        raise ValidationError(_("Choose tiebreaks from the list."), code="invalid")
    if len(set(value)) != len(value):
        raise ValidationError(_("Each tiebreak can be chosen only once."), code="duplicate")


def default_tiebreaks() -> list[str]:
    return ["spread"]


class ArchivableCompetition(models.Model):
    """What both kinds of a club's competition have in their life: when made, when last
    changed, and when archived. A paired `Competition` and a `duplicate.DuplicateCompetition`
    are different models (neither is the other with a flag); archiving, and the version of
    their pages, work alike for both."""

    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    #: The last change to anything its pages show (competition/versioning.py,
    #: `duplicate.services.shared.duplicate_touched`).
    changed_at = models.DateTimeField(_("last changed"), auto_now=True)
    #: Set once, by `competition_archive` or `duplicate_archive`: it stays readable and
    #: takes no changes.
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class Competition(ArchivableCompetition):
    class Kind(models.TextChoices):
        CLUB = "club", _("club competition")
        TOURNAMENT = "tournament", _("tournament")

    class Rules(models.TextChoices):
        GOUDS_8 = "gouds8", _("Gouds 8")
        STANDARD = "standard", _("standard rules")
        SBNL = "sbnl", _("SBNL tournament rules")
        CUSTOM = "custom", _("club variant")

    class Ranking(models.TextChoices):
        TOTALS = "totals", _("totals")
        AVERAGE = "average", _("average per game")

    class ByeBoardPoints(models.TextChoices):
        FIXED = "fixed", _("fixed number")
        AVERAGE = "average", _("the player's average")

    class Starters(models.TextChoices):
        BY_LOT = "by_lot", _("by lot at the table")
        ASSIGNED = "assigned", _("assigned by the pairing")

    class TableScoring(models.TextChoices):
        PER_OPPONENT = "per_opponent", _("2/1/0 against each opponent at the table")
        SCALED = "scaled", _("per table, scaled to one game")

    class PairingSystem(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "rr", _("round robin")
        KING_OF_THE_HILL = "koth", _("King of the Hill")
        RANDOM = "random", _("random")

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="competitions", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_text])
    slug = models.SlugField(_("short name"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind, default=Kind.CLUB)
    rules = models.CharField(_("rules"), max_length=20, choices=Rules, default=Rules.GOUDS_8)
    custom_rules = models.JSONField(
        _("club variant rules"),
        default=dict,
        blank=True,
        help_text=_("Only for a club variant: the rule-set fields that differ."),
    )
    start_date = models.DateField(_("start date"), null=True, blank=True)
    number_of_rounds = models.PositiveSmallIntegerField(
        _("number of rounds"), null=True, blank=True, help_text=_("For tournaments.")
    )
    pairing_system = models.CharField(
        _("pairing system"), max_length=20, choices=PairingSystem, default=PairingSystem.SWISS
    )
    starters = models.CharField(
        _("who starts"), max_length=20, choices=Starters, default=Starters.BY_LOT
    )
    table_size = models.CharField(
        _("table size"),
        max_length=10,
        choices=TableSize,
        default=TableSize.TWO,
        help_text=_(
            "How many play at one table. With 14 present, tables of 4 give two tables of 4 "
            "and two of 3; a table of 2 only when 2 or 5 are present. Tables of 3 and 4 need "
            "rules for up to 4 players (the standard rules). Each round can differ, on its "
            "pairing page."
        ),
    )
    table_scoring = models.CharField(
        _("match points at a table"),
        max_length=20,
        choices=TableScoring,
        default=TableScoring.PER_OPPONENT,
        help_text=_(
            "Per opponent: 2 for a win, 1 for a draw against each player at the table, so "
            "the winner of a table of 4 gets 6. Per table: the same divided by the number of "
            "opponents, so every table is worth one game; for evenings that mix table sizes."
        ),
    )
    bye_match_points = models.PositiveSmallIntegerField(_("match points for a bye"), default=2)
    bye_board_points = models.CharField(
        _("board points for a bye"),
        max_length=20,
        choices=ByeBoardPoints,
        default=ByeBoardPoints.FIXED,
    )
    bye_board_points_fixed = models.PositiveSmallIntegerField(
        _("fixed board points for a bye"), default=0
    )
    forfeit_win_match_points = models.PositiveSmallIntegerField(
        _("match points for a forfeit win"), default=2
    )
    forfeit_win_board_points = models.PositiveSmallIntegerField(
        _("board points for a forfeit win"), default=0
    )
    ranking = models.CharField(_("ranking"), max_length=20, choices=Ranking, default=Ranking.TOTALS)
    min_games = models.PositiveSmallIntegerField(
        _("minimum games"),
        default=0,
        help_text=_("When ranking by average: players with fewer games rank below the rest."),
    )
    tiebreaks = models.JSONField(
        _("tiebreaks"), default=default_tiebreaks, blank=True, validators=[validate_tiebreaks]
    )
    only_confirmed_results = models.BooleanField(
        _("only confirmed results count"),
        default=False,
        help_text=_(
            "A result a player enters counts once the opponent confirmed it. Without this, "
            "it counts at once, marked as provisional."
        ),
    )
    rated = models.BooleanField(
        _("counts for the rating"),
        default=True,
        help_text=_("Its settled results count for the club's rating list."),
    )
    clock_minutes = models.PositiveSmallIntegerField(
        _("minutes per player on the clock"),
        null=True,
        blank=True,
        help_text=_("For the board's game clock; empty: the minutes of the rule set."),
    )
    # The season's evenings, set once by the secretary: a new round is offered on the next
    # one, and the competition's calendar feed lists them (competition/calendars.py).
    evening_dates = models.JSONField(
        _("planned evenings"),
        default=list,
        db_default=models.Value([], output_field=models.JSONField()),
        blank=True,
        validators=[validate_evening_dates],
        help_text=_("The dates the competition plays on, one a line (2026-09-14 or 14-09-2026)."),
    )
    evening_start = models.TimeField(
        _("evenings start at"), default=time(19, 30), db_default=time(19, 30)
    )
    evening_end = models.TimeField(
        _("evenings end at"), default=time(23, 0), db_default=time(23, 0)
    )
    #: The open event this competition is a division of (events/); empty: the club's own.
    event = models.ForeignKey(
        "events.Event",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="competitions",
        verbose_name=_("event"),
    )
    _stored_slug: str | None  # the short name as loaded (from_db), for clean()

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="competition_slug_per_club"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("standings", kwargs=self.url_kwargs)

    @classmethod
    def from_db(
        cls, db: str | None, field_names: Collection[str], values: Collection[Any], **kwargs: Any
    ) -> Self:
        competition = super().from_db(db, field_names, values, **kwargs)
        competition._stored_slug = competition.__dict__.get("slug")
        return competition

    def clean(self) -> None:
        """A short name the club's own pages have (`/<club>/beheer/`) is refused when taken,
        new or renamed to; one from before is kept until the competition is renamed."""
        if self.slug != getattr(self, "_stored_slug", None):
            try:
                validate_competition_slug(self.slug)
            except ValidationError as error:
                raise ValidationError({"slug": error}) from None
        table_error = self.table_size_error(self.table_size)
        if table_error:
            raise ValidationError({"table_size": table_error})

    def table_size_error(self, code: str) -> str | Promise | None:
        """Why this competition cannot play at tables of `code`, or None: a table of 3 or
        4 needs rules for up to 4 players (the split of 3s and 4s can always give a table
        of 4)."""
        if not code or code == TableSize.TWO:
            return None
        from competition.rulesets import ruleset_for  # rulesets reads this module

        try:
            players_max = ruleset_for(self).players_max
        except (ValueError, TypeError, KeyError):
            return None  # a club variant that is not valid is refused on its own field
        if players_max < 4:
            return _(
                "These rules are for at most %(count)s players at a table; tables of 3 and 4 "
                "need the standard rules or a club variant for up to 4 players."
            ) % {"count": players_max}
        return None

    @property
    def url_kwargs(self) -> dict[str, Any]:
        return {"club": self.club.slug, "competition": self.slug}

    @property
    def evenings(self) -> list[date]:
        """The planned evenings as dates."""
        return [date.fromisoformat(day) for day in self.evening_dates]


class Group(models.Model):
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="groups", verbose_name=_("competition")
    )
    name = models.CharField(_("name"), max_length=60, validators=[validate_plain_text])
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["order", "name"]
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        constraints = [
            models.UniqueConstraint(fields=["competition", "name"], name="group_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="entrants",
        verbose_name=_("competition"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    group = models.ForeignKey(
        Group,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entrants",
        verbose_name=_("group"),
    )
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    joined_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    withdrawn_from_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"), null=True, blank=True
    )

    class Meta:
        ordering = ["player__name"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="entrant_once"),
            models.CheckConstraint(
                condition=Q(joined_round__gte=1),
                name="entrant_joined_round_positive",
            ),
            models.CheckConstraint(
                condition=Q(withdrawn_from_round__isnull=True)
                | Q(withdrawn_from_round__gt=models.F("joined_round")),
                name="entrant_withdrawn_after_joining",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.competition})"

    def is_active_in(self, round_number: int) -> bool:
        if round_number < self.joined_round:
            return False
        return self.withdrawn_from_round is None or round_number < self.withdrawn_from_round


class RoundQuerySet(models.QuerySet["Round"]):
    def published(self) -> "RoundQuerySet":
        """Rounds the public may see (the rule is `games.models.PUBLIC_ROUND_STATUSES`)."""
        return self.filter(status__in=PUBLIC_ROUND_STATUSES)

    def visible_to(self, user) -> "RoundQuerySet":
        """Published rounds, and every round of the clubs `user` is secretary of and of the
        events `user` directs (staff: all)."""
        managed = clubs_managed_by(user)
        if managed is None:
            return self.all()
        return self.filter(
            Q(status__in=PUBLIC_ROUND_STATUSES)
            | Q(competition__club__in=managed)
            | Q(competition__event__in=events_directed_by(user))
        )


class Round(models.Model):
    Status = RoundStatus

    # PROTECT: a competition that has rounds (and so maybe results) is archived, not deleted.
    competition = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("competition")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status, default=Status.DRAFT)
    #: Blank: the competition's `table_size`.
    table_size = models.CharField(
        _("table size"), max_length=10, choices=TableSize, blank=True, default=""
    )
    #: Which engine made the pairing and why: one dict of codes and parameters per group
    #: (`pairing.core.Explanation.to_dict`, with "group"), never a sentence;
    #: empty when the pairing was set by hand or imported. `competition.pairing_text` puts
    #: it in the reader's words.
    pairing_explanation = models.JSONField(
        _("pairing explanation"), default=list, blank=True, editable=False
    )

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["competition", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} – {_('round')} {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("round", kwargs={**self.competition.url_kwargs, "number": self.number})

    @property
    def is_published(self) -> bool:
        return self.status in PUBLIC_ROUND_STATUSES

    @property
    def effective_table_size(self) -> str:
        """The round's own table size, else the competition's."""
        return self.table_size or self.competition.table_size

    @property
    def at_tables(self) -> bool:
        """Paired into tables of 3 and 4 rather than one against one."""
        return self.effective_table_size != TableSize.TWO


def round_visible_to(user, round: Round) -> bool:
    """May `user` see this round, its pairings and results? Drafts: those who manage its
    competition (`events.permissions.manages_competition`)."""
    return round.is_published or manages_competition(user, round.competition)


class Absence(models.Model):
    """A player who entered the competition but is not there for this round."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="absences", verbose_name=_("round")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="absences", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="absence_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.round}"
