"""Recording results: every write is atomic, validated, and leaves an audit entry.

Views, the CSV import and the admin's forms call these functions and only translate their
`ResultError` into a message.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from games.history import game_contexts, record_game_change
from games.locks import game_lock, games_lock
from games.models import MAX_SEAT, SCORED_OUTCOMES, Confirmation, Game, Move, Outcome, Seat
from games.policy import GameAction, write_refusal
from games.rule_messages import describe
from games.signals import game_changed
from rules import result as result_rules

MIN_SCORE = -999
MAX_SCORE = 9999


class ResultError(Exception):
    """A result that cannot be recorded; the message is for the person who typed it."""

    def __init__(
        self, message: Any, *, errors: dict[int, Any] | None = None, forbidden: bool = False
    ) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or {}
        #: True when the person may not write this game at all (`games.policy`): a 403.
        self.forbidden = forbidden


#: Seats by letter in the typed codes: "flag_c" is the third player's flag.
SEAT_LETTERS = "abcd"


class ResultKind:
    """How a game ended, as typed on the results page and in CSV files: one code per
    outcome and seat ("flag_b": the second player's flag fell; "forfeit_c": the third
    player did not play), "forfeit_both" for a pair of which neither played."""

    NORMAL = "normal"
    FLAG_A = "flag_a"  # the first player's flag fell: the second player wins
    FLAG_B = "flag_b"
    FORFEIT_A = "forfeit_a"  # the first player did not play: the second player wins
    FORFEIT_B = "forfeit_b"
    FORFEIT_BOTH = "forfeit_both"
    ANNULLED = "annulled"

    choices = [
        (NORMAL, _("normal")),
        (FLAG_A, _("flag fell: first player")),
        (FLAG_B, _("flag fell: second player")),
        (FORFEIT_A, _("forfeit: first player")),
        (FORFEIT_B, _("forfeit: second player")),
        (FORFEIT_BOTH, _("forfeit: both")),
        (ANNULLED, _("not properly played")),
    ]

    #: Every code with what it means: (outcome, the seats it names).
    MEANING: dict[str, tuple[str, frozenset[int]]] = {
        NORMAL: (Outcome.NORMAL, frozenset()),
        ANNULLED: (Outcome.ANNULLED, frozenset()),
        FORFEIT_BOTH: (Outcome.FORFEIT, frozenset({0, 1})),
        **{
            f"flag_{letter}": (Outcome.FLAG_FALL, frozenset({seat}))
            for seat, letter in enumerate(SEAT_LETTERS)
        },
        **{
            f"forfeit_{letter}": (Outcome.FORFEIT, frozenset({seat}))
            for seat, letter in enumerate(SEAT_LETTERS)
        },
        # Two or three flags at a table of 3 or 4 ("flag_ac": the first and the third
        # player's flags fell): each loses against every player whose flag did not fall.
        # Two or more who did not come to a table of 3 or 4 ("forfeit_bd"): each loses
        # against everyone; the others played without them, or (one left) won by forfeit.
        **{
            f"{prefix}_" + "".join(SEAT_LETTERS[seat] for seat in seats): (
                outcome,
                frozenset(seats),
            )
            for prefix, outcome, sizes in (
                ("flag", Outcome.FLAG_FALL, (2, 3)),
                ("forfeit", Outcome.FORFEIT, (2, 3, 4)),
            )
            for size in sizes
            for seats in combinations(range(len(SEAT_LETTERS)), size)
        },
    }
    values = frozenset(MEANING)

    @classmethod
    def for_table(
        cls, names: Sequence[str], reader: int | None = None
    ) -> list[tuple[str, str | Promise]]:
        """The choices of one table, its players named ("flag fell: Anke"; the reader's
        own name marked "(you)")."""

        def who(seat: int) -> str:
            if seat == reader:
                return _("%(name)s (you)") % {"name": names[seat]}
            return names[seat]

        letters = SEAT_LETTERS[: len(names)]
        choices: list[tuple[str, str | Promise]] = [(cls.NORMAL, _("normal"))]
        choices += [
            (f"flag_{letter}", _("flag fell: %(name)s") % {"name": who(seat)})
            for seat, letter in enumerate(letters)
        ]
        # More than one flag, never all of them (then no flag decides): tables of 3 and 4.
        choices += [
            (
                "flag_" + "".join(letters[seat] for seat in seats),
                _("flags fell: %(names)s") % {"names": names_in_words(who(seat) for seat in seats)},
            )
            for size in range(2, len(names))
            for seats in combinations(range(len(names)), size)
        ]
        choices += [
            (f"forfeit_{letter}", _("forfeit: %(name)s") % {"name": who(seat)})
            for seat, letter in enumerate(letters)
        ]
        if len(names) == 2:
            choices.append((cls.FORFEIT_BOTH, _("forfeit: both")))
        else:
            # More than one who did not come at a table of 3 or 4; all of them, as a
            # pair's "forfeit: both", when nobody came: each loses.
            choices += [
                (
                    "forfeit_" + "".join(letters[seat] for seat in seats),
                    _("forfeit: %(name)s") % {"name": names_in_words(who(seat) for seat in seats)},
                )
                for size in range(2, len(names) + 1)
                for seats in combinations(range(len(names)), size)
            ]
        return [*choices, (cls.ANNULLED, _("not properly played"))]

    @classmethod
    def code_of(cls, outcome: str, named: frozenset[int], seat_count: int) -> str | None:
        """The code typed for `outcome` naming the seats `named` at a table of
        `seat_count`: "forfeit_both" for a pair, "forfeit_ab" at a table (None: no code
        says it, such as every flag at a table)."""
        if seat_count == 2 and (outcome, named) == cls.MEANING[cls.FORFEIT_BOTH]:
            return cls.FORFEIT_BOTH
        return _CODE_OF.get((outcome, named))

    @classmethod
    def choices_for(cls, name_a: str, name_b: str) -> list[tuple[str, str | Promise]]:
        """The choices of a pair, its players named: "flag fell: Anke", not "first player"."""
        return cls.for_table((name_a, name_b))

    #: The kinds typed with every player's board points (`games.models.SCORED_OUTCOMES`).
    SCORED = frozenset(
        code for code, (outcome, _seats) in MEANING.items() if outcome in SCORED_OUTCOMES
    )


#: `ResultKind.code_of`'s way back: each meaning's code; "forfeit_both" means what a
#: table's "forfeit_ab" means and is the pairs' own.
_CODE_OF = {
    meaning: code for code, meaning in ResultKind.MEANING.items() if code != ResultKind.FORFEIT_BOTH
}


def names_in_words(names: Iterable[str]) -> str:
    """Names as a list in words: "Anke, Bram and Cor"."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


