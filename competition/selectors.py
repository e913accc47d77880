"""Reads for the competition pages: the queries each page needs, and the adapter that turns
ORM rows into the plain records of `competition.core.standings`.

Every function runs a fixed number of queries, whatever the number of players or rounds.

Django: ORM reads; the algorithms are in `competition.core`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Literal, TypedDict, cast

from django.db.models import Count, Max, Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from clubs.models import HistoryEntry, Player
from competition.core import standings
from competition.models import Competition, Entrant, Round, round_visible_to
from games.models import Confirmation, Game, Seat

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations  # django-stubs, a development dependency


def competition_get(*, club_slug: str, competition_slug: str) -> Competition:
    return get_object_or_404(
        Competition.objects.select_related("club"), club__slug=club_slug, slug=competition_slug
    )


def standings_settings(competition: Competition) -> standings.StandingsSettings:
    bye_board_points: int | Literal["average"] = (
        "average"
        if competition.bye_board_points == Competition.ByeBoardPoints.AVERAGE
        else competition.bye_board_points_fixed
    )
    return standings.StandingsSettings(
        bye_match_points=competition.bye_match_points,
        bye_board_points=bye_board_points,
        forfeit_win_match_points=competition.forfeit_win_match_points,
        forfeit_win_board_points=competition.forfeit_win_board_points,
        tiebreaks=tuple(competition.tiebreaks or ()),
        ranking=cast(Literal["totals", "average"], competition.ranking),
        min_games=competition.min_games,
        table_scoring=cast(standings.TableScoring, competition.table_scoring),
    )


def entrant_records(competition: Competition) -> list[standings.EntrantRecord]:
    rows = Entrant.objects.filter(competition=competition).values_list(
        "player_id", "player__name", "group__name"
    )
    return [
        standings.EntrantRecord(player_id=player_id, name=name, group=group or "")
        for player_id, name, group in rows
    ]


def _winner(outcome: str, seats: list[tuple]) -> standings.Winner:
    """The pair's winner as the standings record names it, from the seats' places."""
    return standings.pair_winner(outcome, tuple(seat[3] for seat in seats))


def _record(
    round_number: int, outcome: str, seats: list[tuple]
) -> standings.GameRecord | standings.TableRecord:
    """A game's seats (player_id, score, position, place, flag_fell, forfeited) as the
    standings read them: a pair or a bye as a `GameRecord`, a table of 3 or 4 as a
    `TableRecord`."""
    if len(seats) > 2:
        return standings.TableRecord(
            round_number,
            tuple(
                standings.SeatRecord(player, score, flag_fell, forfeited)
                for player, score, _position, _place, flag_fell, forfeited in seats
            ),
            cast(standings.Outcome, outcome),
        )
    first = seats[0]
    second = seats[1] if len(seats) == 2 else (None, None, 1, None)
    return standings.GameRecord(
        round_number,
        first[0],
        second[0],
        first[1],
        second[1],
        cast(standings.Outcome, outcome),
        _winner(outcome, seats),
    )


def game_records(
    competition: Competition,
) -> list[standings.GameRecord | standings.TableRecord]:
    """Every game that counts for the competition, as standings records (two queries).

    Which games count is one rule, `Game.objects.counting_for` (`games.models.COUNTS`): a
    draft round's games do not, not even for its secretaries (the standings are the same
    for everyone); a result a player entered and the opponent has not confirmed does,
    unless the competition counts only confirmed results.
    """
    return _game_records(competition)[0]


def _game_records(
    competition: Competition,
) -> tuple[list[standings.GameRecord | standings.TableRecord], int]:
    """The records that count, and how many results await confirmation (counted or not)."""
    games = Game.objects.published().with_result().filter(round__competition=competition)
    provisional = games.exclude(confirmation=Confirmation.CONFIRMED).count()
    records = records_of(Game.objects.counting_for(competition))
    return records.get(competition.pk, []), provisional


def records_of(
    games: QuerySet[Game],
) -> dict[int, list[standings.GameRecord | standings.TableRecord]]:
    """`games` as standings records, by competition (two queries, whatever their number):
    the one way a game's seats become what the standings read."""
    rows = list(
        games.order_by("round__number", "pk").values_list(
            "pk", "round__competition_id", "round__number", "outcome"
        )
    )
    seats: dict[int, list[tuple]] = defaultdict(list)
    for game_id, *seat in (
        Seat.objects.filter(game__in=games.values("pk"))
        .order_by("game_id", "position")
        .values_list("game_id", "player_id", "score", "position", "place", "flag_fell", "forfeited")
    ):
        seats[game_id].append(tuple(seat))
    records: dict[int, list[standings.GameRecord | standings.TableRecord]] = defaultdict(list)
    for game_id, competition_id, round_number, outcome in rows:
        records[competition_id].append(_record(round_number, outcome, seats[game_id]))
    return records


