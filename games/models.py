"""One game: its two players, who started, its result, and the audit trail of changes.

A game refers to its round by foreign key only; this app imports nothing from competition.
A bye is a game without a second player.
"""

from django.conf import settings
from django.db import models
from django.db.models import BooleanField, ExpressionWrapper, F, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from clubs.permissions import can_manage_club, clubs_managed_by
from games.rule_messages import describe, describe_stored


class RoundStatus(models.TextChoices):
    """The status of a round (the field is `competition.Round.status`).

    Defined here, with the rule below, because whether a game may be shown depends on its
    round's status and this app does not import competition.
    """

    DRAFT = "draft", _("draft")
    PUBLISHED = "published", _("published")
    FINISHED = "finished", _("finished")


# What the public may see of a round: its pairings and results once it is published. A
# draft is its club's secretaries' alone (and staff's); anyone else gets a 404, as if it did
# not exist. Listed, not excluded, so that a status added later stays private until named.
# Every page, export and download asks this rule: `Round.objects.published()`,
# `competition.models.round_visible_to`, `Game.objects.published()`, `game_visible_to`.
PUBLIC_ROUND_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.FINISHED)


def game_visible_to(user, game: "Game") -> bool:
    """May `user` see this game (its pairing, moves and result)? Loads the round's club."""
    if game.round.status in PUBLIC_ROUND_STATUSES:
        return True
    return can_manage_club(user, game.round.competition.club)


class Outcome(models.TextChoices):
    PENDING = "", _("not played yet")
    NORMAL = "normal", _("normal")
    FLAG_FALL = "flag_fall", _("flag fall")
    FORFEIT = "forfeit", _("forfeit")
    ANNULLED = "annulled", _("not properly played (annulled)")
    BYE = "bye", _("bye")


#: The outcomes whose result includes both players' board points: a game played on the board
#: (decided by the score, or by a flag fall whatever the score). A forfeit and a bye have
#: none; an annulled game keeps whatever was typed but its scores count for nothing. The
#: typed kinds that carry scores are `games.services.ResultKind.SCORED`; the pure modules
#: (`competition.core.standings`, `competition.core.tsh`) spell the same two codes themselves.
SCORED_OUTCOMES = (Outcome.NORMAL, Outcome.FLAG_FALL)


class Winner(models.TextChoices):
    UNDECIDED = "", _("undecided")
    A = "a", _("first player")
    B = "b", _("second player")
    DRAW = "draw", _("draw")
    NONE = "none", _("nobody")


def winner_by_score(score_a: int, score_b: int) -> str:
    """Highest board points wins; equal is a draw (Gouds 8 rule 2 and the standard rules)."""
    return Winner.A if score_a > score_b else Winner.B if score_b > score_a else Winner.DRAW


class Side(models.TextChoices):
    A = "a", _("first player")
    B = "b", _("second player")


class Confirmation(models.TextChoices):
    """Whether both players stand behind the stored result (games/confirmation.py).

    A result a player enters is provisional until the opponent confirms it; when the
    opponent enters other scores it is disputed, for the secretary to decide. A result the
    secretary enters (or an import) is confirmed at once. An open game is "confirmed" too:
    there is nothing to confirm; `Game.result_state` tells the four states apart.
    """

    CONFIRMED = "confirmed", _("confirmed")
    PROVISIONAL = "provisional", _("provisional")
    DISPUTED = "disputed", _("disputed")


class ResultState(models.TextChoices):
    """What the secretary's round page shows per table."""

    NOT_ENTERED = "not_entered", _("not entered")
    AWAITING = "awaiting", _("awaiting confirmation")
    CONFIRMED = "confirmed", _("confirmed")
    DISPUTED = "disputed", _("disputed")


def _scores(*, present: bool) -> Q:
    return Q(score_a__isnull=not present, score_b__isnull=not present)


