"""Rounds: creating and deleting them, attendance, pairings, their results and status.

Every change here writes its entry in the club history (`clubs.history.history_record`)
inside its own transaction; a round's status is set in one place, `_status_write`, and
decided from its games by `round_update_status`.
"""

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, HistoryReason, history_record
from clubs.locks import club_lock, row_lock
from competition.models import Absence, Competition, Round
from competition.rulesets import game_rules_for
from competition.selectors import entrants_active_in, next_round_number, seated_player_ids
from competition.services import CompetitionError, competition_check_open
from competition.signals import round_published
from competition.versioning import competition_touched
from games.locks import games_locked
from games.models import Confirmation, Game, Move, Outcome, Seat
from games.services import (
    PairingSpec,
    ResultEntry,
    ResultInput,
    ResultsRecorded,
    game_record_result,
    games_create,
    games_record_results,
)

ROUND = "round"


def round_history(
    round: Round,
    *,
    by: AbstractBaseUser | None,
    action: str,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    reason_code: str = "",
    game_id: int | None = None,
) -> None:
    """One history entry about a round (its pairing, attendance, status), filed under its
    competition and number so the history pages can filter on them."""
    competition = round.competition
    history_record(
        club_id=competition.club_id,
        by=by,
        action=action,
        object_type=ROUND,
        object_id=round.pk,
        label=f"{competition.name} · {round.number}",
        before=before,
        after=after,
        reason=reason,
        reason_code=reason_code,
        competition_id=competition.pk,
        round_number=round.number,
        game_id=game_id,
    )


def pairing_snapshot(games: Iterable[Game]) -> list[list[Any]]:
    """Games as the history keeps them: `[table, [players...], starter]` with names as they
    are now, in table order (one name for a bye; the starter None when not decided)."""
    rows = []
    for game in sorted(games, key=lambda game: (game.table is None, game.table or 0, game.pk)):
        names = [player.name for player in game.players]
        starter = names[game.starter] if game.starter is not None else None
        rows.append([game.table, names, starter])
    return rows


def _explanation_named(explanation: list[dict[str, Any]], games: Iterable[Game]) -> list[Any]:
    """The explanation as the history keeps it: the bye's player by name, as it is now."""
    names = {player.pk: player.name for game in games for player in game.players}
    named = []
    for entry in explanation:
        params = dict(entry.get("params") or {})
        if params.get("bye_to") is not None:
            params["bye_to"] = names.get(params["bye_to"], params["bye_to"])
        named.append({**entry, "params": params})
    return named


def round_pairing_snapshot(round: Round) -> list[list[Any]]:
    return pairing_snapshot(round.games.with_seats())


@transaction.atomic
def round_create(
    *,
    competition: Competition,
    date: date | None = None,
    number: int | None = None,
    by: AbstractBaseUser | None = None,
) -> Round:
    """Add the next round of a competition.

    `number` is the round the secretary's page offered to add. When that round exists
    already (the button clicked twice, or on two devices at once) it is returned as it is,
    so every click ends on the same new round; a number that is not the next one is refused.
    """
    club_lock(competition.club_id)
    if number is not None:
        existing = Round.objects.filter(competition=competition, number=number).first()
        if existing is not None:
            return existing
    following = next_round_number(competition)
    if number is not None and number != following:
        raise CompetitionError(
            _("Round %(number)s cannot be added: the next round is %(next)s.")
            % {"number": number, "next": following}
        )
    return _round_insert(competition, number=following, date=date, by=by)


@transaction.atomic
def round_import(
    *, competition: Competition, number: int, by: AbstractBaseUser | None, reason_code: str
) -> Round:
    """Add round `number` as an import found it in a file: published, since it was played.

    An import may name any round not there yet (the file decides its numbers); the entry in
    the history is the same as *Add round*'s, with the import as its `reason_code`.
    """
    club_lock(competition.club_id)
    if Round.objects.filter(competition=competition, number=number).exists():
        raise CompetitionError(_("Round %(number)s exists already.") % {"number": number})
    return _round_insert(
        competition,
        number=number,
        status=Round.Status.PUBLISHED,
        by=by,
        reason_code=reason_code,
    )