@dataclass(frozen=True)
class StandingsView:
    """What the standings page, JSON and CSV show: the rows per group after a round."""

    groups: dict[str, list[standings.StandingRow]]
    after_round: int | None
    last_round: int
    #: Results entered by a player and not (yet) confirmed: counted and marked as
    #: provisional, or left out when the competition counts only confirmed results.
    provisional_results: int = 0
    #: The records the rows were computed from (the crosstable reads them too).
    records: Sequence[standings.GameRecord | standings.TableRecord] = ()
    #: The tiebreaks the rows are ranked by, in order (the columns of the CSV and command).
    tiebreaks: tuple[str, ...] = ()


def standings_get(competition: Competition, *, after_round: int | None = None) -> StandingsView:
    entrants = entrant_records(competition)
    games, provisional = _game_records(competition)
    last_round = max((game.round_number for game in games), default=0)
    if after_round is not None and after_round >= last_round:
        after_round = None
    settings = standings_settings(competition)
    if any(entrant.group for entrant in entrants):
        groups = standings.compute_by_group(entrants, games, settings, after_round=after_round)
    else:
        groups = {"": standings.compute(entrants, games, settings, after_round=after_round)}
    return StandingsView(
        groups=groups,
        after_round=after_round,
        last_round=last_round,
        provisional_results=provisional,
        records=games,
        tiebreaks=settings.tiebreaks,
    )


def rounds_of(competition: Competition, *, with_drafts: bool) -> QuerySet[Round]:
    """The rounds to list: drafts only for the club's secretaries (`with_drafts`)."""
    rounds = Round.objects.all() if with_drafts else Round.objects.published()
    return (
        rounds.filter(competition=competition)
        .select_related("competition__club")
        .order_by("number")
    )


def next_round_number(competition: Competition) -> int:
    """The round that "Add round" adds: a second click then finds it instead of another."""
    last = competition.rounds.aggregate(last=Max("number"))["last"]
    return (last or 0) + 1


def next_evening(competition: Competition, *, today: date) -> date:
    """The date a new round is offered on: the first planned evening from `today` on that
    no round has yet, else `today` (one query, none without planned evenings)."""
    coming = [day for day in competition.evenings if day >= today]
    if not coming:
        return today
    taken = set(competition.rounds.filter(date__gte=today).values_list("date", flat=True))
    return next((day for day in coming if day not in taken), today)


def current_round_number(competition: Competition) -> int:
    """Tonight's round: the last round while it is not finished, else the one to add next.
    A player entered tonight plays from this round on."""
    last = competition.rounds.order_by("-number").values("number", "status").first()
    if last is None:
        return 1
    return last["number"] + (last["status"] == Round.Status.FINISHED)


def games_without_result_before(round: Round) -> int:
    """How many games of the previous round still have no result: while there are any,
    the Swiss pairing of this round uses the standings of the round before that."""
    if round.number <= 1:
        return 0
    return (
        Game.objects.without_result()
        .filter(round__competition=round.competition_id, round__number=round.number - 1)
        .count()
    )


def round_get(competition: Competition, number: int) -> Round:
    """Any round, drafts included: for the secretary's pages."""
    return get_object_or_404(
        Round.objects.filter(competition=competition).select_related("competition__club"),
        number=number,
    )


def visible_round_get(competition: Competition, number: int, *, user) -> Round:
    """A round `user` may see; a draft is a 404 to everyone but its club's secretaries."""
    round = round_get(competition, number)
    if not round_visible_to(user, round):
        raise Http404
    return round


class MoveCount(TypedDict):
    """What `round_games` annotates each game with, for the type checker."""

    move_count: int


def round_games(round: Round) -> QuerySet[WithAnnotations[Game, MoveCount]]:
    """The round's games with their players, move count and whether each counts."""
    return (
        Game.objects.filter(round=round)
        .with_seats()
        .with_counts()
        .annotate(move_count=Count("moves"))
        .order_by("table", "pk")
    )


def results_export_games(competition: Competition) -> QuerySet[Game]:
    """The games of the results CSV: every game with a result in a published round."""
    return (
        Game.objects.published()
        .with_result()
        .filter(round__competition=competition)
        .select_related("round")
        .with_seats()
        .order_by("round__number", "table", "pk")
    )