# Each outcome allows exactly these combinations of winner and scores.
CONSISTENT_RESULT = (
    Q(outcome=Outcome.PENDING, winner=Winner.UNDECIDED) & _scores(present=False)
    | Q(outcome=Outcome.NORMAL)
    & _scores(present=True)
    & (
        Q(winner=Winner.A, score_a__gt=F("score_b"))
        | Q(winner=Winner.B, score_a__lt=F("score_b"))
        | Q(winner=Winner.DRAW, score_a=F("score_b"))
    )
    | Q(outcome=Outcome.FLAG_FALL, winner__in=[Winner.A, Winner.B]) & _scores(present=True)
    | Q(outcome=Outcome.FORFEIT, winner__in=[Winner.A, Winner.B, Winner.NONE])
    & _scores(present=False)
    | Q(outcome=Outcome.ANNULLED, winner=Winner.NONE)
    | Q(outcome=Outcome.BYE, winner=Winner.A) & _scores(present=False)
)


#: Whether a game has a result. A bye has one (a win, settled by the pairing, and counted in
#: the standings); a game with `Outcome.PENDING` has none. `with_entered_result()` leaves
#: the byes out: a result entered for a game at a table, which is what fixes a pairing.
HAS_RESULT = ~Q(outcome=Outcome.PENDING)
HAS_ENTERED_RESULT = HAS_RESULT & ~Q(outcome=Outcome.BYE)

#: Whether a game's result counts for its competition's standings (and so for every page
#: and export that shows a player's points): its round is published, it has a result, and
#: it is confirmed when the competition counts only confirmed results. Written over the
#: round's competition by lookup, so this app still imports nothing from competition.
COUNTS = (
    Q(round__status__in=PUBLIC_ROUND_STATUSES)
    & HAS_RESULT
    & (Q(confirmation=Confirmation.CONFIRMED) | Q(round__competition__only_confirmed_results=False))
)


#: Whether a game counts for the club's rating (competition/ratings.py): it counts for its
#: competition (`COUNTS`), it is settled (confirmed: a provisional or disputed result waits,
#: even where the standings count it at once), it was played on the board
#: (`SCORED_OUTCOMES`, a flag fall a loss for the player whose flag fell; byes, forfeits and
#: annulled games are not rated), and its competition counts for the rating.
RATED = (
    COUNTS
    & Q(confirmation=Confirmation.CONFIRMED)
    & Q(outcome__in=SCORED_OUTCOMES, player_b__isnull=False)
    & Q(round__competition__rated=True)
)


class GameQuerySet(models.QuerySet):
    def published(self) -> "GameQuerySet":
        """Games of published rounds: what the public may see, and what the standings count."""
        return self.filter(round__status__in=PUBLIC_ROUND_STATUSES)

    def with_result(self) -> "GameQuerySet":
        """Games that have a result, byes included (`HAS_RESULT`)."""
        return self.filter(HAS_RESULT)

    def without_result(self) -> "GameQuerySet":
        """Games still to be played: no result yet (a bye never)."""
        return self.exclude(HAS_RESULT)

    def with_entered_result(self) -> "GameQuerySet":
        """Games at a table whose result was entered: byes left out (`HAS_ENTERED_RESULT`)."""
        return self.filter(HAS_ENTERED_RESULT)

    def counting(self) -> "GameQuerySet":
        """Games whose result counts for their competition's standings (`COUNTS`)."""
        return self.filter(COUNTS)

    def counting_for(self, competition) -> "GameQuerySet":
        """The games that count for `competition` (a `competition.models.Competition`)."""
        return self.counting().filter(round__competition=competition)

    def rated(self) -> "GameQuerySet":
        """Games whose result counts for the club's rating (`RATED`)."""
        return self.filter(RATED)

    def with_counts(self) -> "GameQuerySet":
        """Each game with `counts` (True when `COUNTS` holds): for a page that shows the
        games that do not count too, marked, in the same query."""
        return self.annotate(counts=ExpressionWrapper(COUNTS, output_field=BooleanField()))

    def visible_to(self, user) -> "GameQuerySet":
        """Published games, and every game of the clubs `user` is secretary of (staff: all)."""
        managed = clubs_managed_by(user)
        if managed is None:
            return self.all()
        return self.filter(
            Q(round__status__in=PUBLIC_ROUND_STATUSES) | Q(round__competition__club__in=managed)
        )