def _round_insert(
    competition: Competition,
    *,
    number: int,
    by: AbstractBaseUser | None,
    date: date | None = None,
    status: str = Round.Status.DRAFT,
    reason_code: str = "",
) -> Round:
    """The one place a round row is made, with its history entry (callers hold the club
    lock and have checked the number)."""
    competition_check_open(competition.pk)
    if competition.number_of_rounds and number > competition.number_of_rounds:
        raise CompetitionError(
            _("This tournament has all its %(count)s rounds already.")
            % {"count": competition.number_of_rounds}
        )
    created = Round.objects.create(competition=competition, number=number, date=date, status=status)
    round_history(
        created,
        by=by,
        action=HistoryAction.ROUND_CREATE,
        after={"number": number, "date": date, "status": created.status},
        reason_code=reason_code,
    )
    competition_touched(competition_id=competition.pk)
    return created


def round_lock(round: Round) -> Round:
    """The round's row, locked until the transaction ends: changes to one round's
    attendance, pairing, status and results run one at a time.

    Locks are always taken in the order club, round, games (the CSV import holds the club
    lock too), so two writers never wait for each other in a circle on PostgreSQL.
    """
    club_lock(round.competition.club_id)
    return row_lock(Round.objects.select_related("competition")).get(pk=round.pk)


def pairing_version(status: str, game_ids: Iterable[int]) -> str:
    """What a pairing page showed: the round's status and its games' ids. Generating,
    swapping and undoing a pairing make new game rows (ids are never reused), publishing
    and withdrawing change the status, so every change makes a new version."""
    ids = sorted(game_ids)
    return f"{status}-{len(ids)}-{ids[-1] if ids else 0}"


#: What the director is told when the pairing is the one the page showed but the round's
#: status is not, by the status it has now.
STATUS_CHANGED: dict[str, Any] = {
    Round.Status.DRAFT: _(
        "The pairing was withdrawn in the meantime (by a second click or on another "
        "device): round %(number)s is a draft again. Check it and try again."
    ),
    Round.Status.PUBLISHED: _(
        "The pairing was published in the meantime (by a second click or on another "
        "device). Check it and try again."
    ),
    Round.Status.FINISHED: _(
        "Round %(number)s was finished in the meantime: all its results are in."
    ),
}


def check_pairing_version(
    round: Round, expected: str | None, *, asked_status: str | None = None
) -> None:
    """Refuse a change based on a pairing that is no longer there (a second click, or a
    second device): the director acts on what the page showed, or not at all, and is told
    what changed. `asked_status`: the status the change sets (publishing, withdrawing); a
    round that has it already, with the games the page showed, is a second click of the
    same button, not a conflict."""
    if expected is None:
        return
    games = pairing_version("", round.games.values_list("pk", flat=True))
    shown_status, _dash, shown_games = expected.partition("-")
    if f"-{shown_games}" != games:
        raise CompetitionError(
            _(
                "The pairing was changed in the meantime (by a second click or on another "
                "device). This is the pairing now; check it and try again."
            )
        )
    if round.status not in (shown_status, asked_status):
        raise CompetitionError(STATUS_CHANGED[round.status] % {"number": round.number})


def _absent_names(round: Round) -> list[str]:
    return sorted(round.absences.values_list("player__name", flat=True), key=str.casefold)


@transaction.atomic
def round_set_attendance(
    *, round: Round, present_player_ids: Iterable[int], by: AbstractBaseUser | None = None
) -> None:
    """Record who is there tonight; everyone else active in the round is absent."""
    present = set(present_player_ids)
    round = round_lock(round)
    if round.games.exists():
        seated = seated_player_ids(round)
        if seated - present:
            raise CompetitionError(
                _("Players with a game in this round cannot be marked absent; undo the pairing.")
            )
    absent = {e.player_id for e in entrants_active_in(round) if e.player_id not in present}
    if absent == set(round.absences.values_list("player_id", flat=True)):
        # Saved as shown: nothing changes, not even the competition's last change (which
        # would make every device reload its pages).
        competition_check_open(round.competition_id)
        return
    before = _absent_names(round)
    round.absences.all().delete()
    Absence.objects.bulk_create(Absence(round=round, player_id=player) for player in absent)
    after = _absent_names(round)
    if before != after:
        round_history(
            round,
            by=by,
            action=HistoryAction.ROUND_ATTENDANCE,
            before={"absent": before},
            after={"absent": after},
        )
    competition_touched(competition_id=round.competition_id)


