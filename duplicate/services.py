"""Writes of a duplicate evening: the evening, each turn's draw and top, every slip.

Every function runs inside `transaction.atomic`, writes a history entry for what it
changed, and raises `DuplicateEveningError` (a translatable message, the engine's code
when it comes from `rules.duplicate`) changing nothing. The spelleider's writes (draws,
tops) hold the club's lock, so two clicks make one turn. A slip is scored and written
holding its turn's row (`_turn_held`), which a redo of the turn holds too: the slip is
scored on the rack that is current in its own transaction. The database keeps one slip
per player and turn, and a second one is refused.

The turn's clock is the server's: a turn drawn takes the competition's thinking time, the
spelleider may add time with a reason, and a slip from a phone is judged in time or late
when it arrives, on the turn held (`Turn.in_time`). A late slip is kept, marked, and counts
0 until the spelleider accepts it with a reason (`duplicate.ranking.slip_counts`).
"""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs import word_lists
from clubs.history import HistoryAction, HistoryReason, history_record
from clubs.locks import club_lock, row_lock
from clubs.models import Club, Membership
from clubs.slugs import competition_slug_taken
from competition.services import CompetitionArchived, CompetitionError
from duplicate import hand_in_sql
from duplicate.models import (
    DuplicateCompetition,
    Evening,
    Participant,
    Slip,
    SlipConflict,
    Turn,
)
from duplicate.signals import game_complete
from events.models import Entry, Event
from games.rule_messages import coded, describe
from rules import RuleSet, rule_set
from rules.board import Notation
from rules.duplicate import DrawRules, DuplicateGame
from rules.errors import RulesError
from rules.move import parse_move
from rules.referee import DuplicateSettings, SlipRules, judge_slip

#: History action codes of this app (the history stores the code).
EVENING_CREATE = HistoryAction.DUPLICATE_EVENING
TURN_DRAW = HistoryAction.DUPLICATE_DRAW
TURN_TOP = HistoryAction.DUPLICATE_TOP
SLIP_SUBMIT = HistoryAction.SLIP_SUBMIT
SLIP_CORRECT = HistoryAction.SLIP_CORRECT
SLIP_ACCEPT_LATE = HistoryAction.SLIP_ACCEPT_LATE
SLIP_CONFLICT = HistoryAction.SLIP_CONFLICT
SLIP_CONFLICT_RESOLVE = HistoryAction.SLIP_CONFLICT_RESOLVE
PARTICIPANT_TABLE = HistoryAction.PARTICIPANT_TABLE
TURN_ADD_TIME = HistoryAction.DUPLICATE_ADD_TIME
TURN_REDO = HistoryAction.DUPLICATE_REDO
DUPLICATE_CREATE = HistoryAction.DUPLICATE_CREATE
DUPLICATE_SETTINGS = HistoryAction.DUPLICATE_SETTINGS
DUPLICATE_ARCHIVE = HistoryAction.DUPLICATE_ARCHIVE
PARTICIPANT_ADD = HistoryAction.PARTICIPANT_ADD
PARTICIPANT_WITHDRAW = HistoryAction.PARTICIPANT_WITHDRAW
PARTICIPANT_REINSTATE = HistoryAction.PARTICIPANT_REINSTATE
#: What judging a slip sets on its row (`_score_on`).
SLIP_JUDGED_FIELDS = (
    "score",
    "reason_code",
    "reason_params",
    "corrected",
    "is_top",
    "faults",
    "warning",
    "penalty",
)
#: The reason code of a slip scored again because its turn was played again.
REASON_TURN_REDO = HistoryReason.TURN_REDO


class DuplicateEveningError(CompetitionError):
    """A duplicate write that cannot be done; `code` is the engine's code, if any."""

    def __init__(self, message: Any, *, code: str = "") -> None:
        super().__init__(message)
        self.code = code


def _engine_error(exc: RulesError) -> DuplicateEveningError:
    return DuplicateEveningError(describe(exc.code, exc.params), code=exc.code)


