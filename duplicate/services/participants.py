"""Writes of a duplicate competition's players: entered, taken out again before they
played, withdrawn from an evening on and reinstated, seated at a table."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock, row_lock
from clubs.models import Membership
from duplicate.models import DuplicateCompetition, Participant, Slip
from duplicate.services import DuplicateEveningError
from duplicate.services.shared import duplicate_check_open, duplicate_touched
from events.models import Entry


def _participant_history(participant: Participant, *, by: Any, action: str, **change: Any) -> None:
    history_record(
        club_id=participant.competition.club_id,
        by=by,
        action=action,
        object_type="participant",
        object_id=participant.pk,
        label=f"{participant.player.name} ({participant.competition.name})",
        duplicate_id=participant.competition_id,
        **change,
    )


def participant_add(*, competition: DuplicateCompetition, player: Any, by: Any) -> Participant:
    """Enter a player of the club (of a division of an event: a person entered in the
    event, of any club); a second time changes nothing."""
    if competition.event_id is not None:
        if not Entry.objects.filter(event_id=competition.event_id, player=player).exists():
            raise DuplicateEveningError(
                _("%(player)s is not entered in the event: enter them on the event's page first.")
                % {"player": player},
                code="not_entered",
            )
    elif not Membership.objects.filter(club_id=competition.club_id, player=player).exists():
        raise DuplicateEveningError(
            _("Only players of the club can be entered."), code="not_of_the_club"
        )
    with transaction.atomic():
        duplicate_check_open(competition.pk)
        club_lock(competition.club_id)
        participant, made = Participant.objects.get_or_create(
            competition=competition, player=player
        )
        if made:
            _participant_history(participant, by=by, action=HistoryAction.PARTICIPANT_ADD)
            duplicate_touched(competition_id=competition.pk)
    return participant


def participant_remove(*, participant: Participant, by: Any) -> None:
    """Take a player out of a duplicate competition they have not played in yet (an entry
    in an event taken back); one with slips is withdrawn from an evening instead."""
    with transaction.atomic():
        duplicate_check_open(participant.competition_id)
        club_lock(participant.competition.club_id)
        if Slip.objects.filter(
            turn__evening__competition_id=participant.competition_id,
            player_id=participant.player_id,
        ).exists():
            raise DuplicateEveningError(
                _(
                    "%(player)s has played in %(competition)s: withdraw them from an evening "
                    "instead."
                )
                % {"player": participant.player, "competition": participant.competition},
                code="has_played",
            )
        _participant_history(
            participant,
            by=by,
            action=HistoryAction.PARTICIPANT_REMOVE,
            before={"player": participant.player.name},
        )
        participant.delete()
        duplicate_touched(competition_id=participant.competition_id)


def participant_withdraw(*, participant: Participant, from_evening: int, by: Any) -> Participant:
    """Withdrawn from evening `from_evening` on: no slips from then, and out of the
    rankings of that evening and every later one (their earlier evenings stay)."""
    if not 1 <= from_evening <= 999:
        raise DuplicateEveningError(
            _("Give the evening from which the player withdraws (1–999)."), code="bad_evening"
        )
    return _participant_set(
        participant,
        "withdrawn_from_evening",
        from_evening,
        action=HistoryAction.PARTICIPANT_WITHDRAW,
        by=by,
    )


def participant_reinstate(*, participant: Participant, by: Any) -> Participant:
    """Back in every evening; one who never withdrew changes nothing."""
    return _participant_set(
        participant,
        "withdrawn_from_evening",
        None,
        action=HistoryAction.PARTICIPANT_REINSTATE,
        by=by,
    )


def participant_table_set(*, participant: Participant, table: int | None, by: Any) -> Participant:
    """The table the player sits at (1–999; None: none), by which the jury room counts the
    missing slips; the same table again changes nothing."""
    if table is not None and not 1 <= table <= 999:
        raise DuplicateEveningError(_("A table is a number 1–999."), code="bad_table")
    return _participant_set(
        participant, "table", table, action=HistoryAction.PARTICIPANT_TABLE, by=by
    )


def _participant_set(
    participant: Participant, field: str, value: Any, *, action: str, by: Any
) -> Participant:
    """One field of a participant (its withdrawal, its table), written with its history
    under the row's lock; the same value again changes nothing."""
    with transaction.atomic():
        duplicate_check_open(participant.competition_id)
        current = row_lock(Participant.objects).get(pk=participant.pk)
        before = getattr(current, field)
        if before == value:
            return current
        setattr(current, field, value)
        current.save(update_fields=[field])
        _participant_history(
            participant, by=by, action=action, before={field: before}, after={field: value}
        )
        duplicate_touched(competition_id=participant.competition_id)
    return current
