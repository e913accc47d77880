"""One game at one table: its 2 to 4 seats, who started, its result, and its moves.

A game refers to its round by foreign key only; this app imports nothing from competition.
A bye is a game of one seat. Whether a result is consistent (the places follow from the
scores, flags and forfeits) is `rules.result.places`, asked by every write.
"""

from django.conf import settings
from django.db import models
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from clubs.permissions import clubs_managed_by
from events.permissions import events_directed_by, manages_competition
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
    return manages_competition(user, game.round.competition)


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
#: (`competition.core.standings`, `interchange.core.tsh`) spell the same two codes themselves.
SCORED_OUTCOMES = (Outcome.NORMAL, Outcome.FLAG_FALL)


#: The last seat's position: a table has 2 to 4 players (the standard rules: 2 to 4).
MAX_SEAT = 3


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
    & Q(outcome__in=SCORED_OUTCOMES)
    & Q(round__competition__rated=True)
)


def seats_with_players() -> models.Prefetch:
    """The seats of each game with their players, in table order: who sits where."""
    return models.Prefetch(
        "seats", queryset=Seat.objects.select_related("player").order_by("position")
    )


class GameQuerySet(models.QuerySet["Game"]):
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

    def with_seats(self) -> "GameQuerySet":
        """Each game with its seats and their players, in table order (`Game.seat_list`)."""
        return self.prefetch_related(seats_with_players())

    def visible_to(self, user) -> "GameQuerySet":
        """Published games, and every game of the clubs `user` is secretary of and of the
        events `user` directs (staff: all)."""
        managed = clubs_managed_by(user)
        if managed is None:
            return self.all()
        return self.filter(
            Q(round__status__in=PUBLIC_ROUND_STATUSES)
            | Q(round__competition__club__in=managed)
            | Q(round__competition__event__in=events_directed_by(user))
        )


class Game(models.Model):
    # PROTECT: a round is deleted only through its service, which removes its games (none of
    # them with a result) first; nothing else may take a round's results with it.
    round = models.ForeignKey(
        "competition.Round", on_delete=models.PROTECT, related_name="games", verbose_name=_("round")
    )
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    # The players are the game's seats (`Seat`), in table order: 2 to 4, or 1 for a bye.
    starter = models.PositiveSmallIntegerField(
        _("who starts"),
        null=True,
        blank=True,
        help_text=_("The seat that moves first; empty when drawn by lot and not yet recorded."),
    )
    outcome = models.CharField(
        _("outcome"), max_length=20, choices=Outcome, default=Outcome.PENDING, blank=True
    )
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
    claimed_by = models.PositiveSmallIntegerField(
        _("entered by player"),
        null=True,
        blank=True,
        help_text=_("The seat whose entry awaits the other players' confirmation."),
    )
    counter_result = models.JSONField(
        _("other player's result"),
        default=dict,
        blank=True,
        help_text=_("The other result a player at the table entered, while it is disputed."),
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
    counts: bool  # present where a query annotates it (`GameQuerySet.with_counts`)

    class Meta:
        ordering = ["round", "table", "pk"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="game_table_once_per_round",
            ),
            models.CheckConstraint(
                condition=Q(starter__isnull=True) | Q(starter__lte=MAX_SEAT),
                name="game_starter_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(confirmation=Confirmation.CONFIRMED)
                | ~Q(outcome=Outcome.PENDING) & Q(claimed_by__isnull=False),
                name="game_claim_has_result_and_player",
            ),
        ]

    def __str__(self) -> str:
        players = [str(seat.player) for seat in self.seat_list]
        if len(players) == 1:
            return f"{players[0]} – {_('bye')}"
        return " – ".join(players)

    @property
    def seat_list(self) -> list["Seat"]:
        """The seats in table order (prefetch `seats__player` for a list of games)."""
        return sorted(self.seats.all(), key=lambda seat: seat.position)

    @property
    def players(self) -> list[Player]:
        """The players in table order."""
        return [seat.player for seat in self.seat_list]

    @property
    def title(self) -> str:
        """The players in table order, as pages head the game: "Anke – Bram – Cor"."""
        return " – ".join(player.name for player in self.players)

    @property
    def first_seat(self) -> "Seat":
        """The seat listed first on the pages: the player column of a pairing list."""
        return self.seat_list[0]

    @property
    def other_seats(self) -> list["Seat"]:
        """The seats after the first: the opponent column (empty for a bye)."""
        return self.seat_list[1:]

    @property
    def scores_text(self) -> str:
        """The board points in table order, as the pages show them: "412 – 388"."""
        return " – ".join(str(score) for score in self.scores if score is not None)

    @property
    def forfeit_marks(self) -> str:
        """A forfeit per seat, in table order: "+ / −" (− who did not play)."""
        return " / ".join("−" if seat.forfeited else "+" for seat in self.seat_list)

    @property
    def scores(self) -> tuple[int | None, ...]:
        """The board points in table order (None each while the game has none)."""
        return tuple(seat.score for seat in self.seat_list)

    @property
    def is_bye(self) -> bool:
        return self.outcome == Outcome.BYE

    @property
    def flag_fell_players(self) -> list[Player]:
        """Whose flag fell (each loses against every player whose flag did not fall)."""
        if self.outcome != Outcome.FLAG_FALL:
            return []
        return [seat.player for seat in self.seat_list if seat.flag_fell]

    @property
    def flag_fell_names(self) -> str:
        return ", ".join(player.name for player in self.flag_fell_players)

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

    def seat_of(self, user) -> int | None:
        """The position `user` plays at in this game, or None (prefetch `seats__player`)."""
        if user is None or not user.is_authenticated:
            return None
        for seat in self.seat_list:
            if seat.player.user_id == user.pk:
                return seat.position
        return None

    @property
    def starting_player(self) -> Player | None:
        if self.starter is None:
            return None
        seats = {seat.position: seat.player for seat in self.seat_list}
        return seats.get(self.starter)


class Seat(models.Model):
    """One player's place at one table: their position in table order, score and result.

    The round is kept beside the game so that the database itself guarantees that a player
    sits at one table per round. Places follow from the scores, flags and forfeits by
    `competition.core.tables.table_result` and are stored for the pages and queries.
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
    position = models.PositiveSmallIntegerField(_("seat"))
    score = models.IntegerField(_("board points"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(
        _("place"), null=True, blank=True, help_text=_("1 won; equal places share.")
    )
    flag_fell = models.BooleanField(_("flag fell"), default=False)
    forfeited = models.BooleanField(_("forfeited"), default=False)
    confirmed = models.BooleanField(
        _("confirmed"), default=False, help_text=_("This player stands behind the result.")
    )

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.UniqueConstraint(
                fields=["game", "position"], name="seat_position_once_per_game"
            ),
            models.CheckConstraint(
                condition=Q(position__lte=MAX_SEAT), name="seat_position_at_most_four"
            ),
            models.CheckConstraint(
                condition=~Q(flag_fell=True, forfeited=True), name="seat_flag_or_forfeit"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.game_id}:{self.position}"


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
    seat = models.PositiveSmallIntegerField(_("player"))  # the mover's Seat.position
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