@dataclass(frozen=True)
class ResultInput:
    """A result as typed: how the game ended (a `ResultKind`) and the board points in
    table order (empty, or None each, when the outcome has none)."""

    kind: str
    scores: tuple[int | None, ...] = ()

    @classmethod
    def of_pair(cls, kind: str, score_a: int | None = None, score_b: int | None = None):
        """A one-against-one result as its results page and the short CSV type it."""
        return cls(kind, (score_a, score_b))

    @property
    def score_a(self) -> int | None:
        return self.scores[0] if self.scores else None

    @property
    def score_b(self) -> int | None:
        return self.scores[1] if len(self.scores) > 1 else None


@dataclass(frozen=True)
class TableResult:
    """A result as stored on a game's seats: the outcome, and per seat (table order) the
    board points, whether the flag fell and whether the player forfeited."""

    outcome: str
    scores: tuple[int | None, ...]
    flag_fell: tuple[bool, ...]
    forfeited: tuple[bool, ...]

    @classmethod
    def pending(cls, count: int) -> TableResult:
        return cls(Outcome.PENDING, (None,) * count, (False,) * count, (False,) * count)

    def places(self) -> tuple[int | None, ...]:
        """Each seat's place (`rules.result.places`: the one home of who won)."""
        return result_rules.places(
            self.outcome, scores=self.scores, flag_fell=self.flag_fell, forfeited=self.forfeited
        )

    def snapshot(self) -> dict[str, Any]:
        """What the history keeps: the outcome, the scores, and the seats named by it."""
        return {
            "outcome": self.outcome,
            "scores": list(self.scores),
            "flag_fell": [seat for seat, fell in enumerate(self.flag_fell) if fell],
            "forfeited": [seat for seat, gone in enumerate(self.forfeited) if gone],
        }


@dataclass(frozen=True)
class PairingSpec:
    """One game to create: its players in table order (one player: a bye)."""

    players: tuple[int, ...]
    table: int | None = None
    starter: int | None = None  # the position that moves first, when the pairing says
    rules: dict[str, Any] | None = None  # the rule set (rules.RuleSet.to_dict())