def _lock_games(locked: Round) -> None:
    """Lock the round's games before looking at their results and moves, so that a move
    entered on the board at the same moment is seen (or waits) before the games go."""
    list(games_locked(locked.games).values_list("pk", flat=True))


def _replace_pairings(locked: Round, pairings: Sequence[PairingSpec]) -> list[Game]:
    """Replace the games of a locked round that has no results yet (no history: the
    callers write the entry that says why)."""
    _lock_games(locked)
    if _has_results(locked):
        raise CompetitionError(
            _("Round %(number)s already has results; its pairings can no longer change.")
            % {"number": locked.number}
        )
    if Move.objects.filter(game__round=locked).exists():
        raise CompetitionError(
            _(
                "Round %(number)s has games with moves on the board; its pairings can no "
                "longer change."
            )
            % {"number": locked.number}
        )
    active = {entrant.player_id for entrant in entrants_active_in(locked)}
    for spec in pairings:
        for player_id in spec.players:
            if player_id not in active:
                raise CompetitionError(
                    _("A paired player does not take part in round %(number)s.")
                    % {"number": locked.number}
                )
    locked.games.all().delete()
    ruleset = game_rules_for(locked.competition)
    try:
        with transaction.atomic():
            return games_create(
                round_id=locked.pk,
                pairings=[replace(spec, rules=spec.rules or ruleset) for spec in pairings],
            )
    except IntegrityError as error:
        raise CompetitionError(
            _("A player appears twice in round %(number)s.") % {"number": locked.number}
        ) from error


@transaction.atomic
def round_set_pairings(
    *,
    round: Round,
    pairings: Sequence[PairingSpec],
    expected_pairing: str | None = None,
    by: AbstractBaseUser | None = None,
    system: str = "",
    to_draft: bool = False,
    changes: dict[str, tuple[Any, Any]] | None = None,
    explanation: list[dict[str, Any]] | None = None,
) -> list[Game]:
    """Replace the pairings of a round that has no results yet.

    `expected_pairing`: the `pairing_version` the page showed; refused when it changed.
    `system`: the pairing system that made them, for the history ("" when set by hand).
    `to_draft`: the round goes back to a draft, for the director to review and publish
    (a generated or cleared pairing); otherwise its status stays.
    `changes`: other fields of the round the caller changes with it (name: (before,
    after)), kept in the same history entry.
    `explanation`: which engine made them and why (`Round.pairing_explanation`); a pairing
    without one (cleared, or set by hand) has none. The history keeps it with the bye's
    name as it is now, as it keeps the pairing.
    """
    locked = round_lock(round)
    check_pairing_version(locked, expected_pairing)
    changes = changes or {}
    before = {"pairings": round_pairing_snapshot(locked), "status": locked.status} | {
        name: value for name, (value, _after) in changes.items()
    }
    games = _replace_pairings(locked, pairings)
    if to_draft:
        _status_write(locked, Round.Status.DRAFT)
        round.status = locked.status
    explanation = explanation or []
    if locked.pairing_explanation != explanation:
        locked.pairing_explanation = explanation
        locked.save(update_fields=["pairing_explanation"])
    round.pairing_explanation = explanation
    after_games = list(locked.games.with_seats())
    round_history(
        locked,
        by=by,
        action=HistoryAction.PAIRING_GENERATE if pairings else HistoryAction.PAIRING_CLEAR,
        before=before,
        after={"pairings": pairing_snapshot(after_games), "status": locked.status}
        | ({"system": system} if system else {})
        | ({"explanation": _explanation_named(explanation, after_games)} if explanation else {})
        | {name: value for name, (_before, value) in changes.items()},
    )
    competition_touched(competition_id=locked.competition_id)
    return games


@transaction.atomic
def round_clear_pairings(
    *, round: Round, expected_pairing: str | None = None, by: AbstractBaseUser | None = None
) -> None:
    """Undo a round's pairing (before any result): the round is a draft without games."""
    round_set_pairings(
        round=round, pairings=[], expected_pairing=expected_pairing, by=by, to_draft=True
    )