# -------------------------------------------------------------------- the competition

#: What a secretary sets of a duplicate competition; the history records each change.
SETTINGS_FIELDS = ("name", "slug", "rules", "start_date", "best_evenings")


class DuplicateSlugTaken(DuplicateEveningError):
    def __init__(self) -> None:
        super().__init__(
            _("The club already has a competition with this short name."), code="slug_taken"
        )


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
            competition, by=by, action=DUPLICATE_CREATE, after=_settings(competition)
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
                action=DUPLICATE_SETTINGS,
                before={name: before[name] for name in changed},
                after={name: after[name] for name in changed},
            )
    return current


def duplicate_settings(competition: DuplicateCompetition) -> DuplicateSettings:
    """The competition's duplicate rules: its own, started from a preset (empty: the NTSV
    preset). What the evenings to come play; each evening keeps a copy."""
    return DuplicateSettings.from_dict(competition.settings or {})


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
        _competition_history(current, by=by, action=DUPLICATE_SETTINGS, before=old, after=new)
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
            action=DUPLICATE_SETTINGS,
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
        announce_when_complete(current)
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
            for slip in turn.slips.order_by("pk"):
                notation = Notation(slip.written_in)
                judged = _score_on(game, turn, slip.text, slip.claimed, notation, rules)
                Slip.objects.filter(pk=slip.pk).update(**judged)
                if (judged["score"], judged["warning"]) == (slip.score, slip.warning):
                    continue
                _turn_history(
                    turn,
                    by=by,
                    action=SLIP_CORRECT,
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
        raise _engine_error(exc) from None


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
            action=DUPLICATE_ARCHIVE,
            before={"archived": False},
            after={"archived": True},
            reason=reason,
        )
    return current


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
            _participant_history(participant, by=by, action=PARTICIPANT_ADD)
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
        participant, "withdrawn_from_evening", from_evening, action=PARTICIPANT_WITHDRAW, by=by
    )