def _missing_scores(seat_count: int) -> Any:
    """A pair is told as before tables; a table of 3 or 4 of every player."""
    if seat_count == 2:
        return _("Enter the board points of both players.")
    return _("Enter the board points of every player.")


#: A forfeit at a table of 3 or 4 with some of the others' board points typed.
NO_SCORES_OR_ALL = _(
    "Enter the board points of every player who came, or none at all if nobody played."
)


def result_fields(result: ResultInput, seat_count: int = 2) -> TableResult:
    """Turn what was typed into the stored result, or say in plain words what is wrong."""
    kind = result.kind
    scores = result.scores or (None,) * seat_count
    meaning = ResultKind.MEANING.get(kind)
    if meaning is None or any(seat >= seat_count for seat in meaning[1]):
        raise ResultError(_("Unknown outcome “%(kind)s”.") % {"kind": kind})
    if len(scores) != seat_count:
        raise ResultError(_missing_scores(seat_count))
    outcome, named = meaning
    marked = tuple(seat in named for seat in range(seat_count))
    none = (False,) * seat_count
    if played_without(kind, scores):
        # At a table of 3 or 4 the others played without the one who did not come.
        if any(scores[seat] is not None for seat in named):
            raise ResultError(_("A player who did not come has no board points; leave them empty."))
        if any(score is None for seat, score in enumerate(scores) if seat not in named):
            raise ResultError(NO_SCORES_OR_ALL)
        _check_range(score for score in scores if score is not None)
        return TableResult(Outcome.NORMAL, tuple(scores), none, marked)
    if kind in ResultKind.SCORED:
        if any(score is None for score in scores):
            raise ResultError(_missing_scores(seat_count))
        _check_range(scores)
    elif any(score is not None for score in scores):
        raise ResultError(_("A forfeited or annulled game has no board points; leave them empty."))
    if outcome == Outcome.FLAG_FALL:
        return TableResult(outcome, tuple(scores), marked, none)
    if outcome == Outcome.FORFEIT:
        return TableResult(outcome, tuple(scores), none, marked)
    return TableResult(outcome, tuple(scores), none, none)


def played_without(kind: str, scores: Sequence[int | None]) -> bool:
    """Whether a forfeit typed at a table of 3 or 4 is a game the others played (board
    points typed) rather than one nobody played (none typed): the one rule that the
    results page, the CSV import and `result_fields` share. The others are two at least:
    one player alone wins by forfeit."""
    meaning = ResultKind.MEANING.get(kind)
    return (
        meaning is not None
        and meaning[0] == Outcome.FORFEIT
        and len(meaning[1]) <= len(scores) - 2
        and any(score is not None for score in scores)
    )


def _check_range(scores: Iterable[int | None]) -> None:
    for score in scores:
        if not MIN_SCORE <= score <= MAX_SCORE:  # type: ignore[operator]
            raise ResultError(
                _("Board points must lie between %(min)s and %(max)s.")
                % {"min": MIN_SCORE, "max": MAX_SCORE}
            )


def result_of(game: Game) -> TableResult:
    """The result stored on the game's seats."""
    seats = game.seat_list
    return TableResult(
        game.outcome,
        tuple(seat.score for seat in seats),
        tuple(seat.flag_fell for seat in seats),
        tuple(seat.forfeited for seat in seats),
    )


def result_kind_of(game: Game) -> str | None:
    """The inverse of `result_fields`: how the stored result would be typed (None: it has
    no result, or one that cannot be typed, such as two flags at one table)."""
    result = result_of(game)
    marked = result.flag_fell if game.outcome == Outcome.FLAG_FALL else result.forfeited
    named = frozenset(seat for seat, is_marked in enumerate(marked) if is_marked)
    outcome = game.outcome
    if outcome == Outcome.NORMAL and named:
        outcome = Outcome.FORFEIT  # played without who did not come: typed as their forfeit
    return ResultKind.code_of(outcome, named, len(marked))