def _status_write(locked: Round, status: str) -> bool:
    """The one place a round's status is written; False when it already was `status`."""
    if locked.status == status:
        return False
    locked.status = status
    locked.full_clean()
    locked.save(update_fields=["status"])
    return True


@transaction.atomic
def round_set_status(
    *,
    round: Round,
    status: str,
    expected_pairing: str | None = None,
    by: AbstractBaseUser | None = None,
) -> Round:
    """Publish a reviewed pairing, or withdraw a published one (back to a draft).

    Publishing twice is publishing once; publishing a pairing other than the one the page
    showed (`expected_pairing`) is refused. Whether a round is finished follows from its
    games (`round_update_status`); a finished round is reopened with `round_reopen`.
    """
    locked = round_lock(round)
    check_pairing_version(locked, expected_pairing, asked_status=status)
    if status not in (Round.Status.DRAFT, Round.Status.PUBLISHED):
        raise CompetitionError(
            _("A round is finished when all its results are in; it cannot be set so by hand.")
        )
    if status == Round.Status.PUBLISHED and not locked.games.exists():
        raise CompetitionError(_("Pair the round before publishing it."))
    if locked.status == Round.Status.FINISHED:
        raise CompetitionError(
            _("Round %(number)s is finished; reopen it first.") % {"number": locked.number}
        )
    if status == Round.Status.DRAFT and _has_results(locked):
        raise CompetitionError(
            _("Round %(number)s already has results; its pairing stays published.")
            % {"number": locked.number}
        )
    before = locked.status
    if _status_write(locked, status):
        round_history(
            locked,
            by=by,
            action=HistoryAction.PAIRING_PUBLISH
            if status == Round.Status.PUBLISHED
            else HistoryAction.PAIRING_UNDO,
            before={"status": before},
            after={"status": status, "pairings": round_pairing_snapshot(locked)},
        )
        if status == Round.Status.PUBLISHED:
            round_published.send(sender=Round, round_id=locked.pk)
    round.status = status
    competition_touched(competition_id=round.competition_id)
    return locked


def _has_results(round: Round) -> bool:
    """A result entered at a table; a bye's comes with the pairing and fixes nothing."""
    return round.games.with_entered_result().exists()


def status_from_games(*, current: str, played: int, pending: int) -> str:
    """The status a round should have, from its games: `played` with a result (byes not
    counted), `pending` without one.

    - no result yet: a draft stays a draft, a published round stays published (a finished
      one whose last result was taken back is published again);
    - some results: at least published (results were entered, so the pairing was played);
    - every game has its result: finished.

    >>> status_from_games(current="published", played=5, pending=0) == "finished"
    True
    >>> status_from_games(current="finished", played=4, pending=1) == "published"
    True
    >>> status_from_games(current="draft", played=0, pending=6) == "draft"
    True
    """
    if played and not pending:
        return Round.Status.FINISHED
    if played or current == Round.Status.FINISHED:
        return Round.Status.PUBLISHED
    return current


def _game_counts(round: Round) -> tuple[int, int]:
    """Games settled and games still open. A result a player entered counts as open until
    the opponent confirms it (or the secretary decides): the round is still being played."""
    return _counted(round.games.values_list("outcome", "confirmation"))


def _counted(games: Iterable[tuple[str, str]]) -> tuple[int, int]:
    played = pending = 0
    for outcome, confirmation in games:
        if outcome == Outcome.BYE:
            continue
        if outcome == Outcome.PENDING or confirmation != Confirmation.CONFIRMED:
            pending += 1
        else:
            played += 1
    return played, pending


@transaction.atomic
def round_update_status(*, round: Round, by: AbstractBaseUser | None = None) -> Round:
    """Set a round's status from its games: the one service that decides it.

    A round is finished once its last game has a settled result (a player's entry waits for
    the opponent's confirmation), however the result came in (the
    results page, a correction, the board, a CSV or TSH import); it is published again
    when a result is taken back. The competition's services call it inside their own
    transaction, after their games' writes; for results written by games/ on their own
    (moves on the board), `on_game_changed_status` below calls it after they commit.
    """
    locked = round_lock(round)
    played, pending = _game_counts(locked)
    before = locked.status
    status = status_from_games(current=before, played=played, pending=pending)
    if _status_write(locked, status):
        round_history(
            locked,
            by=by,
            action=HistoryAction.ROUND_STATUS,
            before={"status": before},
            after={"status": status},
            reason_code=HistoryReason.FROM_RESULTS,
        )
        competition_touched(competition_id=locked.competition_id)
    round.status = status
    return locked