class Game(models.Model):
    # PROTECT: a round is deleted only through its service, which removes its games (none of
    # them with a result) first; nothing else may take a round's results with it.
    round = models.ForeignKey(
        "competition.Round", on_delete=models.PROTECT, related_name="games", verbose_name=_("round")
    )
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    player_a = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("first player")
    )
    player_b = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("second player"),
    )
    starter = models.CharField(
        _("who starts"),
        max_length=1,
        choices=Side,
        blank=True,
        help_text=_("Empty when decided by lot and not yet recorded."),
    )
    outcome = models.CharField(
        _("outcome"), max_length=20, choices=Outcome, default=Outcome.PENDING, blank=True
    )
    winner = models.CharField(
        _("winner"), max_length=4, choices=Winner, default=Winner.UNDECIDED, blank=True
    )
    score_a = models.IntegerField(_("board points first player"), null=True, blank=True)
    score_b = models.IntegerField(_("board points second player"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), null=True, blank=True)
    confirmation = models.CharField(
        _("confirmation"), max_length=12, choices=Confirmation, default=Confirmation.CONFIRMED
    )
    claimed_by = models.CharField(
        _("entered by player"),
        max_length=1,
        choices=Side,
        blank=True,
        help_text=_("The player whose entry awaits the opponent's confirmation."),
    )
    counter_result = models.JSONField(
        _("opponent's result"),
        default=dict,
        blank=True,
        help_text=_("The other result the opponent entered, while the game is disputed."),
    )
    version = models.PositiveIntegerField(
        _("version"), default=0, help_text=_("Raised by every change, to refuse stale saves.")
    )
    rules = models.JSONField(
        _("rule set"),
        default=dict,
        blank=True,
        help_text=_("The rule set the game is played by (a rules.RuleSet as a dict)."),
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["round", "table", "pk"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_a=F("player_b")), name="game_two_different_players"
            ),
            models.CheckConstraint(
                condition=Q(player_b__isnull=True, outcome=Outcome.BYE)
                | Q(player_b__isnull=False) & ~Q(outcome=Outcome.BYE),
                name="game_bye_has_no_opponent",
            ),
            models.CheckConstraint(condition=CONSISTENT_RESULT, name="game_consistent_result"),
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="game_table_once_per_round",
            ),
            models.CheckConstraint(
                condition=Q(confirmation=Confirmation.CONFIRMED)
                | ~Q(outcome=Outcome.PENDING) & ~Q(claimed_by=""),
                name="game_claim_has_result_and_player",
            ),
        ]

    def __str__(self) -> str:
        if self.player_b_id is None:
            return f"{self.player_a} – {_('bye')}"
        return f"{self.player_a} – {self.player_b}"

    @property
    def is_bye(self) -> bool:
        return self.outcome == Outcome.BYE

    @property
    def flag_fell_player(self) -> Player | None:
        """Whose flag fell (a flag fall loses): named wherever the result is described."""
        if self.outcome != Outcome.FLAG_FALL:
            return None
        return self.player_b if self.winner == Winner.A else self.player_a

    @property
    def has_result(self) -> bool:
        """`HAS_RESULT` for one game: a bye has a result."""
        return self.outcome != Outcome.PENDING

    @property
    def has_entered_result(self) -> bool:
        """`HAS_ENTERED_RESULT` for one game: a result at a table, byes left out."""
        return self.has_result and not self.is_bye

    @property
    def result_state(self) -> str | None:
        """Not entered, awaiting confirmation, confirmed or disputed; None for a bye."""
        if self.is_bye:
            return None
        if self.confirmation == Confirmation.DISPUTED:
            return ResultState.DISPUTED
        if self.confirmation == Confirmation.PROVISIONAL:
            return ResultState.AWAITING
        return ResultState.CONFIRMED if self.has_result else ResultState.NOT_ENTERED

    @property
    def is_provisional(self) -> bool:
        """Entered by a player and not (yet) confirmed: provisional or disputed."""
        return self.confirmation != Confirmation.CONFIRMED

    def get_result_state_display(self) -> str:
        state = self.result_state
        return str(ResultState(state).label) if state else ""

    def side_of(self, user) -> str | None:
        """The side `user` plays on in this game, or None (needs player_a/player_b loaded)."""
        if user is None or not user.is_authenticated:
            return None
        if self.player_a.user_id == user.pk:
            return Side.A
        if self.player_b is not None and self.player_b.user_id == user.pk:
            return Side.B
        return None

    @property
    def starting_player(self) -> Player | None:
        return {Side.A: self.player_a, Side.B: self.player_b}.get(self.starter)