def result_store(game: Game, result: TableResult) -> None:
    """Write `result` onto the game and its seats (the game's row is locked by the caller;
    the seats are saved here, the game row by the caller)."""
    try:
        places = result.places()
    except result_rules.ResultError as error:
        raise ResultError(describe(error.code)) from None
    game.outcome = result.outcome
    seats = game.seat_list
    for seat, score, fell, gone, place in zip(
        seats, result.scores, result.flag_fell, result.forfeited, places, strict=True
    ):
        seat.score, seat.flag_fell, seat.forfeited, seat.place = score, fell, gone, place
    Seat.objects.bulk_update(seats, ["score", "flag_fell", "forfeited", "place", "confirmed"])


def _apply(
    game: Game,
    result: TableResult,
    *,
    by: AbstractBaseUser | None,
    reason: str,
    now: datetime,
    context: dict[str, Any],
    reason_code: str = "",
    has_moves: bool | None = None,
    announce: bool = True,
    action: GameAction = GameAction.RECORD,
) -> bool:
    """Write one result onto a locked game row; False when nothing changed.

    `reason` is what a person typed; `reason_code` (a HistoryReason) is why a service did;
    `context` is the game's history context (`games.history.game_contexts`). A writer of
    many games tells `has_moves` from one query for all of them, and with `announce=False`
    sends `game_changed` itself, once per round, after the last game. `by` may take
    `action` (`games.policy`) or nothing is written.
    """
    refusal = write_refusal(game, by, action, has_moves=has_moves)
    if refusal is not None:
        raise ResultError(refusal.message, forbidden=refusal.forbidden)
    before = result_of(game)
    if before == result:
        return False
    had_result = game.has_result
    if had_result and not reason.strip() and not reason_code:
        raise ResultError(_("This game already has a result: give a reason for the correction."))
    # A result written here is the secretary's (or an import's): confirmed at once. A
    # player's entry is marked provisional afterwards by games.confirmation.
    for seat in game.seat_list:
        seat.confirmed = True
    result_store(game, result)
    game.confirmation, game.claimed_by, game.counter_result = Confirmation.CONFIRMED, None, {}
    game.entered_by = by if isinstance(by, User) else None  # None for AnonymousUser
    game.entered_at = now
    game.version += 1
    # The fields as the forms would check them. Not the constraints (each is a query of its
    # own on PostgreSQL, with a savepoint around it; a results page saves a dozen games):
    # the lines above keep them (confirmed, no claim; the starter untouched), and the
    # database still enforces them. Not `entered_by` either: the user who is saving.
    game.full_clean(
        exclude=["round", "entered_by"], validate_unique=False, validate_constraints=False
    )
    game.save()
    record_game_change(
        context,
        by=by,
        action=HistoryAction.RESULT_CORRECT if had_result else HistoryAction.RESULT_ENTER,
        before=before.snapshot(),
        after=result.snapshot(),
        reason=reason,
        reason_code=reason_code,
        at=now,
    )
    if announce:  # last, as every writer touches the competition's timestamp (clubs.locks)
        game_changed.send(sender=Game, round_id=game.round_id, result_changed=True)
    return True


def _stale_result() -> ResultError:
    return ResultError(
        _("Someone else changed this result in the meantime. Check it and try again.")
    )


@transaction.atomic
def game_record_result(
    *,
    game: Game,
    result: ResultInput,
    by: AbstractBaseUser | None,
    reason: str = "",
    reason_code: str = "",
    expected_version: int | None = None,
    now: datetime | None = None,
    action: GameAction = GameAction.RECORD,
) -> Game:
    """Enter or correct one game's result. A correction of an existing result needs a reason
    (typed by a person, or a HistoryReason code when a service such as an import writes it).

    `action` is what `by` is doing as `games.policy` names it: the secretary's pages and the
    imports record (`RECORD`: the club's secretaries, or None for a command); a player's
    own entry and the secretary's decision come through `games.confirmation`.
    """
    locked = game_lock(
        game,
        expected_version=expected_version,
        stale=_stale_result,
        related=("round__competition__club",),
    )
    refusal = write_refusal(locked, by, action)
    if refusal is not None:  # before the typed result is read: a stranger is told only this
        raise ResultError(refusal.message, forbidden=refusal.forbidden)
    _apply(
        locked,
        result_fields(result, len(locked.seat_list)),
        by=by,
        reason=reason,
        reason_code=reason_code,
        now=now or timezone.now(),
        context=game_contexts([locked.pk])[locked.pk],
        action=action,
    )
    return locked