def round_status_after_commit(*, round_id: int) -> None:
    """`round_update_status` for a round whose game changed in games/ (the board).

    Runs after the games' transaction has committed, in a transaction of its own. Not in
    the same one: a move's service holds its game row locked, and locking the round after
    the game would reverse the order club, round, games in which every competition service
    locks (two such writers could deadlock on PostgreSQL). The status follows from the
    games, so should this ever not run (the process stopping right after the commit), the
    next change of the round sets it right. A cheap read first: most moves change nothing.
    """
    games = list(
        Game.objects.filter(round_id=round_id).values_list(
            "outcome", "confirmation", "round__status"
        )
    )
    if not games:
        return
    current = games[0][2]
    played, pending = _counted((outcome, confirmation) for outcome, confirmation, _s in games)
    if status_from_games(current=current, played=played, pending=pending) != current:
        round = Round.objects.select_related("competition").filter(pk=round_id).first()
        if round is not None:
            round_update_status(round=round)


def on_game_changed_status(sender, *, round_id: int, result_changed: bool, **kwargs) -> None:
    """Receiver of `games.signals.game_changed`: only schedules `round_status_after_commit`
    (games/ may not import competition, and sends the signal before some of its writes),
    and only when a result may have changed: a move mid-game leaves the status as it is."""
    if not result_changed:
        return
    transaction.on_commit(lambda: round_status_after_commit(round_id=round_id), robust=True)


@transaction.atomic
def round_reopen(*, round: Round, reason: str, by: AbstractBaseUser | None = None) -> Round:
    """Open a finished round again (published), with the reason the director typed: for
    a late game or a change of attendance. It is finished again when its results next
    change and all are in."""
    if not reason or not reason.strip():
        raise CompetitionError(_("Give a reason for reopening the round."))
    competition_check_open(round.competition_id)
    locked = round_lock(round)
    if locked.status != Round.Status.FINISHED:
        raise CompetitionError(
            _("Round %(number)s is not finished; there is nothing to reopen.")
            % {"number": locked.number}
        )
    _status_write(locked, Round.Status.PUBLISHED)
    round_history(
        locked,
        by=by,
        action=HistoryAction.ROUND_REOPEN,
        before={"status": Round.Status.FINISHED},
        after={"status": Round.Status.PUBLISHED},
        reason=reason,
    )
    round.status = locked.status
    competition_touched(competition_id=locked.competition_id)
    return locked


@transaction.atomic
def round_delete(*, round: Round, by: AbstractBaseUser | None = None) -> None:
    """Delete the last round of a competition, added by mistake, with its pairing and
    attendance; refused once any of its games has a result or a move. The history keeps
    what it was."""
    locked = round_lock(round)
    last = locked.competition.rounds.order_by("-number").values_list("number", flat=True)[0]
    if locked.number != last:
        raise CompetitionError(
            _("Only the last round can be deleted; round %(number)s is not the last.")
            % {"number": locked.number}
        )
    _lock_games(locked)
    if _has_results(locked) or Move.objects.filter(game__round=locked).exists():
        raise CompetitionError(
            _("Round %(number)s has results; a round with results is never deleted.")
            % {"number": locked.number}
        )
    round_history(
        locked,
        by=by,
        action=HistoryAction.ROUND_DELETE,
        before={
            "number": locked.number,
            "date": locked.date,
            "status": locked.status,
            "pairings": round_pairing_snapshot(locked),
            "absent": _absent_names(locked),
        },
    )
    locked.games.all().delete()  # none has a result or a move (checked above)
    locked.delete()
    competition_touched(competition_id=locked.competition_id)


