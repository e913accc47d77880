"""Writes of a duplicate evening as a whole: made (with the competition's rules as they
are now), and scored again by the engine from its draws and tops (a restored archive)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock
from clubs.models import Club
from duplicate.models import DuplicateCompetition, Evening, Slip, Turn
from duplicate.replay import (
    SLIP_JUDGED_FIELDS,
    duplicate_settings,
    evening_slip_rules,
    new_master_game,
    slip_judged,
    turn_drawn,
)
from duplicate.services import DuplicateEveningError
from duplicate.services.shared import duplicate_check_open, duplicate_touched, engine_error
from rules.board import Notation
from rules.duplicate import DrawRules
from rules.errors import RulesError
from rules.move import parse_move


def evening_create(
    *,
    competition: DuplicateCompetition,
    number: int,
    by: Any,
    draw_rules: dict[str, Any] | None = None,
) -> Evening:
    """A new evening (its number once per competition): idempotent for a second click.
    It plays the competition's rules as they are now; a later change of the competition's
    rules leaves the evenings played (like a game's rules, kept from its pairing)."""
    with transaction.atomic():
        duplicate_check_open(competition.pk)
        club_lock(competition.club_id)
        existing = Evening.objects.filter(competition=competition, number=number).first()
        if existing is not None:
            return existing
        # The competition's rules as they are now, not as the caller read them.
        current = DuplicateCompetition.objects.only("rules", "settings").get(pk=competition.pk)
        rules, settings = current.rules, duplicate_settings(current)
        try:
            checked = (
                DrawRules.from_dict(draw_rules).to_dict() if draw_rules else settings.draw.to_dict()
            )
        except RulesError as exc:
            raise engine_error(exc) from None
        slip_rules = settings.slips.to_dict()
        # The club's own list as it is now: the evening keeps it when the club changes it.
        word_list = Club.objects.values_list("word_list", flat=True).get(pk=competition.club_id)
        evening = Evening.objects.create(
            competition=competition,
            number=number,
            rules=rules,
            word_list=word_list,
            draw_rules=checked,
            slip_rules=slip_rules,
        )
        history_record(
            club_id=competition.club_id,
            by=by,
            action=HistoryAction.DUPLICATE_EVENING,
            object_type="duplicate_evening",
            object_id=evening.pk,
            label=str(evening),
            after={
                "number": number,
                "rules": rules,
                **({"word_list": word_list} if word_list else {}),
                "draw_rules": checked,
                "slip_rules": slip_rules,
            },
            duplicate_id=competition.pk,
        )
        duplicate_touched(competition_id=competition.pk)
    return evening


def evening_rescore(evening: Evening) -> None:
    """The evening as the engine plays it: racks, top scores and sums from the draws and
    tops, every slip scored again on its turn's board (a restored archive's own figures
    are not taken on trust). Raises `DuplicateEveningError` when the turns do not play."""
    turns = list(evening.turns.order_by("number"))
    slips: dict[int, list[Slip]] = {}
    # A void slip stays as it was scored on the rack its turn's redo cancelled.
    for slip in Slip.objects.standing().filter(turn__evening=evening).order_by("pk"):
        slips.setdefault(slip.turn_id, []).append(slip)
    game = new_master_game(evening)
    rules = evening_slip_rules(evening)
    try:
        for index, turn in enumerate(turns, 1):
            if turn.number != index or (turn.is_open and index != len(turns)):
                raise DuplicateEveningError(
                    _("The turns do not follow each other."), code="turns_out_of_order"
                )
            turn.rack = turn_drawn(game, turn)
            if turn.is_open:
                tops = game.tops()
                turn.top_score, turn.total = (tops[0].score if tops else 0), None
            else:
                # Scored before the play: the slips of a turn meet the board before its top.
                turn.top_score = game.game.preview(parse_move(turn.top), rack=turn.rack).score
            for slip in slips.get(turn.pk, []):
                notation = Notation(slip.written_in)
                scored = slip_judged(game, turn, slip.text, slip.claimed, notation, rules)
                for name, value in scored.items():
                    setattr(slip, name, value)
            if not turn.is_open:
                turn.total = game.play_known(turn.top).total
    except RulesError as exc:
        raise engine_error(exc) from None
    Turn.objects.bulk_update(turns, ["rack", "top_score", "total"])
    fields = [*SLIP_JUDGED_FIELDS]
    Slip.objects.bulk_update([s for group in slips.values() for s in group], fields)