@dataclass(frozen=True)
class ResultEntry:
    """One row of the round's results page."""

    game_id: int
    result: ResultInput | None  # None: row left empty, nothing to record
    reason: str = ""
    expected_version: int | None = None


@dataclass(frozen=True)
class ResultsRecorded:
    """What a save of many results did: how many changed, and the rows that someone else
    changed since the page was shown (game id -> message), which were left as they are."""

    changed: int
    changed_meanwhile: dict[int, Any]


def _changed_meanwhile_message(has_moves: bool) -> Any:
    if has_moves:
        return _("Entered on the board in the meantime: the board decides.")
    return _stale_result().message


@transaction.atomic
def games_record_results(
    *,
    entries: Sequence[ResultEntry],
    by: AbstractBaseUser | None,
    now: datetime | None = None,
) -> ResultsRecorded:
    """Record many results at once: all of them, or none when any row is wrong.

    A row whose game someone else changed since the page was shown (a result from another
    device, a first move on the board) is not wrong: it is left as it is and reported in
    `changed_meanwhile`, and the other rows are saved, so that nothing the secretary typed
    elsewhere is lost. A row that asks what the game already holds is simply done.
    Raises `ResultError` whose `errors` maps each wrong game's id to its message.
    """
    now = now or timezone.now()
    games = games_lock((entry.game_id for entry in entries), related=("round__competition__club",))
    contexts = game_contexts(games)
    with_moves = set(
        Move.objects.filter(game_id__in=list(games)).values_list("game_id", flat=True).distinct()
    )
    errors: dict[int, Any] = {}
    meanwhile: dict[int, Any] = {}
    changed_in: dict[int, list[int]] = {}  # round id -> its games that changed
    for entry in entries:
        game = games.get(entry.game_id)
        if game is None:
            errors[entry.game_id] = _("This game no longer exists.")
            continue
        if entry.result is None:
            continue
        refusal = write_refusal(game, by, GameAction.RECORD, has_moves=game.pk in with_moves)
        if refusal is not None and refusal.forbidden:  # not this person's: none of the rows
            transaction.set_rollback(True)
            raise ResultError(refusal.message, forbidden=True)
        try:
            fields = result_fields(entry.result, len(game.seat_list))
            if entry.expected_version is not None and game.version != entry.expected_version:
                if fields != result_of(game):
                    meanwhile[entry.game_id] = _changed_meanwhile_message(game.pk in with_moves)
                continue
            if _apply(
                game,
                fields,
                by=by,
                reason=entry.reason,
                now=now,
                context=contexts[game.pk],
                has_moves=game.pk in with_moves,
                announce=False,
            ):
                changed_in.setdefault(game.round_id, []).append(game.pk)
        except ResultError as error:
            errors[entry.game_id] = error.message
    # Once per round, after every game is written: the competition's timestamp is one row
    # that every writer of the competition updates, taken last (clubs.locks). A refusal
    # there (an archived competition) is each changed row's.
    for round_id, game_ids in sorted(changed_in.items()) if not errors else ():
        try:
            game_changed.send(sender=Game, round_id=round_id, result_changed=True)
        except ResultError as error:
            errors.update(dict.fromkeys(game_ids, error.message))
    if errors:
        transaction.set_rollback(True)
        raise ResultError(
            _("Nothing was saved: correct the marked rows."), errors={**meanwhile, **errors}
        )
    changed = sum(len(game_ids) for game_ids in changed_in.values())
    return ResultsRecorded(changed=changed, changed_meanwhile=meanwhile)


def games_create(*, round_id: int, pairings: Iterable[PairingSpec]) -> list[Game]:
    """Create a round's games and the seats that keep each player to one game per round.

    Must run inside the caller's transaction; a player twice in one round fails on the
    database constraint, whatever the caller checked.
    """
    created = []
    for spec in pairings:
        if not 1 <= len(spec.players) <= MAX_SEAT + 1:
            raise ValueError(f"a table has 1 to {MAX_SEAT + 1} players, not {len(spec.players)}")
        game = Game.objects.create(
            round_id=round_id,
            table=spec.table,
            starter=spec.starter,
            outcome=Outcome.BYE if len(spec.players) == 1 else Outcome.PENDING,
            rules=spec.rules or {},
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                round_id=round_id,
                player_id=player,
                position=position,
                place=1 if len(spec.players) == 1 else None,
            )
            for position, player in enumerate(spec.players)
        )
        created.append(game)
    return created