@transaction.atomic
def round_record_results(
    *, round: Round, entries: Sequence[ResultEntry], by: AbstractBaseUser | None
) -> ResultsRecorded:
    """Record a whole round's results in one go (`games_record_results`); the round is
    finished once all are in."""
    round = round_lock(round)
    own_games = set(round.games.values_list("pk", flat=True))
    if any(entry.game_id not in own_games for entry in entries):
        raise CompetitionError(_("A result belongs to a game of another round."))
    recorded = games_record_results(entries=entries, by=by)
    round_update_status(round=round, by=by)  # touches the competition when the status moves
    if recorded.changed:
        competition_touched(competition_id=round.competition_id)
    else:
        competition_check_open(round.competition_id)  # saved as shown: nothing moves
    return recorded


@transaction.atomic
def round_correct_result(
    *,
    game: Game,
    result: ResultInput,
    by: AbstractBaseUser | None,
    reason: str = "",
    expected_version: int | None = None,
) -> Game:
    """Correct one game's result (games' `game_record_result`), and the round's status
    with it, in one transaction; locks the round before the game, as everywhere."""
    round = round_lock(game.round)
    corrected = game_record_result(
        game=game, result=result, by=by, reason=reason, expected_version=expected_version
    )
    round_update_status(round=round, by=by)
    return corrected


def swap_games_locked(
    round: Round, player_x: int, player_y: int, expected_pairing: str | None
) -> tuple[Round, list[Game]]:
    """The round locked and the games of the two players a swap changes, once nothing
    forbids changing them (a result, moves on the board, a pairing changed meanwhile).
    Inside the swap's transaction: the locks hold until it ends."""
    if player_x == player_y:
        raise CompetitionError(_("Choose two different players to swap."))
    round = round_lock(round)
    check_pairing_version(round, expected_pairing)
    games = list(
        games_locked(
            round.games.filter(
                pk__in=Seat.objects.filter(round=round, player_id__in=[player_x, player_y]).values(
                    "game_id"
                )
            )
        )
    )
    if any(game.has_entered_result for game in games):
        raise CompetitionError(_("A game with a result cannot be changed; correct it instead."))
    if Move.objects.filter(game__in=games).exists():
        raise CompetitionError(
            _("A game with moves on the board cannot be changed; undo the moves first.")
        )
    return round, games


def swap_games_replace(
    round: Round, games: list[Game], specs: list[PairingSpec], *, by: AbstractBaseUser | None
) -> None:
    """Replace the swapped `games` of the locked round by `specs`: one history entry with
    the pairings before and after."""
    before = pairing_snapshot(games)
    round.games.filter(pk__in=[game.pk for game in games]).delete()
    try:
        with transaction.atomic():
            created = games_create(round_id=round.pk, pairings=specs)
    except IntegrityError as error:
        raise CompetitionError(
            _("A player appears twice in round %(number)s.") % {"number": round.number}
        ) from error
    round_history(
        round,
        by=by,
        action=HistoryAction.PAIRING_SWAP,
        before={"pairings": before},
        after={
            "pairings": pairing_snapshot(
                Game.objects.with_seats().filter(pk__in=[game.pk for game in created])
            )
        },
    )
    competition_touched(competition_id=round.competition_id)


@transaction.atomic
def round_swap_players(
    *,
    round: Round,
    player_x: int,
    player_y: int,
    expected_pairing: str | None = None,
    by: AbstractBaseUser | None = None,
) -> None:
    """Swap two players' places in a round's pairing (or between a game and the bye)."""
    round, games = swap_games_locked(round, player_x, player_y, expected_pairing)
    places = {
        seat.player_id: (game, seat.position)
        for game in games
        for seat in game.seat_list
        if seat.player_id in (player_x, player_y)
    }
    if len(places) != 2:
        raise CompetitionError(_("Both players must have a place in this round's pairing."))
    (game_x, seat_x), (game_y, seat_y) = places[player_x], places[player_y]
    if game_x.pk == game_y.pk:
        raise CompetitionError(_("These two players already play each other."))
    specs = []
    for game in games:
        ids = [player.pk for player in game.players]
        if game is game_x:
            ids[seat_x] = player_y
        if game is game_y:
            ids[seat_y] = player_x
        specs.append(
            PairingSpec(tuple(ids), table=game.table, starter=game.starter, rules=game.rules)
        )
    swap_games_replace(round, games, specs, by=by)
