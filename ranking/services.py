"""Writes of the ranking: the ranked games of a federation's events.

An evening of a duplicate division of an event with a season is published as a ranked game
when duplicate says its results are complete (`duplicate.signals.game_complete`), and again
whenever they change; a season whose GV changes (`events.services.season_update`, which
sends `events.signals.season_changed`) has every game's percentages computed again from
the points kept, in the transaction of the change; an event whose season, date, kind or
name changes (`events.services.event_update`, which sends `events.signals.event_changed`)
has its games published again, or taken out of the ranking without a season, in the
transaction of the change too. Each publication runs in one
transaction under the federation's lock and leaves a history entry in the federation's
history.

Django: services.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock
from clubs.models import Player
from duplicate.models import Evening
from duplicate.selectors import evening_complete, evening_results
from events.models import Entry, Event, Season
from ranking.core import stored_percentages, winner_and_median
from ranking.models import RankedEvent, RankedGame, RankedResult


def season_recompute(season: Season) -> int:
    """Every ranked game of the season scored again with its GV, from the points kept
    (played here or imported alike); call it inside the write that changed the GV. Returns
    the number of results whose percentage changed."""
    changed: list[RankedResult] = []
    by_game: dict[int, list[RankedResult]] = {}
    for result in RankedResult.objects.filter(game__event__season=season).order_by("pk"):
        by_game.setdefault(result.game_id, []).append(result)
    for results in by_game.values():
        percentages = stored_percentages([r.points for r in results], season.gap_value)
        for result, percentage in zip(results, percentages, strict=True):
            if result.percentage != percentage:
                result.percentage = percentage
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
        percentages = stored_percentages(points, season.gap_value)
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
                club_name=entry.club_shown if entry else "",
                points=row.total,
                percentage=percentage,
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


#: The settings of an event (`events.services.event_settings`' names) that its ranked
#: games copy or that decide whether and where it is ranked.
RANKED_SETTINGS = frozenset({"season", "date", "event_kind", "name"})


def event_ranked_again(event: Event) -> int:
    """After a change of the event's settings, inside its transaction (which holds the
    organiser's lock, the federation's for a ranked event): every complete evening of its
    duplicate divisions published again under the event's season, date, kind and name as
    they are now (with another season, its GV), or the ranked event taken out of the
    ranking when the event has no season any more. An event imported from a results file
    stands as the file had it. Returns the number of games published."""
    ranked = RankedEvent.objects.filter(uid=event.uid).select_related("season").first()
    if ranked is not None and ranked.source != RankedEvent.Source.LOCAL:
        return 0
    if event.season_id is None:
        if ranked is not None:
            _ranked_event_withdraw(ranked)
        return 0
    evenings = Evening.objects.filter(competition__event=event).select_related(
        "competition__event__organiser", "competition__club"
    )
    # Published before (complete then, and every correction since published too), or
    # complete now: an event given a season has its evenings played so far ranked.
    before = set(
        RankedGame.objects.filter(event=ranked).values_list("evening_id", flat=True)
        if ranked is not None
        else []
    )
    published = 0
    for evening in evenings.order_by("competition_id", "number"):
        if evening.pk in before or evening_complete(evening):
            published += evening_publish(evening=evening) is not None
    return published


def _ranked_event_withdraw(ranked: RankedEvent) -> None:
    """The event's ranked games deleted (the results stay the duplicate's, which published
    them), with an entry in the federation's history that says so."""
    games = ranked.games.count()
    history_record(
        club_id=ranked.season.federation_id,
        by=None,
        action=HistoryAction.RANKING_WITHDRAW,
        object_type="ranked_event",
        object_id=ranked.pk,
        label=ranked.name,
        before={"season": ranked.season.name, "games": games},
    )
    ranked.delete()


def on_event_changed(sender: Any, event: Event, changed: list[str], **kwargs: Any) -> None:
    """`events.signals.event_changed`'s receiver (connected in `RankingConfig.ready`)."""
    if RANKED_SETTINGS.intersection(changed):
        event_ranked_again(event)


def on_season_changed(sender: Any, season: Season, changed: list[str], **kwargs: Any) -> None:
    """`events.signals.season_changed`'s receiver (connected in `RankingConfig.ready`): a
    season with another GV has its ranked games scored again, in the same transaction."""
    if "gap_value" in changed:
        season_recompute(season)


def on_game_complete(sender: Any, evening: Evening, **kwargs: Any) -> None:
    """`duplicate.signals.game_complete`'s receiver (connected in `RankingConfig.ready`)."""
    evening_publish(evening=evening)
