"""Recording results: every write is atomic, validated, and leaves an audit entry.

Views, the CSV import and the admin's forms call these functions and only translate their
`ResultError` into a message.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from games.history import game_contexts, record_game_change
from games.locks import game_lock, games_lock
from games.models import (
    Confirmation,
    Game,
    Outcome,
    Seat,
    Side,
    Winner,
    winner_by_score,
)
from games.signals import game_changed

MIN_SCORE = -999
MAX_SCORE = 9999


class ResultError(Exception):
    """A result that cannot be recorded; the message is for the person who typed it."""

    def __init__(self, message: Any, *, errors: dict[int, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or {}


class ResultKind:
    """How a game ended, as typed on the results page and in CSV files."""

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
    values = frozenset(key for key, _label in choices)

    @classmethod
    def choices_for(cls, name_a: str, name_b: str) -> list[tuple[str, str]]:
        """The choices of one game, its players named: "flag fell: Anke", not "first player"."""
        named = {
            cls.FLAG_A: _("flag fell: %(name)s") % {"name": name_a},
            cls.FLAG_B: _("flag fell: %(name)s") % {"name": name_b},
            cls.FORFEIT_A: _("forfeit: %(name)s") % {"name": name_a},
            cls.FORFEIT_B: _("forfeit: %(name)s") % {"name": name_b},
        }
        return [(kind, named.get(kind, label)) for kind, label in cls.choices]

    #: The kinds typed with both board points: those stored as `games.models.SCORED_OUTCOMES`.
    SCORED = frozenset({NORMAL, FLAG_A, FLAG_B})


@dataclass(frozen=True)
class ResultInput:
    kind: str
    score_a: int | None = None
    score_b: int | None = None


@dataclass(frozen=True)
class PairingSpec:
    """One game to create: a pair at a table, or a bye when `player_b` is None."""

    player_a: int
    player_b: int | None
    table: int | None = None
    starter: str = ""
    rules: dict[str, Any] | None = None  # the rule set (rules.RuleSet.to_dict())


def result_fields(result: ResultInput) -> dict[str, Any]:
    """Turn what was typed into the stored fields, or say in plain words what is wrong."""
    kind, score_a, score_b = result.kind, result.score_a, result.score_b
    if kind not in ResultKind.values:
        raise ResultError(_("Unknown outcome “%(kind)s”.") % {"kind": kind})
    if kind in ResultKind.SCORED:
        if score_a is None or score_b is None:
            raise ResultError(_("Enter the board points of both players."))
        for score in (score_a, score_b):
            if not MIN_SCORE <= score <= MAX_SCORE:
                raise ResultError(
                    _("Board points must lie between %(min)s and %(max)s.")
                    % {"min": MIN_SCORE, "max": MAX_SCORE}
                )
    elif score_a is not None or score_b is not None:
        raise ResultError(_("A forfeited or annulled game has no board points; leave them empty."))

    if kind == ResultKind.NORMAL:
        winner = winner_by_score(score_a, score_b)
        return {"outcome": Outcome.NORMAL, "winner": winner, "score_a": score_a, "score_b": score_b}
    if kind in {ResultKind.FLAG_A, ResultKind.FLAG_B}:
        winner = Winner.B if kind == ResultKind.FLAG_A else Winner.A
        return {
            "outcome": Outcome.FLAG_FALL,
            "winner": winner,
            "score_a": score_a,
            "score_b": score_b,
        }
    if kind == ResultKind.ANNULLED:
        return {
            "outcome": Outcome.ANNULLED,
            "winner": Winner.NONE,
            "score_a": None,
            "score_b": None,
        }
    winner = {
        ResultKind.FORFEIT_A: Winner.B,
        ResultKind.FORFEIT_B: Winner.A,
        ResultKind.FORFEIT_BOTH: Winner.NONE,
    }[kind]
    return {"outcome": Outcome.FORFEIT, "winner": winner, "score_a": None, "score_b": None}


def result_kind_of(game: Game) -> str | None:
    """The inverse of `result_fields`: how the stored result would be typed."""
    if game.outcome == Outcome.NORMAL:
        return ResultKind.NORMAL
    if game.outcome == Outcome.FLAG_FALL:
        return ResultKind.FLAG_A if game.winner == Winner.B else ResultKind.FLAG_B
    if game.outcome == Outcome.FORFEIT:
        return {
            Winner.A: ResultKind.FORFEIT_B,
            Winner.B: ResultKind.FORFEIT_A,
            Winner.NONE: ResultKind.FORFEIT_BOTH,
        }[game.winner]
    if game.outcome == Outcome.ANNULLED:
        return ResultKind.ANNULLED
    return None


def _snapshot(game: Game) -> dict[str, Any]:
    return {
        "outcome": game.outcome,
        "winner": game.winner,
        "score_a": game.score_a,
        "score_b": game.score_b,
    }


def _apply(
    game: Game,
    fields: dict[str, Any],
    *,
    by: AbstractBaseUser | None,
    reason: str,
    now: datetime,
    context: dict[str, Any],
    reason_code: str = "",
) -> bool:
    """Write one result onto a locked game row; False when nothing changed.

    `reason` is what a person typed; `reason_code` (a HistoryReason) is why a service did;
    `context` is the game's history context (`games.history.game_contexts`).
    """
    before = _snapshot(game)
    if before == fields:
        return False
    if game.is_bye:
        raise ResultError(_("A bye has no result to enter."))
    if game.moves.exists():
        raise ResultError(
            _("This game is entered move by move: its result follows from the moves.")
        )
    had_result = game.has_result
    if had_result and not reason.strip() and not reason_code:
        raise ResultError(_("This game already has a result: give a reason for the correction."))
    for name, value in fields.items():
        setattr(game, name, value)
    # A result written here is the secretary's (or an import's): confirmed at once. A
    # player's entry is marked provisional afterwards by games.confirmation.
    game.confirmation, game.claimed_by, game.counter_result = Confirmation.CONFIRMED, "", {}
    game.entered_by = by if by is not None and by.is_authenticated else None
    game.entered_at = now
    game.version += 1
    game.full_clean(exclude=["round", "player_a", "player_b"], validate_unique=False)
    game.save()
    game_changed.send(sender=Game, round_id=game.round_id, result_changed=True)
    record_game_change(
        context,
        by=by,
        action=HistoryAction.RESULT_CORRECT if had_result else HistoryAction.RESULT_ENTER,
        before=before,
        after=fields,
        reason=reason,
        reason_code=reason_code,
        at=now,
    )
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
) -> Game:
    """Enter or correct one game's result. A correction of an existing result needs a reason
    (typed by a person, or a HistoryReason code when a service such as an import writes it)."""
    fields = result_fields(result)
    locked = game_lock(game, expected_version=expected_version, stale=_stale_result)
    _apply(
        locked,
        fields,
        by=by,
        reason=reason,
        reason_code=reason_code,
        now=now or timezone.now(),
        context=game_contexts([locked.pk])[locked.pk],
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


def _changed_meanwhile_message(game: Game) -> Any:
    if game.moves.exists():
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
    games = games_lock(entry.game_id for entry in entries)
    contexts = game_contexts(games)
    errors: dict[int, Any] = {}
    meanwhile: dict[int, Any] = {}
    changed = 0
    for entry in entries:
        game = games.get(entry.game_id)
        if game is None:
            errors[entry.game_id] = _("This game no longer exists.")
            continue
        if entry.result is None:
            continue
        try:
            fields = result_fields(entry.result)
            if entry.expected_version is not None and game.version != entry.expected_version:
                if fields != _snapshot(game):
                    meanwhile[entry.game_id] = _changed_meanwhile_message(game)
                continue
            changed += _apply(
                game, fields, by=by, reason=entry.reason, now=now, context=contexts[game.pk]
            )
        except ResultError as error:
            errors[entry.game_id] = error.message
    if errors:
        transaction.set_rollback(True)
        raise ResultError(
            _("Nothing was saved: correct the marked rows."), errors={**meanwhile, **errors}
        )
    return ResultsRecorded(changed=changed, changed_meanwhile=meanwhile)


def games_create(*, round_id: int, pairings: Iterable[PairingSpec]) -> list[Game]:
    """Create a round's games and the seats that keep each player to one game per round.

    Must run inside the caller's transaction; a player twice in one round fails on the
    database constraint, whatever the caller checked.
    """
    created = []
    for spec in pairings:
        game = Game.objects.create(
            round_id=round_id,
            table=spec.table,
            player_a_id=spec.player_a,
            player_b_id=spec.player_b,
            starter=spec.starter,
            outcome=Outcome.BYE if spec.player_b is None else Outcome.PENDING,
            winner=Winner.A if spec.player_b is None else Winner.UNDECIDED,
            rules=spec.rules or {},
        )
        seats = [Seat(game=game, round_id=round_id, player_id=spec.player_a, side=Side.A)]
        if spec.player_b is not None:
            seats.append(Seat(game=game, round_id=round_id, player_id=spec.player_b, side=Side.B))
        Seat.objects.bulk_create(seats)
        created.append(game)
    return created