def participant_reinstate(*, participant: Participant, by: Any) -> Participant:
    """Back in every evening; one who never withdrew changes nothing."""
    return _participant_set(
        participant, "withdrawn_from_evening", None, action=PARTICIPANT_REINSTATE, by=by
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


# -------------------------------------------------------------------- the master game


def _turn_history(turn: Turn, *, by: Any, action: str, obj: Turn | Slip, **change: Any) -> None:
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


def evening_rules(evening: Evening) -> DrawRules:
    return DrawRules.from_dict(evening.draw_rules) if evening.draw_rules else DrawRules()


def evening_slip_rules(evening: Evening) -> SlipRules:
    """How the evening's slips are judged and counted: the competition's rules when the
    evening was made, or as the spelleider applied them since (empty: the NTSV preset's)."""
    return SlipRules.from_dict(evening.slip_rules) if evening.slip_rules else SlipRules()


def evening_ruleset(evening: Evening) -> RuleSet:
    """The board rules of the evening: its preset, with the club's own word list when the
    evening was made with one (`Evening.word_list`)."""
    ruleset = rule_set(evening.rules)
    if evening.word_list:
        ruleset = dataclasses.replace(ruleset, word_list=evening.word_list)
    return ruleset


def new_master_game(evening: Evening) -> DuplicateGame:
    """The evening's master game before its first draw: its rules, its draw rules and the
    word list its tops are searched in (clubs/word_lists.py)."""
    ruleset = evening_ruleset(evening)
    return DuplicateGame(ruleset, draw_rules=evening_rules(evening), dawg=word_lists.dawg(ruleset))


def master_game(evening: Evening, turns: list[Turn] | None = None) -> DuplicateGame:
    """The evening's master game rebuilt from its turns (the closed ones replayed, an
    open one drawn), without searching the tops of the closed turns again."""
    game = new_master_game(evening)
    for turn in turns if turns is not None else list(evening.turns.order_by("number")):
        turn_drawn(game, turn)
        if turn.top:
            game.play_known(turn.top)
    return game


def turn_drawn(game: DuplicateGame, turn: Turn) -> str:
    """``turn``'s draw on ``game``, after the draws thrown back before it
    (`Turn.rejected`: under the rule that a rejected rack goes back whole, its kept tiles
    went back into the bag with them); the rack."""
    for thrown in turn.rejected.split():
        game.reject(thrown)
    return game.draw(turn.drawn)


def evening_rescore(evening: Evening) -> None:
    """The evening as the engine plays it: racks, top scores and sums from the draws and
    tops, every slip scored again on its turn's board (a restored archive's own figures
    are not taken on trust). Raises `DuplicateEveningError` when the turns do not play."""
    turns = list(evening.turns.order_by("number"))
    slips: dict[int, list[Slip]] = {}
    for slip in Slip.objects.filter(turn__evening=evening).order_by("pk"):
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
                scored = _score_on(game, turn, slip.text, slip.claimed, notation, rules)
                for name, value in scored.items():
                    setattr(slip, name, value)
            if not turn.is_open:
                turn.total = game.play_known(turn.top).total
    except RulesError as exc:
        raise _engine_error(exc) from None
    Turn.objects.bulk_update(turns, ["rack", "top_score", "total"])
    fields = [*SLIP_JUDGED_FIELDS]
    Slip.objects.bulk_update([s for group in slips.values() for s in group], fields)


# -------------------------------------------------------------------- the spelleider


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
            raise _engine_error(exc) from None
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
            action=EVENING_CREATE,
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
            raise _engine_error(exc) from None
        turn = Turn.objects.create(
            evening=evening,
            number=game.turn_number,
            drawn=game.drawn,
            rejected=thrown,
            rack=rack,
            top_score=tops[0].score if tops else 0,
            drawn_at=timezone.now(),
            seconds=evening_slip_rules(evening).turn_seconds,
        )
        _turn_history(
            turn,
            by=by,
            action=TURN_DRAW,
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
            raise _engine_error(exc) from None
        turn.top = done.chosen.notation
        turn.top_score = done.score
        turn.total = done.total
        turn.save(update_fields=["top", "top_score", "total"])
        _turn_history(
            turn,
            by=by,
            action=TURN_TOP,
            obj=turn,
            after={"turn": turn.number, "top": turn.top, "score": turn.top_score},
        )
        duplicate_touched(competition_id=evening.competition_id)
        announce_when_complete(evening)
    return turn


def turn_redo(*, turn: Turn, by: Any, reason: str, tiles: str | None = None) -> Turn:
    """Play the last turn again after a spelleider's error (the wrong tiles typed, a top
    put on the board too soon): a new draw (typed, or by the app), the top open again,
    and every slip of the turn scored again against the new rack. The turn before and
    after, the reason, and each slip whose score changed are kept in the history."""
    if not reason.strip():
        raise DuplicateEveningError(_("Give a reason for the correction."), code="no_reason")
    evening = turn.evening
    with transaction.atomic():
        duplicate_check_open(evening.competition_id)
        club_lock(evening.competition.club_id)
        # Held from here: a slip handed in meanwhile waits for the new rack to score on.
        turn.refresh_from_db(from_queryset=row_lock(Turn.objects.all()))
        if evening.turns.filter(number__gt=turn.number).exists():
            raise DuplicateEveningError(
                _("Only the last turn can be played again."), code="not_last_turn"
            )
        game = master_game(evening, list(evening.turns.filter(number__lt=turn.number)))
        try:
            thrown, rack = _drawn(game, tiles, "", None)
            tops = game.tops()
        except RulesError as exc:
            raise _engine_error(exc) from None
        before = {"drawn": turn.drawn, "top": turn.top, "score": turn.top_score}
        turn.drawn, turn.rack, turn.rejected = game.drawn, rack, thrown
        turn.top, turn.top_score, turn.total = "", tops[0].score if tops else 0, None
        # A new draw: the clock starts again, with the thinking time the competition has now.
        turn.drawn_at = timezone.now()
        turn.seconds, turn.added_seconds = evening_slip_rules(evening).turn_seconds, 0
        turn.save(
            update_fields=[
                *("drawn", "rejected", "rack", "top", "top_score", "total"),
                *("drawn_at", "seconds", "added_seconds"),
            ]
        )
        _turn_history(
            turn,
            by=by,
            action=TURN_REDO,
            obj=turn,
            before=before,
            after={"drawn": turn.drawn, "top": "", "score": turn.top_score},
            reason=reason,
        )
        for slip in turn.slips.order_by("pk"):
            scored = _score_on(game, turn, slip.text, slip.claimed, Notation(slip.written_in))
            Slip.objects.filter(pk=slip.pk).update(**scored)
            if scored["score"] == slip.score and scored["reason_code"] == slip.reason_code:
                continue
            _turn_history(
                turn,
                by=by,
                action=SLIP_CORRECT,
                obj=slip,
                before={"slip": slip.text, "score": slip.score},
                after={"slip": slip.text, "score": scored["score"]},
                reason_code=REASON_TURN_REDO,
            )
        duplicate_touched(competition_id=evening.competition_id)
    return turn


#: What the spelleider may add to a turn's time at once (seconds).
ADD_TIME_MAX = 600


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
        held = _turn_held(turn)
        if not held.is_open:
            raise DuplicateEveningError(
                _("The top is on the board: this turn's time is over."), code="turn_closed"
            )
        before = held.deadline
        held.added_seconds += seconds
        held.save(update_fields=["added_seconds"])
        _turn_history(
            held,
            by=by,
            action=TURN_ADD_TIME,
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


# -------------------------------------------------------------------- slips


def _scored(
    turn: Turn,
    text: str,
    claimed: int | None,
    position: DuplicateGame | None = None,
    rules: SlipRules | None = None,
) -> dict[str, Any]:
    """What the engine makes of a slip, read in the club's notation, on the board and rack
    of its turn (`position`: the master game with this turn's rack drawn, when the caller
    has it; `rules`: the evening's slip rules, when the caller has read them)."""
    if position is None or (position.turn_number, position.rack) != (turn.number, turn.rack):
        turns = list(turn.evening.turns.filter(number__lt=turn.number).order_by("number"))
        position = master_game(turn.evening, turns)
        turn_drawn(position, turn)
    notation = turn.evening.competition.club.notation
    return _score_on(position, turn, text, claimed, notation, rules)


def _score_on(
    game: DuplicateGame,
    turn: Turn,
    text: str,
    claimed: int | None,
    notation: Notation,
    rules: SlipRules | None = None,
) -> dict[str, Any]:
    """A slip written in ``notation`` judged on ``game`` (the master game with the turn's
    rack drawn) under the evening's slip rules (`rules.referee.judge_slip`; read here when
    the caller has not): what it pays, and its faults, its warning and its penalty."""
    result = judge_slip(
        game.game,
        game.rack or "",
        text,
        claimed=claimed,
        top=turn.top_score,
        rules=rules or evening_slip_rules(turn.evening),
        notation=notation,
    )
    return {
        "written_in": notation.value,
        "score": result.score,
        "reason_code": result.reason or "",
        "reason_params": {k: v for k, v in result.params},
        "corrected": result.corrected,
        "is_top": result.is_top,
        "faults": list(result.faults),
        "warning": result.warning or "",
        "penalty": result.penalty,
    }


def _clean(text: str) -> str:
    """What a slip keeps of the text: printable characters, single spaces, 60 at most
    (a NUL or a control character would be refused by the database, not by the rules)."""
    return " ".join("".join(ch for ch in str(text) if ch.isprintable()).split())[:60]


def _turn_held(turn: Turn) -> Turn:
    """The slip's turn as it is now, held until the transaction ends: a redo of the turn
    holds it too, so a slip is scored on the rack before the redo (which scores it again)
    or after it, never on one the redo is replacing. Read in SQL of our own, inside the
    hand-in's write lock (`duplicate.hand_in_sql` says why)."""
    return hand_in_sql.turn_held(turn)


def _plays_this_evening(
    evening: Evening, player_id: int, participation: Participant | None = None
) -> bool:
    """Whether the player is entered in the evening's competition and not withdrawn before
    this evening (`Participant.plays_in`); `participation`: the player's entry as the
    caller has read it. Read before the write lock: a withdrawal is the spelleider's act
    between turns, and the ranking leaves a withdrawn player out whatever slips are in."""
    if participation is None or (participation.competition_id, participation.player_id) != (
        evening.competition_id,
        player_id,
    ):
        participation = (
            Participant.objects.filter(competition_id=evening.competition_id, player_id=player_id)
            .order_by()
            .first()
        )
    return participation is not None and participation.plays_in(evening.number)


def slip_submit(
    *,
    turn: Turn,
    player_id: int,
    text: str,
    by: Any,
    claimed: int | None = None,
    position: DuplicateGame | None = None,
    participation: Participant | None = None,
    on_paper: bool = False,
    now: datetime | None = None,
) -> Slip:
    """Hand in a player's slip: scored at once; a second slip for the turn is refused
    (a correction goes through `slip_correct`). A slip from the player's phone that
    arrives (``now``) after the turn's time or after the top is marked late
    (`Turn.in_time`): kept with the engine's score, counting 0 until accepted. A paper
    slip typed by the secretary (``on_paper``) is never late: it was handed in on paper
    when the time was called, and is typed afterwards by nature.
    `position`: the master game with the turn's rack drawn, as the caller read it; used
    when the rack is still that one. `participation`: the player's entry in the
    competition, as the caller read it (read here otherwise). Whether the competition is
    archived is refused by `duplicate_touched`, at the end of the same transaction."""
    arrived = now or timezone.now()
    text = _clean(text)
    if claimed is not None and not 0 <= claimed <= 9999:
        raise DuplicateEveningError(_("A score is a whole number 0–9999."), code="bad_claim")
    if not _plays_this_evening(turn.evening, player_id, participation):
        raise DuplicateEveningError(
            _("This player does not play in this competition this evening."),
            code="not_an_entrant",
        )
    try:
        with transaction.atomic():
            turn = _turn_held(turn)
            rules = evening_slip_rules(turn.evening)
            scored = _scored(turn, text, claimed, position, rules)
            slip = Slip.objects.create(
                turn=turn,
                player_id=player_id,
                text=text,
                claimed=claimed,
                late=not on_paper and not turn.in_time(arrived, rules.grace_seconds),
                **scored,
            )
            _turn_history(
                turn,
                by=by,
                action=SLIP_SUBMIT,
                obj=slip,
                after={
                    "turn": turn.number,
                    "slip": text,
                    "claimed": claimed,
                    "score": scored["score"],
                    "why": coded(scored["reason_code"], scored["reason_params"])
                    if scored["reason_code"]
                    else None,
                    "late": slip.late,
                },
            )
            duplicate_touched(competition_id=turn.evening.competition_id)
            if not turn.is_open:  # an open turn: the game goes on, nothing is complete
                announce_when_complete(turn.evening)
    except IntegrityError:
        raise DuplicateEveningError(
            _("This player's slip for turn %(turn)s is already in.") % {"turn": turn.number},
            code="slip_twice",
        ) from None
    return slip


def slip_accept_late(*, slip: Slip, reason: str, by: Any) -> Slip:
    """The spelleider accepts a late slip (a phone that lost its connection): from now on
    it counts as one in time, with the score the engine gave it when it came in. The
    reason is required and kept in the history; a second acceptance changes nothing."""
    if not reason.strip():
        raise DuplicateEveningError(
            _("Give a reason for accepting the late slip."), code="no_reason"
        )
    turn = slip.turn
    with transaction.atomic():
        duplicate_check_open(turn.evening.competition_id)
        current = row_lock(Slip.objects).filter(pk=slip.pk).first()
        if current is None:
            raise DuplicateEveningError(_("This slip no longer exists."), code="no_slip")
        if not current.late:
            raise DuplicateEveningError(_("This slip was handed in on time."), code="not_late")
        if current.late_accepted:
            return current
        current.late_accepted = True
        current.save(update_fields=["late_accepted"])
        _turn_history(
            turn,
            by=by,
            action=SLIP_ACCEPT_LATE,
            obj=current,
            # The score as it counts: 0 while late, the engine's once accepted.
            before={"slip": current.text, "score": 0, "late_accepted": False},
            after={"slip": current.text, "score": current.score, "late_accepted": True},
            reason=reason,
        )
        duplicate_touched(competition_id=turn.evening.competition_id)
        announce_when_complete(turn.evening)
    return current


def slip_correct(
    *, slip: Slip, text: str, reason: str, by: Any, claimed: int | None = None
) -> Slip:
    """Correct a slip (a typing error of the secretary, a misread slip): scored again;
    the reason is required and kept in the history with the slip before and after."""
    if not reason.strip():
        raise DuplicateEveningError(_("Give a reason for the correction."), code="no_reason")
    text = _clean(text)
    duplicate_check_open(slip.turn.evening.competition_id)
    with transaction.atomic():
        turn = _turn_held(slip.turn)
        scored = _scored(turn, text, claimed)
        before = {"slip": slip.text, "claimed": slip.claimed, "score": slip.score}
        changed = Slip.objects.filter(pk=slip.pk).update(text=text, claimed=claimed, **scored)
        if not changed:
            raise DuplicateEveningError(_("This slip no longer exists."), code="no_slip")
        slip.refresh_from_db()
        after = {"slip": slip.text, "claimed": slip.claimed, "score": slip.score}
        if before == after:
            return slip
        _turn_history(
            turn, by=by, action=SLIP_CORRECT, obj=slip, before=before, after=after, reason=reason
        )
        duplicate_touched(competition_id=turn.evening.competition_id)
        announce_when_complete(turn.evening)
    return slip


# -------------------------------------------------------------------- the jury room


def jury_slip_type(
    *,
    turn: Turn,
    player_id: int,
    text: str,
    by: Any,
    claimed: int | None = None,
    position: DuplicateGame | None = None,
    participation: Participant | None = None,
) -> Slip | SlipConflict:
    """A paper slip typed in the jury room (never late: it was handed in on paper when the
    time was called). The first typing is the slip; a second typing of the same slip (the
    same play and claimed score) is refused and changes nothing; one that differs is kept
    beside the slip as a `SlipConflict` for the spelleider to resolve, and the slip counts
    as it is until then. `position` and `participation`: as `slip_submit` takes them."""
    try:
        return slip_submit(
            turn=turn,
            player_id=player_id,
            text=text,
            claimed=claimed,
            by=by,
            position=position,
            participation=participation,
            on_paper=True,
        )
    except DuplicateEveningError as error:
        if error.code != "slip_twice":
            raise
    return _conflict_record(
        turn=turn, player_id=player_id, text=_clean(text), claimed=claimed, by=by
    )


def _conflict_record(
    *, turn: Turn, player_id: int, text: str, claimed: int | None, by: Any
) -> SlipConflict:
    """The second typing of the player's slip for `turn`, kept when it differs from the
    slip and from every conflict still waiting; refused otherwise."""
    with transaction.atomic():
        duplicate_check_open(turn.evening.competition_id)
        slip = row_lock(Slip.objects).filter(turn=turn, player_id=player_id).first()
        if slip is None:
            raise DuplicateEveningError(_("This slip no longer exists."), code="no_slip")
        if (slip.text, slip.claimed) == (text, claimed):
            raise DuplicateEveningError(
                _("This slip is in already, typed the same way: nothing changed."),
                code="slip_typed_twice",
            )
        if slip.conflicts.filter(resolved_at__isnull=True, text=text, claimed=claimed).exists():
            raise DuplicateEveningError(
                _("This typing of the slip waits for the spelleider already: nothing changed."),
                code="conflict_twice",
            )
        conflict = SlipConflict.objects.create(slip=slip, text=text, claimed=claimed, typed_by=by)
        _turn_history(
            turn,
            by=by,
            action=SLIP_CONFLICT,
            obj=slip,
            before={"turn": turn.number, "slip": slip.text, "claimed": slip.claimed},
            after={"turn": turn.number, "typed_again": text, "claimed": claimed},
        )
        duplicate_touched(competition_id=turn.evening.competition_id)
    return conflict


def slip_conflict_resolve(
    *, conflict: SlipConflict, take: bool, reason: str, by: Any
) -> SlipConflict:
    """The spelleider resolves a conflict: takes the second typing (the slip corrected to
    it and scored again, `slip_correct`) or keeps the slip as it is. The reason is
    required and kept in the history; a conflict resolved already changes nothing."""
    if not reason.strip():
        raise DuplicateEveningError(_("Give a reason for the correction."), code="no_reason")
    with transaction.atomic():
        current = (
            row_lock(SlipConflict.objects.select_related("slip__turn__evening__competition"))
            .filter(pk=conflict.pk)
            .first()
        )
        if current is None:
            raise DuplicateEveningError(_("This conflict no longer exists."), code="no_conflict")
        if not current.is_open:
            return current
        slip = current.slip
        before = {"slip": slip.text, "claimed": slip.claimed}
        if take:
            slip = slip_correct(
                slip=slip, text=current.text, claimed=current.claimed, reason=reason, by=by
            )
        current.resolved_at, current.taken = timezone.now(), take
        current.save(update_fields=["resolved_at", "taken"])
        _turn_history(
            slip.turn,
            by=by,
            action=SLIP_CONFLICT_RESOLVE,
            obj=slip,
            before=before,
            after={"typed_again": current.text, "claimed": current.claimed, "taken": take},
            reason=reason,
        )
        duplicate_touched(competition_id=slip.turn.evening.competition_id)
    return current


def participant_table_set(*, participant: Participant, table: int | None, by: Any) -> Participant:
    """The table the player sits at (1–999; None: none), by which the jury room counts the
    missing slips; the same table again changes nothing."""
    if table is not None and not 1 <= table <= 999:
        raise DuplicateEveningError(_("A table is a number 1–999."), code="bad_table")
    return _participant_set(participant, "table", table, action=PARTICIPANT_TABLE, by=by)


# -------------------------------------------------------------------- results complete


def announce_when_complete(evening: Evening) -> None:
    """After the commit, when the evening's results are complete: `game_complete` tells
    the apps above (ranking/ publishes a ranked event's game), and again after every
    later change of them. Read anew after the commit, so two writes in one transaction
    or a rollback announce nothing wrong."""
    evening_id = evening.pk

    def announce() -> None:
        # The read is the selectors' (which build on this module): imported when it runs.
        from duplicate.selectors import evening_complete

        current = Evening.objects.select_related("competition__club").get(pk=evening_id)
        if evening_complete(current):
            game_complete.send(sender=Evening, evening=current)

    transaction.on_commit(announce)


__all__ = [
    "DuplicateEveningError",
    "duplicate_archive",
    "duplicate_create",
    "duplicate_update",
    "evening_create",
    "jury_slip_type",
    "master_game",
    "participant_add",
    "participant_reinstate",
    "participant_table_set",
    "participant_withdraw",
    "slip_accept_late",
    "slip_conflict_resolve",
    "slip_correct",
    "slip_submit",
    "turn_add_time",
    "turn_choose_top",
    "turn_draw",
    "turn_redo",
]