class Seat(models.Model):
    """One player's place in one game.

    Exists so the database itself guarantees that a player appears at most once per round,
    whichever side of a game they sit on.
    """

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    round = models.ForeignKey(
        "competition.Round", on_delete=models.CASCADE, related_name="+", verbose_name=_("round")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    side = models.CharField(_("side"), max_length=1, choices=Side)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.UniqueConstraint(fields=["game", "side"], name="seat_side_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.game}"


class Move(models.Model):
    """One entry of a game's scoresheet, in the rules engine's notation.

    The notation (and the rack, when known) is what was played; score, total, words and
    warnings are what the engine computed from it, kept so pages need no replay.
    Warnings and the problem are codes with parameters (games.rule_messages), shown in the
    reader's language.
    """

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="moves", verbose_name=_("game")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    side = models.CharField(_("player"), max_length=1, choices=Side)
    notation = models.CharField(_("notation"), max_length=40)
    rack = models.CharField(_("rack"), max_length=8, blank=True)
    score = models.IntegerField(_("score"), default=0)
    total = models.IntegerField(_("total"), default=0)
    words = models.JSONField(_("words"), default=list, blank=True)
    warnings = models.JSONField(
        _("warnings"),
        default=list,
        blank=True,
        help_text=_('A list of {"code": …, "params": {…}} from the rules engine.'),
    )
    problem_code = models.CharField(
        _("problem"),
        max_length=40,
        blank=True,
        help_text=_("Why the engine refuses this move after an earlier move was corrected."),
    )
    problem_params = models.JSONField(_("problem details"), default=dict, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"))
    #: The thinking time of this turn in ms: from the board's clock when it ran
    #: (games.clock), else the time since the move before was saved; None when unknown.
    think_ms = models.PositiveIntegerField(_("thinking time (ms)"), null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_number_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.notation}"

    @property
    def warning_texts(self) -> list[str]:
        return [describe_stored(warning) for warning in self.warnings]

    @property
    def problem(self) -> str:
        """Why the engine refuses this move, in the reader's language; empty when it does not."""
        return describe(self.problem_code, self.problem_params) if self.problem_code else ""


class GameClock(models.Model):
    """The board's game clock (games.clock): what was pressed, on one time line.

    ``events`` is the clock's own log, append-only: ``[kind, at, player, user id]`` per
    press, ``at`` in ms since ``origin`` on the server's clock (rules.clock computes the
    rest from it). ``budget_ms`` is each player's time, in seat order.
    """

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="clock", verbose_name=_("game")
    )
    budget_ms = models.JSONField(_("time per player (ms)"))
    flag_ends = models.BooleanField(_("a flag fall ends the game"))
    origin = models.DateTimeField(_("started at"))
    events = models.JSONField(_("presses"), default=list)
    #: Turns each player had taken on the board when the clock was started (it may start
    #: mid-game): the clock's first turn of a player is that player's next move.
    turns_before = models.JSONField(_("turns before the clock"), default=list)

    class Meta:
        verbose_name = _("game clock")
        verbose_name_plural = _("game clocks")

    def __str__(self) -> str:
        return f"{self.game_id}: {len(self.events)}"
