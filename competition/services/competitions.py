"""Creating a competition, changing its settings, and archiving it; each kept in the history.

A settings change records only the fields that changed, as they were and as they became.
An archived competition stays readable and takes no more changes, here or anywhere
(`competition_check_open`, `competition.versioning.competition_touched`).
"""

from collections.abc import Mapping
from datetime import date, time
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock, row_lock
from clubs.models import Club
from clubs.slugs import competition_slug_taken
from competition.models import Competition
from competition.services import CompetitionArchived, CompetitionError
from events.models import Event

#: The settings a secretary chooses; the history records each of them that changes.
SETTINGS_FIELDS = (
    "name",
    "slug",
    "kind",
    "rules",
    "custom_rules",
    "start_date",
    "number_of_rounds",
    "pairing_system",
    "starters",
    "table_size",
    "bye_match_points",
    "bye_board_points",
    "bye_board_points_fixed",
    "forfeit_win_match_points",
    "forfeit_win_board_points",
    "table_scoring",
    "ranking",
    "min_games",
    "only_confirmed_results",
    "rated",
    "clock_minutes",
    "tiebreaks",
    "evening_dates",
    "evening_start",
    "evening_end",
)


class SlugTaken(CompetitionError):
    """The club already has a competition with this short name."""

    def __init__(self) -> None:
        super().__init__(_("The club already has a competition with this short name."))


def competition_settings(competition: Competition) -> dict[str, Any]:
    """The settings as JSON values, as the history stores them."""
    values = {name: getattr(competition, name) for name in SETTINGS_FIELDS}
    return {
        name: value.isoformat() if isinstance(value, date | time) else value
        for name, value in values.items()
    }


@transaction.atomic
def competition_create(
    *, club: Club, settings: Mapping[str, Any], by: Any = None, event: Event | None = None
) -> Competition:
    """A new competition of `club`; with `event`, a division of that event (which `club`
    organises: a division lives at its organiser's addresses)."""
    if event is not None and event.organiser_id != club.pk:
        raise ValueError("A division belongs to its event's organiser.")
    competition = Competition(club=club, event=event)
    _apply(competition, settings)
    _save(competition)
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.COMPETITION_CREATE,
        object_type="competition",
        object_id=competition.pk,
        label=competition.name,
        after=competition_settings(competition),
        competition_id=competition.pk,
    )
    return competition


@transaction.atomic
def competition_update(
    *, competition: Competition, settings: Mapping[str, Any], by: Any = None, reason: str = ""
) -> Competition:
    """Change the settings given in `settings` (others stay); refused when archived.

    The settings before are read from the database, not from `competition`: a form that
    validated it has already changed its attributes.
    """
    current = row_lock(Competition.objects).get(pk=competition.pk)
    if current.is_archived:
        raise CompetitionArchived
    before = competition_settings(current)
    _apply(current, settings)
    after = competition_settings(current)
    changed = [name for name in SETTINGS_FIELDS if before[name] != after[name]]
    if changed:
        # Saved as shown changes nothing, not even the last change every page is keyed by.
        _save(current)
        history_record(
            club_id=current.club_id,
            by=by,
            action=HistoryAction.COMPETITION_SETTINGS,
            object_type="competition",
            object_id=current.pk,
            label=current.name,
            before={name: before[name] for name in changed},
            after={name: after[name] for name in changed},
            reason=reason,
            competition_id=current.pk,
        )
    return current


@transaction.atomic
def competition_archive(
    *, competition: Competition, by: Any = None, reason: str = ""
) -> Competition:
    """Archive: the pages stay, every later change is refused. Archiving twice is once."""
    current = row_lock(Competition.objects).get(pk=competition.pk)
    if current.is_archived:
        return current
    current.archived_at = timezone.now()
    current.save(update_fields=["archived_at", "changed_at"])
    history_record(
        club_id=current.club_id,
        by=by,
        action=HistoryAction.COMPETITION_ARCHIVE,
        object_type="competition",
        object_id=current.pk,
        label=current.name,
        before={"archived": False},
        after={"archived": True},
        reason=reason,
        competition_id=current.pk,
    )
    return current


class CompetitionHasRounds(CompetitionError):
    def __init__(self) -> None:
        super().__init__(_("The competition has rounds: archive it instead of deleting it."))


@transaction.atomic
def competition_delete(*, competition: Competition, by: Any = None, reason: str = "") -> None:
    """Delete a competition made by mistake, before its first round; its settings are kept
    in the club's history. One with rounds is archived instead (`Round.competition` is
    PROTECT as well)."""
    current = row_lock(Competition.objects).get(pk=competition.pk)
    if current.is_archived:
        raise CompetitionArchived
    if current.rounds.exists():
        raise CompetitionHasRounds
    history_record(
        club_id=current.club_id,
        by=by,
        action=HistoryAction.COMPETITION_DELETE,
        object_type="competition",
        object_id=current.pk,
        label=current.name,
        before=competition_settings(current),
        reason=reason,
        competition_id=current.pk,
    )
    current.delete()


def _apply(competition: Competition, settings: Mapping[str, Any]) -> None:
    unknown = set(settings) - set(SETTINGS_FIELDS)
    if unknown:
        raise ValueError(f"Not a competition setting: {', '.join(sorted(unknown))}")
    for name, value in settings.items():
        setattr(competition, name, value)
    if isinstance(competition.name, str):
        competition.name = " ".join(competition.name.split())


def _save(competition: Competition) -> None:
    """Check and save; a short name taken (also by a click at the same moment, or by a
    duplicate competition of the club: the club's lock holds them both) is refused."""
    club_lock(competition.club_id)
    if competition_slug_taken(competition.club_id, competition.slug, own=competition):
        raise SlugTaken
    try:
        competition.full_clean(validate_constraints=False)
    except ValidationError as error:
        raise CompetitionError(" ".join(error.messages)) from None
    try:
        with transaction.atomic():
            competition.save()
    except IntegrityError:
        raise SlugTaken from None
