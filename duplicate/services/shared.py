"""What the writes of duplicate/ share: an archived competition refused, its last change
moved forward, a turn's history entry, the turn held while a slip is scored on it, and
the announcement of an evening's complete results (after the commit that completes them,
inside the transaction of a correction). For the modules of
`duplicate.services` only; a page calls the write itself.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from clubs.history import history_record
from competition.services import CompetitionArchived
from duplicate import hand_in_sql
from duplicate.models import DuplicateCompetition, Evening, Slip, Turn
from duplicate.selectors import evening_complete
from duplicate.services import DuplicateEveningError
from duplicate.signals import game_complete
from games.rule_messages import describe
from rules.errors import RulesError


def engine_error(exc: RulesError) -> DuplicateEveningError:
    """The engine's refusal as this app's error, its message in the reader's language."""
    return DuplicateEveningError(describe(exc.code, exc.params), code=exc.code)


def duplicate_check_open(competition_id: int) -> None:
    """Refuse any change to an archived duplicate competition (`CompetitionArchived`)."""
    if DuplicateCompetition.objects.filter(pk=competition_id, archived_at__isnull=False).exists():
        raise CompetitionArchived


def duplicate_touched(*, competition_id: int) -> None:
    """Moves the competition's last change forward, last in every write's transaction; an
    archived one refuses the write here (as `competition.versioning.competition_touched`)."""
    open_ones = DuplicateCompetition.objects.filter(pk=competition_id, archived_at__isnull=True)
    if not open_ones.update(changed_at=timezone.now()):
        raise CompetitionArchived


def turn_history(turn: Turn, *, by: Any, action: str, obj: Turn | Slip, **change: Any) -> None:
    """One history entry of a turn or of one of its slips, labelled "evening, turn"."""
    evening = turn.evening
    history_record(
        club_id=evening.competition.club_id,
        by=by,
        action=action,
        object_type="duplicate_slip" if isinstance(obj, Slip) else "duplicate_turn",
        object_id=obj.pk,
        label=f"{evening}, {turn.number}",
        duplicate_id=evening.competition_id,
        **change,
    )


def turn_held(turn: Turn) -> Turn:
    """The slip's turn as it is now, held until the transaction ends: a redo of the turn
    holds it too, so a slip is scored on the rack before the redo (which scores it again)
    or after it, never on one the redo is replacing. Read in SQL of our own, inside the
    hand-in's write lock (`duplicate.hand_in_sql` says why)."""
    return hand_in_sql.turn_held(turn)


def announce_when_complete(evening: Evening) -> None:
    """After the commit, when the evening's results are complete: `game_complete` tells
    the apps above (ranking/ publishes a ranked event's game), and again after every
    later change of them. Read anew after the commit, so two writes in one transaction
    or a rollback announce nothing wrong."""
    evening_id = evening.pk

    def announce() -> None:
        # The turns with their evening, in one query (an evening without a turn is not
        # complete): a jury room asks after every slip typed (benchmarks/jury.py).
        turns = list(
            Turn.objects.filter(evening_id=evening_id)
            .select_related("evening__competition__club")
            .order_by("number")
        )
        if turns and evening_complete(current := turns[-1].evening, turns):
            game_complete.send(sender=Evening, evening=current)

    transaction.on_commit(announce)


def announce_correction(evening: Evening) -> None:
    """Inside a correction's transaction (a slip corrected, a late slip accepted, the
    evening counted under other rules): when the evening's results are complete,
    `game_complete` now, so that a ranked game is published again with the correction or
    not at all. The correction holds its club's lock, taken before the turn's or the
    slip's (clubs/locks.py), as the publication takes the organising federation's."""
    if evening_complete(evening):
        game_complete.send(sender=Evening, evening=evening)
