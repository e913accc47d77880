"""A player's history: every published game in every competition the person played, at
this club and at every other club they played for (results follow the person, not the
club: docs/persons.md), the score against each opponent (head to head), and the numbers
behind the charts. A pending club's competitions are left out: its pages are its
secretaries' alone until the operator approves it.

Reads in a fixed number of queries, however many competitions and rounds: the
competitions the player entered, their entrants, their published results, and the
player's own games. Drafts never appear, not even to a secretary: these are the public
results, counted as the standings count them (`Game.objects.counting`).

Django: ORM reads and the cache; the charts themselves are `competition.core.charts`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Count, Q
from django.db.models.functions import Coalesce, TruncDate
from django.http import Http404

from clubs.models import Club, ClubStatus, Player
from competition import selectors
from competition.core import standings
from competition.core.charts import Point
from competition.models import Competition, Entrant
from games.models import Game


@dataclass(frozen=True)
class TableOpponent:
    """One of the others at the player's table of 3 or 4: their score, and the player's
    result against them (None while not played)."""

    player: Player
    score: int | None
    result: str | None


@dataclass(frozen=True)
class HistoryLine:
    """One game of the player, with its result from the player's side."""

    game: Game
    opponent: Player | None  # None for a bye, and at a table of 3 or 4
    result: standings.RoundResult | None  # None while not played yet
    table: tuple[TableOpponent, ...] = ()  # at a table of 3 or 4: the others in seat order

    @property
    def table_size(self) -> int:
        return len(self.table) + 1 if self.table else 0


@dataclass
class Season:
    """One competition of the player: the games, and what the charts draw."""

    competition: Competition
    lines: list[HistoryLine] = field(default_factory=list)
    ranks: list[Point] = field(default_factory=list)  # rank after each round
    field_size: int = 0  # players ranked with the player (the group, if any)
    match_points: list[Point] = field(default_factory=list)  # cumulated after each round
    board_points: list[Point] = field(default_factory=list)  # scored in each played game


@dataclass
class HeadToHead:
    """The player's games against one opponent, over all competitions of the club."""

    opponent: Player
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    board_points: int = 0
    opponent_board_points: int = 0

    @property
    def spread(self) -> int:
        return self.board_points - self.opponent_board_points


@dataclass(frozen=True)
class PlayerHistory:
    club: Club
    player: Player
    seasons: list[Season]
    head_to_head: list[HeadToHead]


def club_player_get(club: Club, player_id: int) -> Player:
    """A member of the club, an entrant of one of its competitions, or one who played in a
    competition elsewhere with such a player (a history links them); else a 404."""
    ours = Q(memberships__club=club) | Q(entries__competition__club=club)
    player = (
        Player.objects.filter(
            ours | Q(entries__competition__entrants__player__in=Player.objects.filter(ours)),
            pk=player_id,
        )
        .distinct()
        .first()
    )
    if player is None:
        raise Http404
    return player


def player_history(club: Club, player: Player) -> PlayerHistory:
    competitions = list(
        Competition.objects.filter(entrants__player=player)
        .exclude(club__status=ClubStatus.PENDING)
        .select_related("club")
        # Seasons in order; one without a start date counts from the day it was created
        # (the same order on SQLite and PostgreSQL, which sort NULL differently).
        .order_by(Coalesce("start_date", TruncDate("created_at")), "created_at", "pk")
    )
    entrants = _entrant_records(competitions)
    records = _game_records(competitions)
    games = (
        Game.objects.published()
        .filter(round__competition__in=competitions, seats__player=player)
        .select_related("round__competition__club")
        .with_seats()
        .annotate(move_count=Count("moves"))
        .order_by("round__number")
    )
    seasons = {competition.pk: Season(competition=competition) for competition in competitions}
    results = {
        competition.pk: {
            line.round_number: line
            for line in standings.running_totals(
                player.pk, records[competition.pk], selectors.standings_settings(competition)
            )
        }
        for competition in competitions
    }
    head_to_head: dict[int, HeadToHead] = {}
    for game in games:
        competition_id = game.round.competition_id
        others = [other for other in game.players if other.pk != player.pk]
        opponent = others[0] if len(others) == 1 else None
        result = results[competition_id].get(game.round.number)
        table = _table_opponents(others, result) if len(others) > 1 else ()
        seasons[competition_id].lines.append(HistoryLine(game, opponent, result, table))
        if opponent is not None and result is not None and result.result in DECIDED:
            _count(
                head_to_head.setdefault(opponent.pk, HeadToHead(opponent)),
                result.result,
                result.score,
                result.opponent_score,
            )
        # At a table every other player is a meeting of its own, as in the crosstable.
        for other in table:
            if result is not None and other.result in DECIDED:
                meeting = head_to_head.setdefault(other.player.pk, HeadToHead(other.player))
                _count(meeting, other.result, result.score, other.score)
    for competition_id, season in seasons.items():
        _chart_numbers(season, player.pk, entrants[competition_id], records[competition_id])
    return PlayerHistory(
        club=club,
        player=player,
        seasons=list(reversed(list(seasons.values()))),  # the current season first
        head_to_head=sorted(
            head_to_head.values(), key=lambda meeting: (-meeting.games, meeting.opponent.name)
        ),
    )


