"""Entering a game move by move: add, undo, correct, import and export GCG.

Every write locks the game row, checks the version the screen was showing (so two people
entering the same game cannot overwrite each other), replays the scoresheet through the
rules engine, stores what it computed, and fills in the game's result once it is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import rules
from clubs.history import HistoryAction, HistoryReason
from games import engine
from games.history import game_context, record_game_change
from games.locks import game_lock
from games.models import MAX_SEAT, Confirmation, Game, Move, Outcome
from games.policy import GameAction, write_refusal
from games.rule_messages import coded, describe_stored, error_message, message, refusal
from games.services import TableResult, result_of, result_store
from games.signals import game_changed, game_unchanged
from games.timing import clock_time, think_ms
from rules import gcg


class MoveError(Exception):
    """A move that cannot be recorded; the message is for the person at the board."""

    def __init__(self, message: Any, *, conflict: bool = False, forbidden: bool = False) -> None:
        super().__init__(message)
        self.message = message
        #: True when someone else changed the game since the screen was loaded.
        self.conflict = conflict
        #: True when the person may not change this game's moves at all (`games.policy`).
        self.forbidden = forbidden


def _stale_board() -> MoveError:
    return MoveError(
        _(
            "Someone else entered a move in this game in the meantime. "
            "The board now shows the current state; check it and enter your move again."
        ),
        conflict=True,
    )


def _locked(game: Game, by: AbstractBaseUser | None, expected_version: int | None) -> Game:
    """Every write to a game's moves starts here: lock the row, check the screen's version
    and that `by` may change the moves (`games.policy`). It ends with `_announce`, after
    its writes. A player's write comes through `games.confirmation.game_moves_write`,
    which also keeps who stands behind the result it gives."""
    locked = game_lock(
        game,
        expected_version=expected_version,
        stale=_stale_board,
        related=("round__competition__club", "clock"),
    )
    if locked.is_bye:
        raise MoveError(_("A bye has no moves."))
    refusal = write_refusal(locked, by, GameAction.MOVES)
    if refusal is not None:
        raise MoveError(refusal.message, forbidden=refusal.forbidden)
    return locked


def _announce(game: Game, *, result_changed: bool = False) -> None:
    """Every write to a game's moves ends here (`_finish` does it): tell the competition
    that its data changed (undone with the rest on failure; an archived one refuses). Last,
    after the writes: the competition's timestamp is one row for all its boards, held from
    this update until the commit."""
    game_changed.send(sender=Game, round_id=game.round_id, result_changed=result_changed)


def _turns_taken(results: list[rules.MoveResult | None], player: int) -> int:
    return sum(1 for result in results if result and result.is_turn and result.player == player)


def moves_of(game: Game) -> list[Move]:
    return list(Move.objects.filter(game=game).order_by("number"))


@dataclass(frozen=True)
class Preview:
    """A move scored against the current position, and that position (for the board)."""

    result: rules.MoveResult
    moves: list[Move]
    replay: engine.Replay


def move_preview(*, game: Game, notation: str, rack: str = "") -> Preview:
    """What the move would score now, without saving anything (the board's live preview)."""
    moves = moves_of(game)
    replayed = engine.replay(game, moves)
    current = replayed.engine
    seat = current.to_move if current.to_move is not None else 0
    try:
        move = engine.parse(notation, seat)
        result = current.preview(move, rack=rack or None)
    except rules.RulesError as error:
        raise MoveError(refusal(error, notation)) from None
    return Preview(result=result, moves=moves, replay=replayed)


@dataclass(frozen=True)
class Prepared:
    """A move scored against the game as it stood at `version`, before anything is locked:
    the board's save scores it outside the transaction, so that the database's write lock
    (all of SQLite) is held only for the writing. `move_add` takes it when the game is still
    at that version (every change of a game's moves moves its version on)."""

    version: int
    notation: str
    rack: str
    rows: list[Move]
    replayed: engine.Replay
    result: rules.MoveResult


def move_prepare(*, game: Game, notation: str, rack: str = "") -> Prepared:
    """Score the next move without saving anything; raises `MoveError` as `move_add` does."""
    rows = moves_of(game)
    replayed, result = _scored(game, rows, notation, rack)
    return Prepared(game.version, notation, rack, rows, replayed, result)


def _scored(
    game: Game, rows: list[Move], notation: str, rack: str
) -> tuple[engine.Replay, rules.MoveResult]:
    """The game replayed from `rows`, with the move pushed onto its engine, and its result."""
    replayed = engine.replay(game, rows)
    current = replayed.engine
    if replayed.problems:
        raise MoveError(_("Correct the marked moves before entering new ones."))
    if current.is_over and not current.pending_end_racks():
        raise MoveError(message("game_over", {}))
    to_move = current.to_move
    seat = to_move if to_move is not None else current.pending_end_racks()[0]
    try:
        move = engine.parse(notation, seat)
        result = current.push(move, rack=rack.upper() or None, player=engine.mover(move, seat))
    except rules.RulesError as error:
        raise MoveError(refusal(error, notation)) from None
    return replayed, result


@transaction.atomic
def move_add(
    *,
    game: Game,
    notation: str,
    rack: str = "",
    by: AbstractBaseUser | None,
    expected_version: int | None = None,
    now: datetime | None = None,
    prepared: Prepared | None = None,
) -> Move:
    """Record the next move of the game (made by the player to move); `prepared`: the same
    move scored beforehand (`move_prepare`), used when the game has not changed since."""
    locked = _locked(game, by, expected_version)
    fresh = prepared is not None and (prepared.version, prepared.notation, prepared.rack) == (
        locked.version,
        notation,
        rack,
    )
    if fresh and prepared is not None:  # `fresh` holds it; mypy needs it said
        rows, replayed, result = prepared.rows, prepared.replayed, prepared.result
    else:
        rows = moves_of(locked)
        replayed, result = _scored(locked, rows, notation, rack)
    current = replayed.engine
    entered_at = now or timezone.now()
    row = Move(
        game=locked,
        number=len(rows) + 1,
        seat=result.player,
        notation=result.notation or notation.strip(),
        rack=rack.upper(),
        entered_by=_user(by),
        entered_at=entered_at,
    )
    if result.is_turn:
        row.think_ms = think_ms(
            locked,
            player=result.player,
            turns_taken=_turns_taken(replayed.results, result.player),
            previous=rows[-1] if rows else None,
            now=entered_at,
        )
    _store(row, result)
    row.save()
    context = game_context(locked)
    record_game_change(
        context, by=by, action=HistoryAction.MOVE_ADD, before=None, after=_entry(row), at=now
    )
    _finish(locked, current, by=by, now=now, context=context)
    return row


@transaction.atomic
def move_undo(
    *, game: Game, by: AbstractBaseUser | None, expected_version: int | None = None
) -> None:
    """Take back the last move; a result that came from the moves goes back to open."""
    locked = _locked(game, by, expected_version)
    last = Move.objects.filter(game=locked).order_by("-number").first()
    if last is None:
        raise MoveError(_("There is no move to undo."))
    context = game_context(locked)
    record_game_change(
        context, by=by, action=HistoryAction.MOVE_UNDO, before=_entry(last), after=None
    )
    last.delete()
    _rescore(locked, by=by, context=context)


@dataclass(frozen=True)
class Correction:
    """What a correction did: whether the move changed (a form sent back as shown changes
    nothing), and the later moves the engine now refuses, by number, with the reason."""

    changed: bool
    problems: dict[int, str]


@transaction.atomic
def move_correct(
    *,
    game: Game,
    number: int,
    notation: str,
    rack: str = "",
    by: AbstractBaseUser | None,
    expected_version: int | None = None,
) -> Correction:
    """Change an earlier move; every later move is scored again.

    The moves that the engine now refuses (`Correction.problems`) stay on the scoresheet,
    marked, until they are corrected or undone.
    """
    locked = _locked(game, by, expected_version)
    row = Move.objects.filter(game=locked, number=number).first()
    if row is None:
        raise MoveError(_("There is no move %(number)s.") % {"number": number})
    try:
        engine.parse(notation, row.seat)
    except rules.RulesError as error:
        raise MoveError(error_message(error)) from None
    before = _entry(row)
    row.notation = " ".join(notation.split())
    row.rack = rack.upper()
    changed = _entry(row) != before
    if not changed:
        # Corrected to what it was (the form sent as shown): nothing is written, not even
        # the game's version; the moves keep their marks.
        game_unchanged.send(sender=Game, round_id=locked.round_id)
        problems = {
            move.number: describe_stored({"code": move.problem_code, "params": move.problem_params})
            for move in moves_of(locked)
            if move.problem_code
        }
    else:
        row.save(update_fields=["notation", "rack"])
        context = game_context(locked)
        record_game_change(
            context, by=by, action=HistoryAction.MOVE_CORRECT, before=before, after=_entry(row)
        )
        problems = _rescore(locked, by=by, context=context)
    if number in problems:
        raise MoveError(problems[number])
    return Correction(changed=changed, problems=problems)


@transaction.atomic
def game_set_starter(
    *,
    game: Game,
    starter: int,
    by: AbstractBaseUser | None = None,
    expected_version: int | None = None,
) -> Game:
    """Record who starts (drawn by lot at the table) before the first move."""
    locked = _locked(game, by, expected_version)
    if not isinstance(starter, int) or not 0 <= starter < len(locked.seat_list):
        raise MoveError(_("Choose who starts."))
    if Move.objects.filter(game=locked).exists():
        raise MoveError(_("Who started cannot change once moves are entered; undo them first."))
    if locked.starter != starter:
        record_game_change(
            game_context(locked),
            by=by,
            action=HistoryAction.GAME_STARTER,
            before={"starter": locked.starter},
            after={"starter": starter},
        )
    locked.starter = starter
    locked.version += 1
    locked.save(update_fields=["starter", "version"])
    _announce(locked)
    return locked


@transaction.atomic
def moves_import_gcg(
    *,
    game: Game,
    data: bytes,
    by: AbstractBaseUser | None,
    expected_version: int | None = None,
    now: datetime | None = None,
) -> int:
    """Replace the game's moves by a GCG record; refused whole, with its line, when wrong."""
    locked = _locked(game, by, expected_version)
    ruleset = engine.ruleset_of(locked)
    try:
        record = gcg.read(gcg.decode(data), rules=ruleset, tiles=rules.DUTCH)
    except rules.RulesError as error:
        cause = error.params.get("cause_params", {})
        if error.params.get("cause") == "bad_players":  # more players than the rules allow
            raise MoveError(_not_this_table(cause.get("count"), len(locked.seat_list))) from None
        raise MoveError(error_message(error)) from None
    if len(record.game.players) != len(locked.seat_list):
        raise MoveError(_not_this_table(len(record.game.players), len(locked.seat_list)))
    seat_of = _file_seats(record.game.players, engine.names_at_table(locked))
    history = record.game.history
    old_moves = [_entry(row) for row in moves_of(locked)]
    old_starter = locked.starter
    Move.objects.filter(game=locked).delete()
    locked.starter = seat_of[record.game.first_player]
    locked.save(update_fields=["starter"])
    moment = now or timezone.now()
    Move.objects.bulk_create(
        Move(
            game=locked,
            number=index,
            seat=seat_of[result.player],
            notation=result.notation or result.move.notation(),
            rack=result.rack or "",
            entered_by=_user(by),
            entered_at=moment,
        )
        for index, result in enumerate(history, 1)
    )
    context = game_context(locked)
    # The moves it replaces are kept here, whole: a GCG upload can be undone by hand.
    record_game_change(
        context,
        by=by,
        action=HistoryAction.MOVES_IMPORT,
        before={"starter": old_starter, "moves": old_moves},
        after={"starter": locked.starter, "moves": [_entry(row) for row in moves_of(locked)]},
        at=moment,
    )
    problems = _rescore(locked, by=by, context=context)
    if problems:
        number, reason = next(iter(problems.items()))
        raise MoveError(_("Move %(number)s: %(reason)s") % {"number": number, "reason": reason})
    return len(history)


def _name_key(name: str) -> str:
    """A name as a file's and a player's are compared: case, spacing and a nick's
    underscores aside ("Anke_de_Vries" is Anke de Vries)."""
    return " ".join(name.replace("_", " ").split()).casefold()


def _file_seats(in_file: tuple[str, ...], at_table: tuple[str, ...]) -> tuple[int, ...]:
    """The table position of each player of the file, in the file's order.

    A pair's file is taken as it is, names unread, as it always was (a record kept under
    nicknames). At a table of 3 or 4 the file must name the table's players, sitting in the
    same order round the table (the file may start its list at any of them): whose turn
    follows whose is the order round the table, so any other order is another game."""
    count = len(at_table)
    if count <= 2:
        return tuple(range(count))
    for shift in range(count):
        if all(
            _name_key(in_file[i]) == _name_key(at_table[(i + shift) % count]) for i in range(count)
        ):
            return tuple((i + shift) % count for i in range(count))
    if sorted(map(_name_key, in_file)) == sorted(map(_name_key, at_table)):
        raise MoveError(
            _(
                "The players in this file sit in another order (%(file)s) than at this "
                "table (%(table)s)."
            )
            % {"file": " – ".join(in_file), "table": " – ".join(at_table)}
        )
    raise MoveError(
        _("This file records a game of %(file)s; at this table sit %(table)s.")
        % {"file": ", ".join(in_file), "table": ", ".join(at_table)}
    )


def _not_this_table(count: Any, seats: int) -> str:
    return _("This file records a game of %(count)s players; this table has %(seats)s.") % {
        "count": count,
        "seats": seats,
    }


def game_to_gcg(game: Game) -> str:
    """The game's moves as a GCG record (with Bordpunt's extension for Gouds 8); the
    thinking time of each turn the board's clock timed as a note after it ("time 1:30")."""
    rows = moves_of(game)
    replayed = engine.replay(game, rows)
    notes = {
        index: [f"time {clock_time(row.think_ms)}"]
        for index, row in enumerate(rows[: len(replayed.engine.history)])
        if row.think_ms is not None
    }
    return gcg.write(replayed.engine, notes=notes)


def _entry(row: Move) -> dict[str, Any]:
    """A move as its history entry keeps it: what was written on the scoresheet."""
    return {"number": row.number, "seat": row.seat, "notation": row.notation, "rack": row.rack}


#: The fields of a move the engine computes from its notation (see `moves_rescored`).
COMPUTED_FIELDS = ["score", "total", "words", "warnings", "problem_code", "problem_params", "seat"]


def moves_rescored(game: Game, rows: list[Move]) -> engine.Replay:
    """Replay `rows` and set on each what the engine computed (unsaved): the one place a
    move's score, words, warnings and problem are decided, for entry and restore alike."""
    replayed = engine.replay(game, rows)
    totals = dict.fromkeys(range(MAX_SEAT + 1), 0)
    for row, result in zip(rows, replayed.results, strict=True):
        if result is None:
            # Not scored: the player's total stays what it was before this move.
            row.score, row.total, row.words, row.warnings = 0, totals[row.seat], [], []
            problem = replayed.problems[row.number]
            row.problem_code, row.problem_params = problem["code"], problem["params"]
        else:
            _store(row, result)
            totals[row.seat] = row.total
    return replayed


def _rescore(game: Game, *, by: AbstractBaseUser | None, context: dict[str, Any]) -> dict[int, str]:
    rows = moves_of(game)
    replayed = moves_rescored(game, rows)
    Move.objects.bulk_update(rows, COMPUTED_FIELDS)
    _finish(game, replayed.engine, by=by, now=None, context=context)
    # For the person at the board, in their language (the rows keep the codes).
    return {number: describe_stored(problem) for number, problem in replayed.problems.items()}


def _store(row: Move, result: rules.MoveResult) -> None:
    row.seat = result.player
    row.score = result.score
    row.total = result.total
    row.words = [[word, score] for word, score in result.words]
    row.warnings = [coded(w.code, dict(w.params)) for w in result.warnings]
    row.problem_code, row.problem_params = "", {}


def result_from_engine(current: rules.Game) -> TableResult | None:
    """The game's stored result as the engine sees it; None while it runs."""
    result = current.result
    if result is None or result.pending_end_racks:
        return None
    scores = tuple(result.scores)
    none = (False,) * len(scores)
    if result.ending == "annulled":
        return TableResult(Outcome.ANNULLED, scores, none, none)
    if result.ending == "flag_fall":
        fell = tuple(seat == result.flag_fallen for seat in range(len(scores)))
        return TableResult(Outcome.FLAG_FALL, scores, fell, none)
    return TableResult(Outcome.NORMAL, scores, none, none)


def _finish(
    game: Game,
    current: rules.Game,
    *,
    by: AbstractBaseUser | None,
    now: datetime | None,
    context: dict[str, Any],
) -> None:
    """Write the result that follows from the moves (or reopen the game) and the version,
    then tell the competition (`_announce`): the end of every write to the moves."""
    after = result_from_engine(current)
    if after is None:
        after = TableResult.pending(len(game.seat_list))
        # A game without a result has nothing to confirm (the database insists on it).
        game.confirmation, game.claimed_by, game.counter_result = Confirmation.CONFIRMED, None, {}
    before = result_of(game)
    if before != after:
        result_store(game, after)
        game.entered_by = _user(by)
        game.entered_at = now or timezone.now()
        had_result = before.outcome != Outcome.PENDING
        record_game_change(
            context,
            by=by,
            action=HistoryAction.RESULT_CORRECT if had_result else HistoryAction.RESULT_ENTER,
            reason_code=HistoryReason.FROM_MOVES,
            before=before.snapshot(),
            after=after.snapshot(),
            at=game.entered_at,
        )
    game.version += 1
    game.save()
    _announce(game, result_changed=before != after)


def _user(by: AbstractBaseUser | None) -> User | None:
    return by if isinstance(by, User) else None  # None for AnonymousUser