def player_games(competition: Competition, player: Player, *, with_drafts: bool) -> QuerySet[Game]:
    """A player's games in order; those of draft rounds only for the club's secretaries."""
    games = Game.objects.all() if with_drafts else Game.objects.published()
    return (
        games.filter(round__competition=competition, seats__player=player)
        .select_related("round__competition__club")
        .with_seats()
        .annotate(move_count=Count("moves"))
        .order_by("round__number")
    )


@dataclass(frozen=True)
class Crosstable:
    """Rows in standings order; cells[i][j] lists row player i's games against player j."""

    rows: list[standings.StandingRow]
    cells: list[list[Sequence[str]]]


def crosstable_get(competition: Competition) -> Crosstable:
    view = standings_get(competition)
    rows = [row for group_rows in view.groups.values() for row in group_rows]
    index = {row.player_id: position for position, row in enumerate(rows)}
    # Pairs that never met share one empty tuple: 300 players make 90,000 cells, and
    # 90,000 new lists cost more than the standings themselves.
    no_games: tuple[str, ...] = ()
    cells: list[list[Sequence[str]]] = [[no_games] * len(rows) for _ in rows]
    for (me, other), texts in crosstable_texts(view.records).items():
        if me in index and other in index:
            cells[index[me]][index[other]] = texts
    return Crosstable(rows=rows, cells=cells)


def crosstable_texts(
    records: Sequence[standings.GameRecord | standings.TableRecord],
) -> dict[tuple[int, int], list[str]]:
    """{(player, opponent): the texts of the player's meetings with the opponent}, each
    meeting as the standings count it (`standings.meetings`): "+412-300", "=350-350",
    "−F" for a forfeit lost."""
    by_pair: dict[tuple[int, int], list[str]] = defaultdict(list)
    for meeting in standings.meetings(records):
        mark = {"win": "+", "draw": "=", "loss": "−"}[meeting.result]
        if meeting.score is None or meeting.opponent_score is None:
            text = f"{mark}F"
        else:
            text = f"{mark}{meeting.score}-{meeting.opponent_score}"
        by_pair[meeting.player, meeting.opponent].append(text)
    return by_pair


def entrants_with_players(competition: Competition) -> QuerySet[Entrant]:
    return Entrant.objects.filter(competition=competition).select_related("player", "group")


def competitions_of_club(club_id: int) -> QuerySet[Competition]:
    return Competition.objects.filter(club_id=club_id).prefetch_related(
        Prefetch("rounds", queryset=Round.objects.order_by("number"))
    )


def competition_history(competition: Competition) -> QuerySet[HistoryEntry]:
    """The competition's history, newest first, with who did it."""
    return HistoryEntry.objects.filter(competition_id=competition.pk).select_related("by")


def round_or_next(competition: Competition, number: int | None) -> Round:
    """Round `number` of the competition (default: the next one); a round not there yet is
    an unsaved `Round`, for a pairing preview that writes nothing."""
    number = number or next_round_number(competition)
    found = Round.objects.filter(competition=competition, number=number).first()
    return found or Round(competition=competition, number=number)


def entrants_active_in(round: Round) -> list[Entrant]:
    """Entrants who take part in this round: joined, not withdrawn (present or not)."""
    return [
        entrant
        for entrant in round.competition.entrants.select_related("player", "group")
        if entrant.is_active_in(round.number)
    ]


def entrants_present_in(round: Round) -> list[Entrant]:
    # A round not saved yet (a dry run) has nobody marked absent.
    absent = set(round.absences.values_list("player_id", flat=True)) if round.pk else set()
    return [entrant for entrant in entrants_active_in(round) if entrant.player_id not in absent]


def seated_player_ids(round: Round) -> set[int]:
    """The players with a place in the round's pairing (a game or the bye)."""
    return set(Seat.objects.filter(round=round).values_list("player_id", flat=True))


def entrants_unpaired_in(
    round: Round,
    *,
    entrants: Sequence[Entrant] | None = None,
    games: Sequence[Game] | None = None,
) -> list[Entrant]:
    """Present entrants without a place in the round's pairing (empty while it has none):
    the late arrivals the director still has to seat. The one home of "present but not
    seated". A page that has read them already passes `entrants` (the late-arrival form
    passes all active ones: seating one marks them present) and the round's `games`."""
    if games is not None:
        seated = {player.pk for game in games for player in game.players}
    else:
        seated = seated_player_ids(round) if round.pk else set()
    if not seated:
        return []
    if entrants is None:
        entrants = entrants_present_in(round)
    return [entrant for entrant in entrants if entrant.player_id not in seated]