def _entrant_records(competitions: list[Competition]) -> dict[int, list[standings.EntrantRecord]]:
    """Each competition's entrants, as the standings read them (one query for all)."""
    entrants: dict[int, list[standings.EntrantRecord]] = defaultdict(list)
    for competition_id, player_id, name, group in Entrant.objects.filter(
        competition__in=competitions
    ).values_list("competition_id", "player_id", "player__name", "group__name"):
        entrants[competition_id].append(
            standings.EntrantRecord(player_id=player_id, name=name, group=group or "")
        )
    return entrants


def _game_records(
    competitions: list[Competition],
) -> dict[int, list[standings.GameRecord | standings.TableRecord]]:
    """Each competition's results that count: the records `selectors.game_records` reads
    for one competition, by the same rule (`Game.objects.counting`)."""
    return selectors.records_of(Game.objects.counting().filter(round__competition__in=competitions))


#: The results head to head counts: a game decided on the board or by forfeit. An annulled
#: game has no winner (and a bye no opponent).
DECIDED = ("win", "draw", "loss")


def _table_opponents(
    others: list[Player], result: standings.RoundResult | None
) -> tuple[TableOpponent, ...]:
    """The others at a table of 3 or 4 with their scores and the player's result against
    each (from the standings' own line: the same meetings the standings count)."""
    if result is None or not result.table_opponents:
        return tuple(TableOpponent(other, None, None) for other in others)
    by_id = {other.pk: other for other in others}
    return tuple(
        TableOpponent(by_id[player_id], score, outcome)
        for player_id, score, outcome in zip(
            result.table_opponents,
            result.table_opponent_scores,
            result.table_results,
            strict=True,
        )
        if player_id in by_id
    )


def _count(meeting: HeadToHead, result: str, score: int | None, opponent_score: int | None) -> None:
    """Add one decided game (or meeting at a table) to the player's games against this
    opponent."""
    meeting.games += 1
    meeting.wins += result == "win"
    meeting.draws += result == "draw"
    meeting.losses += result == "loss"
    if score is not None and opponent_score is not None:
        meeting.board_points += score
        meeting.opponent_board_points += opponent_score


def _chart_numbers(
    season: Season,
    player_id: int,
    entrants: list[standings.EntrantRecord],
    records: list[standings.GameRecord | standings.TableRecord],
) -> None:
    """Rank after each round (within the player's group), match points cumulated, board
    points per game: computed from the same records the standings use."""
    group = next((entrant.group for entrant in entrants if entrant.player_id == player_id), "")
    season.field_size = sum(entrant.group == group for entrant in entrants)
    season.ranks = [
        Point(str(round_number), rank)
        for round_number, rank in _rank_history(season.competition, entrants, records).get(
            player_id, []
        )
    ]
    for line in season.lines:
        if line.result is None:
            continue
        label = str(line.result.round_number)
        season.match_points.append(Point(label, line.result.cumulative_match_points))
        if line.result.score is not None:
            season.board_points.append(Point(label, line.result.score))


def _rank_history(
    competition: Competition,
    entrants: list[standings.EntrantRecord],
    records: list[standings.GameRecord | standings.TableRecord],
) -> dict[int, list[tuple[int, int]]]:
    """Every entrant's rank after every round, kept until the competition changes: one
    standings computation per round (300 entrants and 30 rounds: about 3 s on a busy
    machine, benchmarks/club_evening_pages.py), shared by all its players' pages."""
    key = f"rank-history:{competition.pk}:{competition.changed_at.isoformat()}"
    cached = cache.get(key)
    if cached is None:
        cached = rank_history(entrants, records, selectors.standings_settings(competition))
        cache.set(key, cached, RANK_HISTORY_SECONDS)
    return cached


#: A competition that does not change for a day is recomputed once a day at most.
RANK_HISTORY_SECONDS = 24 * 3600


def rank_history(
    entrants: list[standings.EntrantRecord],
    records: list[standings.GameRecord | standings.TableRecord],
    settings: standings.StandingsSettings,
) -> dict[int, list[tuple[int, int]]]:
    """{player: [(round, rank within the group after that round), ...]} for the rounds
    with results, from the standings' own pure function."""
    history: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for round_number in sorted({record.round_number for record in records}):
        grouped = standings.compute_by_group(entrants, records, settings, after_round=round_number)
        for rows in grouped.values():
            for row in rows:
                history[row.player_id].append((round_number, row.rank))
    return dict(history)
