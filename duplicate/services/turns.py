"""The spelleider's writes of a turn: the draw (typed from the real bag, or by the app),
the top put on the board, the last turn played again after an error, time added."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, HistoryReason
from clubs.locks import club_lock, row_lock
from clubs.timing import clock_now
from duplicate.models import Evening, Slip, Turn
from duplicate.replay import evening_slip_rules, master_game
from duplicate.services import DuplicateEveningError
from duplicate.services.shared import (
    announce_when_complete,
    duplicate_check_open,
    duplicate_touched,
    engine_error,
    turn_held,
    turn_history,
)
from rules.duplicate import DuplicateGame
from rules.errors import RulesError

#: What the spelleider may add to a turn's time at once (seconds).
ADD_TIME_MAX = 600


def turn_draw(
    *,
    evening: Evening,
    by: Any,
    tiles: str | None = None,
    rejected: str = "",
    rng: random.Random | None = None,
) -> Turn:
    """The next turn's draw: ``tiles`` typed in from the real bag, after the draws thrown
    back for the minimum (``rejected``, typed as they were drawn, one after the other), or
    (None) drawn by the app from what the bag holds, thrown back and drawn again until it
    meets the minimum. Under the rule that a rejected rack goes back whole, the kept tiles
    go back into the bag with each draw thrown back (`DuplicateGame.reject`); the turn
    keeps the draws thrown back, so the game replays. The top score is found now, so every
    slip is scored the moment it comes in."""
    with transaction.atomic():
        duplicate_check_open(evening.competition_id)
        club_lock(evening.competition.club_id)
        turns = list(evening.turns.order_by("number"))
        if turns and turns[-1].is_open:
            raise DuplicateEveningError(
                _("Turn %(turn)s is still open: choose its top first.")
                % {"turn": turns[-1].number},
                code="turn_open",
            )
        game = master_game(evening, turns)
        try:
            thrown, rack = _drawn(game, tiles, rejected, rng)
            tops = game.tops()
        except RulesError as exc:
            raise engine_error(exc) from None
        turn = Turn.objects.create(
            evening=evening,
            number=game.turn_number,
            drawn=game.drawn,
            rejected=thrown,
            rack=rack,
            top_score=tops[0].score if tops else 0,
            drawn_at=clock_now(),
            seconds=evening_slip_rules(evening).turn_seconds,
        )
        turn_history(
            turn,
            by=by,
            action=HistoryAction.DUPLICATE_DRAW,
            obj=turn,
            after={
                "turn": turn.number,
                "drawn": turn.drawn,
                "rack": rack,
                **({"rejected": thrown} if thrown else {}),
            },
        )
        duplicate_touched(competition_id=evening.competition_id)
    return turn


def _drawn(
    game: DuplicateGame, tiles: str | None, rejected: str, rng: random.Random | None
) -> tuple[str, str]:
    """The turn's draw on ``game``: the draws thrown back (space-separated, as `Turn.rejected`
    keeps them) and the rack. Typed: ``rejected`` thrown back, then ``tiles`` drawn."""
    if tiles is not None:
        thrown = " ".join("".join(r.split()).upper() for r in rejected.split(",") if r.strip())
        for draw in thrown.split():
            game.reject(draw)
        return thrown, game.draw(tiles)
    return _app_draw(game, rng)


def _app_draw(game: DuplicateGame, rng: random.Random | None) -> tuple[str, str]:
    """A random draw from the bag that meets the minimum, the bag shaken each time: the
    draws thrown back and the rack. Only under the rule that a rejected rack goes back
    whole is a throw-back kept (its kept tiles went back into the bag); otherwise the
    tiles drawn never left the bag, and the game is as if they were not drawn."""
    rng = rng or random.SystemRandom()
    thrown: list[str] = []
    for _attempt in range(1000):
        tiles = list(game.bag.elements())
        drawn = "".join(rng.sample(tiles, min(game.needed(), len(tiles))))
        if game.as_cancelled(drawn):
            continue  # the rack of the turn played again: drawn again (FISF §3.6)
        if game.meets_minimum(game.kept + drawn):
            break
        if game.draw_rules.rejection == "whole" and game.kept:
            game.reject(drawn)
            thrown.append(drawn)
    return " ".join(thrown), game.draw(drawn)  # the engine refuses a draw it cannot take


def turn_choose_top(*, turn: Turn, by: Any, play: str | None = None) -> Turn:
    """Put a top on the board: ``play`` (a top's notation, as `rules` writes it) or the
    engine's default choice. Slips handed in after this are late."""
    evening = turn.evening
    with transaction.atomic():
        duplicate_check_open(evening.competition_id)
        club_lock(evening.competition.club_id)
        turn.refresh_from_db()
        if not turn.is_open:
            return turn  # a second click: the top is on the board already
        game = master_game(evening)
        try:
            tops = game.tops()
            chosen = None
            if play is not None:
                chosen = next((t for t in tops if t.notation == play), None)
                if chosen is None:
                    raise DuplicateEveningError(
                        _("%(play)s is not a top of this turn.") % {"play": play},
                        code="duplicate_not_a_top",
                    )
            done = game.play(chosen)
        except RulesError as exc:
            raise engine_error(exc) from None
        turn.top = done.chosen.notation
        turn.top_score = done.score
        turn.total = done.total
        turn.save(update_fields=["top", "top_score", "total"])
        turn_history(
            turn,
            by=by,
            action=HistoryAction.DUPLICATE_TOP,
            obj=turn,
            after={"turn": turn.number, "top": turn.top, "score": turn.top_score},
        )
        duplicate_touched(competition_id=evening.competition_id)
        announce_when_complete(evening)
    return turn


def turn_redo(
    *,
    turn: Turn,
    by: Any,
    reason: str,
    tiles: str | None = None,
    rng: random.Random | None = None,
) -> Turn:
    """Play the last turn again after a spelleider's error (the wrong tiles typed, a top
    put on the board too soon), as FISF §3.6 cancels a turn (the NTSV says nothing of it;
    docs/duplicate.md, *A turn played again*): every tile of the rack, the kept ones
    included, goes back into the bag and a different rack is drawn (typed, refused when
    it is the same; or by the app, ``rng``, drawn again until it differs); the top is open
    again and the clock starts anew. Every slip of the turn is void: kept as it was and in
    the history, never counted; its player hands in again on the new rack, judged on the
    new clock. The turn before and after, the reason, and each slip voided are kept in the
    history."""
    if not reason.strip():
        raise DuplicateEveningError(_("Give a reason for the correction."), code="no_reason")
    evening = turn.evening
    with transaction.atomic():
        duplicate_check_open(evening.competition_id)
        club_lock(evening.competition.club_id)
        # Held from here: a slip handed in meanwhile waits, and then finds the new rack.
        turn.refresh_from_db(from_queryset=row_lock(Turn.objects.all()))
        if evening.turns.filter(number__gt=turn.number).exists():
            raise DuplicateEveningError(
                _("Only the last turn can be played again."), code="not_last_turn"
            )
        game = master_game(evening, list(evening.turns.filter(number__lt=turn.number)))
        try:
            game.cancel(turn.rack)
            thrown, rack = _drawn(game, tiles, "", rng)
            tops = game.tops()
        except RulesError as exc:
            raise engine_error(exc) from None
        before = {"drawn": turn.drawn, "rack": turn.rack, "top": turn.top, "score": turn.top_score}
        turn.cancelled = turn.rack
        turn.drawn, turn.rack, turn.rejected = game.drawn, rack, thrown
        turn.top, turn.top_score, turn.total = "", tops[0].score if tops else 0, None
        # A new draw: the clock starts again, with the thinking time the competition has now.
        turn.drawn_at = clock_now()
        turn.seconds, turn.added_seconds = evening_slip_rules(evening).turn_seconds, 0
        turn.save(
            update_fields=[
                *("cancelled", "drawn", "rejected", "rack", "top", "top_score", "total"),
                *("drawn_at", "seconds", "added_seconds"),
            ]
        )
        turn_history(
            turn,
            by=by,
            action=HistoryAction.DUPLICATE_REDO,
            obj=turn,
            before=before,
            after={"drawn": turn.drawn, "rack": rack, "top": "", "score": turn.top_score},
            reason=reason,
        )
        _slips_voided(turn, by=by, reason=reason)
        duplicate_touched(competition_id=evening.competition_id)
    return turn


def _slips_voided(turn: Turn, *, by: Any, reason: str) -> None:
    """Every standing slip of ``turn`` void (its draw was cancelled: FISF §3.6, "les points
    afférents à ce coup sont annulés"), each with a history entry: what it was and paid,
    the spelleider's reason, and `HistoryReason.TURN_REDO`."""
    for slip in turn.slips.standing().order_by("pk"):
        Slip.objects.filter(pk=slip.pk).update(void=True)
        turn_history(
            turn,
            by=by,
            action=HistoryAction.SLIP_VOID,
            obj=slip,
            before={"turn": turn.number, "slip": slip.text, "score": slip.counted_score},
            after={"turn": turn.number, "slip": slip.text, "score": 0, "void": True},
            reason=reason,
            reason_code=HistoryReason.TURN_REDO,
        )


def turn_add_time(*, turn: Turn, seconds: int, reason: str, by: Any) -> Turn:
    """The spelleider adds ``seconds`` (1–600) to the open turn's time, with a reason (a
    disturbance in the room); the deadline before and after and the reason are kept in the
    history. Refused once the top is on the board: the turn is over."""
    if not reason.strip():
        raise DuplicateEveningError(_("Give a reason for the extra time."), code="no_reason")
    if not 1 <= seconds <= ADD_TIME_MAX:
        raise DuplicateEveningError(
            _("Add between 1 and %(max)s seconds.") % {"max": ADD_TIME_MAX}, code="bad_seconds"
        )
    evening = turn.evening
    with transaction.atomic():
        duplicate_check_open(evening.competition_id)
        held = turn_held(turn)
        if not held.is_open:
            raise DuplicateEveningError(
                _("The top is on the board: this turn's time is over."), code="turn_closed"
            )
        before = held.deadline
        held.added_seconds += seconds
        held.save(update_fields=["added_seconds"])
        turn_history(
            held,
            by=by,
            action=HistoryAction.DUPLICATE_ADD_TIME,
            obj=held,
            before={"turn": held.number, "deadline": _moment(before)},
            after={
                "turn": held.number,
                "deadline": _moment(held.deadline),
                "added_seconds": seconds,
            },
            reason=reason,
        )
        duplicate_touched(competition_id=evening.competition_id)
    return held


def _moment(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()
