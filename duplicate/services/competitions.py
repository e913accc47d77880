"""Writes of a duplicate competition: made, its settings changed, its rules for the
evenings to come set (and applied to an evening already made), archived."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock, row_lock
from clubs.slugs import competition_slug_taken
from competition.services import CompetitionArchived
from duplicate.models import DuplicateCompetition, Evening, Slip
from duplicate.replay import (
    duplicate_settings,
    evening_slip_rules,
    master_game,
    slip_judged,
    turn_drawn,
)
from duplicate.services import DuplicateEveningError
from duplicate.services.shared import (
    announce_correction,
    duplicate_check_open,
    duplicate_touched,
    engine_error,
    turn_history,
)
from events.models import Event
from rules.board import Notation
from rules.errors import RulesError
from rules.referee import DuplicateSettings

#: What a secretary sets of a duplicate competition; the history records each change.
SETTINGS_FIELDS = ("name", "slug", "rules", "start_date", "best_evenings")


class DuplicateSlugTaken(DuplicateEveningError):
    def __init__(self) -> None:
        super().__init__(
            _("The club already has a competition with this short name."), code="slug_taken"
        )


def _settings(competition: DuplicateCompetition) -> dict[str, Any]:
    values = {name: getattr(competition, name) for name in SETTINGS_FIELDS}
    return {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in values.items()}


def _save(competition: DuplicateCompetition) -> None:
    """Checked and saved under the club's lock: a short name taken by any competition of
    the club (paired or duplicate) is refused."""
    club_lock(competition.club_id)
    if competition_slug_taken(competition.club_id, competition.slug, own=competition):
        raise DuplicateSlugTaken
    competition.name = " ".join(str(competition.name).split())
    try:
        competition.full_clean(exclude=["club"], validate_constraints=False)
    except ValidationError as error:
        raise DuplicateEveningError(" ".join(error.messages), code="invalid") from None
    try:
        with transaction.atomic():
            competition.save()
    except IntegrityError:
        raise DuplicateSlugTaken from None


def _competition_history(
    competition: DuplicateCompetition, *, by: Any, action: str, **change: Any
) -> None:
    history_record(
        club_id=competition.club_id,
        by=by,
        action=action,
        object_type="duplicate",
        object_id=competition.pk,
        label=competition.name,
        duplicate_id=competition.pk,
        **change,
    )


def duplicate_create(
    *, club: Any, settings: dict[str, Any], by: Any, event: Event | None = None
) -> DuplicateCompetition:
    """A new duplicate competition of `club` with `settings` (`SETTINGS_FIELDS`); with
    `event`, a division of that event (which `club` organises)."""
    if event is not None and event.organiser_id != club.pk:
        raise ValueError("A division belongs to its event's organiser.")
    with transaction.atomic():
        competition = DuplicateCompetition(club=club, event=event, **settings)
        _save(competition)
        _competition_history(
            competition,
            by=by,
            action=HistoryAction.DUPLICATE_CREATE,
            after=_settings(competition),
        )
    return competition


def duplicate_update(
    *, competition: DuplicateCompetition, settings: dict[str, Any], by: Any
) -> DuplicateCompetition:
    """Change the settings given; nothing changed writes nothing. Evenings already played
    keep the rules they were played with (`Evening.rules`)."""
    with transaction.atomic():
        current = row_lock(DuplicateCompetition.objects).get(pk=competition.pk)
        if current.is_archived:
            raise CompetitionArchived
        before = _settings(current)
        for name, value in settings.items():
            if name not in SETTINGS_FIELDS:
                raise ValueError(f"Not a duplicate setting: {name}")
            setattr(current, name, value)
        after = _settings(current)
        changed = [name for name in SETTINGS_FIELDS if before[name] != after[name]]
        if changed:
            _save(current)
            _competition_history(
                current,
                by=by,
                action=HistoryAction.DUPLICATE_SETTINGS,
                before={name: before[name] for name in changed},
                after={name: after[name] for name in changed},
            )
    return current


def _flat(settings: dict[str, Any]) -> dict[str, Any]:
    """{"preset": ..., "draw.leftovers": ..., "slips.turn_seconds": ...}: how the history
    keeps a change of the rules, one key per rule."""
    flat = {"preset": settings["preset"]}
    for part in ("draw", "slips"):
        flat |= {f"{part}.{name}": value for name, value in settings[part].items()}
    return flat


def _changes(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict, dict]:
    """The rules that differ, before and after (each a flat key)."""
    old, new = _flat(before), _flat(after)
    changed = [key for key in new if old.get(key) != new[key]]
    return {key: old.get(key) for key in changed}, {key: new[key] for key in changed}


def duplicate_rules_set(
    *, competition: DuplicateCompetition, settings: DuplicateSettings, by: Any
) -> DuplicateCompetition:
    """The competition's rules for the evenings to come (a preset, and what the club plays
    differently); the evenings already made keep theirs until the spelleider applies the
    new ones to one (`evening_rules_apply`). Nothing changed writes nothing."""
    with transaction.atomic():
        current = row_lock(DuplicateCompetition.objects).get(pk=competition.pk)
        if current.is_archived:
            raise CompetitionArchived
        before = duplicate_settings(current).to_dict()
        after = settings.to_dict()
        old, new = _changes(before, after)
        if not new:
            return current
        current.settings = after
        current.save(update_fields=["settings", "changed_at"])
        _competition_history(
            current, by=by, action=HistoryAction.DUPLICATE_SETTINGS, before=old, after=new
        )
    return current


def evening_rules_apply(*, evening: Evening, reason: str, by: Any) -> Evening:
    """Count an evening under the competition's slip rules as they are now (a club that
    changed its rules and wants an evening already played counted under them): every
    slip judged again. The reason is required; the history keeps the rules before and
    after and each slip whose score changed. The draw rules stay the evening's: its racks
    were drawn under them. Nothing to change writes nothing."""
    if not reason.strip():
        raise DuplicateEveningError(_("Give a reason for the correction."), code="no_reason")
    with transaction.atomic():
        duplicate_check_open(evening.competition_id)
        club_lock(evening.competition.club_id)
        current = row_lock(Evening.objects.select_related("competition")).get(pk=evening.pk)
        before = evening_slip_rules(current).to_dict()
        after = duplicate_settings(current.competition).slips.to_dict()
        if before == after:
            return current
        current.slip_rules = after
        current.save(update_fields=["slip_rules"])
        history_record(
            club_id=current.competition.club_id,
            by=by,
            action=HistoryAction.DUPLICATE_SETTINGS,
            object_type="duplicate_evening",
            object_id=current.pk,
            label=str(current),
            before={f"slips.{k}": v for k, v in before.items() if after[k] != v},
            after={f"slips.{k}": v for k, v in after.items() if before[k] != v},
            reason=reason,
            duplicate_id=current.competition_id,
        )
        _slips_judged_again(current, by=by, reason=reason)
        duplicate_touched(competition_id=current.competition_id)
        announce_correction(current)
    return current


def _slips_judged_again(evening: Evening, *, by: Any, reason: str) -> None:
    """Every slip of the evening judged again on its turn's board (after its rules
    changed); each one whose score changed goes into the history with the reason."""
    game = master_game(evening, [])
    rules = evening_slip_rules(evening)
    try:
        for turn in evening.turns.order_by("number"):
            turn.evening = evening
            turn_drawn(game, turn)  # the turn's board and rack, as its slips met them
            for slip in turn.slips.standing().order_by("pk"):
                notation = Notation(slip.written_in)
                judged = slip_judged(game, turn, slip.text, slip.claimed, notation, rules)
                Slip.objects.filter(pk=slip.pk).update(**judged)
                if (judged["score"], judged["warning"]) == (slip.score, slip.warning):
                    continue
                turn_history(
                    turn,
                    by=by,
                    action=HistoryAction.SLIP_CORRECT,
                    obj=slip,
                    before={"slip": slip.text, "score": slip.score, "warning": slip.warning},
                    after={
                        "slip": slip.text,
                        "score": judged["score"],
                        "warning": judged["warning"],
                    },
                    reason=reason,
                )
            if not turn.is_open:
                game.play_known(turn.top)
    except RulesError as exc:
        raise engine_error(exc) from None


def duplicate_archive(
    *, competition: DuplicateCompetition, by: Any, reason: str = ""
) -> DuplicateCompetition:
    """Archived: its pages stay, every later change is refused. Twice is once."""
    with transaction.atomic():
        current = row_lock(DuplicateCompetition.objects).get(pk=competition.pk)
        if current.is_archived:
            return current
        current.archived_at = timezone.now()
        current.save(update_fields=["archived_at", "changed_at"])
        _competition_history(
            current,
            by=by,
            action=HistoryAction.DUPLICATE_ARCHIVE,
            before={"archived": False},
            after={"archived": True},
            reason=reason,
        )
    return current
