"""Writes of the ranking: a federation's seasons, and the ranked games of its events.

An evening of a duplicate division of an event with a season is published as a ranked game
when duplicate says its results are complete (`duplicate.signals.game_complete`), and again
whenever they change; a season whose GV changes has every game's percentages computed
again from the points kept. Each write runs in one transaction under the federation's lock
and leaves a history entry in the federation's history.

Django: services.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock
from clubs.models import Club, Player
from clubs.permissions import can_manage_club
from duplicate.models import Evening
from duplicate.selectors import evening_results
from events.models import Entry, Season
from ranking.core import game_percentages, winner_and_median
from ranking.models import RankedEvent, RankedGame, RankedResult

#: A season's settings, as the officials' form edits them and the history keeps them.
SEASON_FIELDS = (
    "name",
    "slug",
    "start",
    "end",
    "gap_value",
    "min_games",
    "min_interclub_share",
    "counted_results",
    "result_months",
    "club_results",
)


class RankingError(ValueError):
    """A refused ranking write: `message` for the reader, `code` to tell them apart."""

    def __init__(self, message: Any, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


NOT_AN_OFFICIAL = _("Only an official of the federation may do this.")
NOT_A_FEDERATION = _("Only a federation keeps seasons of a ranking.")
SLUG_TAKEN = _("The federation has a season with this short name already.")


def _check_official(federation: Club, by: Any) -> None:
    if not federation.is_federation:
        raise RankingError(NOT_A_FEDERATION, code="not_a_federation")
    if not can_manage_club(by, federation):
        raise RankingError(NOT_AN_OFFICIAL, code="not_an_official")


def _snapshot(season: Season) -> dict[str, Any]:
    """The settings as the history keeps them: JSON values (dates ISO, GV as text)."""
    values: dict[str, Any] = {}
    for name in SEASON_FIELDS:
        value = getattr(season, name)
        if isinstance(value, date):
            value = value.isoformat()
        elif isinstance(value, Decimal):
            value = f"{value.normalize():f}"  # "20", not "2E+1"
        values[name] = value
    return values


def _saved(season: Season) -> Season:
    """Checked whole (the constraints too: a short name once per federation), then saved;
    a short name taken meanwhile is refused as the check would have."""
    taken = Season.objects.filter(federation_id=season.federation_id, slug=season.slug)
    if taken.exclude(pk=season.pk).exists():
        raise ValidationError({"slug": SLUG_TAKEN})
    season.full_clean()
    try:
        with transaction.atomic():
            season.save()
    except IntegrityError:
        raise ValidationError({"slug": SLUG_TAKEN}) from None
    return season


def season_create(*, federation: Club, fields: Mapping[str, Any], by: Any) -> Season:
    """A new season of the federation's ranking. Raises `RankingError` (who) or
    `ValidationError` (what), and then saves nothing."""
    _check_official(federation, by)
    with transaction.atomic():
        club_lock(federation.pk)
        season = _saved(Season(federation=federation, **dict(fields)))
        history_record(
            club_id=federation.pk,
            by=by,
            action=HistoryAction.SEASON_CREATE,
            object_type="season",
            object_id=season.pk,
            label=season.name,
            after=_snapshot(season),
        )
    return season


def season_update(
    *, season: Season, fields: Mapping[str, Any], by: Any, reason: str = ""
) -> Season:
    """The season's settings changed; with another GV every ranked game's percentages are
    computed again (`season_recompute`), in the same transaction."""
    _check_official(season.federation, by)
    with transaction.atomic():
        club_lock(season.federation_id)
        stored = Season.objects.get(pk=season.pk)
        before = _snapshot(stored)
        for name, value in fields.items():
            setattr(stored, name, value)
        _saved(stored)
        after = _snapshot(stored)
        changed = [name for name in SEASON_FIELDS if before[name] != after[name]]
        if changed:
            history_record(
                club_id=stored.federation_id,
                by=by,
                action=HistoryAction.SEASON_SETTINGS,
                object_type="season",
                object_id=stored.pk,
                label=stored.name,
                before={name: before[name] for name in changed},
                after={name: after[name] for name in changed},
                reason=reason,
            )
        if "gap_value" in changed:
            season_recompute(stored)
    return stored


def season_recompute(season: Season) -> int:
    """Every ranked game of the season scored again with its GV, from the points kept
    (played here or imported alike); call it inside the write that changed the GV. Returns
    the number of results whose percentage changed."""
    changed: list[RankedResult] = []
    by_game: dict[int, list[RankedResult]] = {}
    for result in RankedResult.objects.filter(game__event__season=season).order_by("pk"):
        by_game.setdefault(result.game_id, []).append(result)
    for results in by_game.values():
        percentages = game_percentages([r.points for r in results], season.gap_value)
        for result, percentage in zip(results, percentages, strict=True):
            if result.percentage != float(percentage):
                result.percentage = float(percentage)
                changed.append(result)
    RankedResult.objects.bulk_update(changed, ["percentage"], batch_size=500)
    return len(changed)


def _game_summary(game: RankedGame, players: int) -> dict[str, Any]:
    return {
        "players": players,
        "winner_points": game.winner_points,
        "median_points": game.median_points,
    }


def evening_publish(*, evening: Evening) -> RankedGame | None:
    """The evening's results as a ranked game of its event's season, replacing what was
    published before (corrections); None when the evening is not of a ranked event, has no
    results yet, or its event came in by a results file (that file's results stand).
    Published by the system, so the history entry has no author."""
    competition = evening.competition
    event = competition.event
    if event is None or event.season_id is None:
        return None
    season = Season.objects.select_related("federation").get(pk=event.season_id)
    rows = [row for row in evening_results(evening)]
    if not rows:
        return None
    with transaction.atomic():
        club_lock(season.federation_id)
        ranked_event = RankedEvent.objects.filter(uid=event.uid).first()
        if ranked_event is not None and ranked_event.source != RankedEvent.Source.LOCAL:
            return None
        if ranked_event is None:
            ranked_event = RankedEvent(uid=event.uid, event=event)
        ranked_event.season = season
        ranked_event.name = event.name
        ranked_event.organiser = event.organiser.name
        ranked_event.kind = event.kind
        ranked_event.date = event.date or evening.date or timezone.localdate()
        ranked_event.save()

        game = RankedGame.objects.filter(evening=evening).first()
        before = None
        if game is None:
            last = ranked_event.games.aggregate(last=Max("number"))["last"] or 0
            game = RankedGame(event=ranked_event, evening=evening, number=last + 1)
        else:
            before = _game_summary(game, game.results.count())
            game.results.all().delete()
        points = [row.total for row in rows]
        percentages = game_percentages(points, season.gap_value)
        game.date = evening.date or ranked_event.date
        winner, middle = winner_and_median(points)
        game.winner_points = winner
        game.median_points = float(middle)
        game.save()

        ids = [row.player_id for row in rows]
        players = Player.objects.in_bulk(ids)
        entries = {
            entry.player_id: entry
            for entry in Entry.objects.filter(event=event, player_id__in=ids).select_related("club")
        }
        RankedResult.objects.bulk_create(
            RankedResult(
                game=game,
                player=players[row.player_id],
                federation_number=players[row.player_id].federation_number or "",
                name=players[row.player_id].name,
                club=entry.club if (entry := entries.get(row.player_id)) else None,
                club_name=entry.club.name if entry and entry.club else "",
                points=row.total,
                percentage=float(percentage),
            )
            for row, percentage in zip(rows, percentages, strict=True)
        )
        history_record(
            club_id=season.federation_id,
            by=None,
            action=HistoryAction.RANKING_PUBLISH,
            object_type="ranked_game",
            object_id=game.pk,
            label=f"{ranked_event.name} – {game.number}",
            before=before,
            after=_game_summary(game, len(rows)),
        )
    return game


def on_game_complete(sender: Any, evening: Evening, **kwargs: Any) -> None:
    """`duplicate.signals.game_complete`'s receiver (connected in `RankingConfig.ready`)."""
    evening_publish(evening=evening)
