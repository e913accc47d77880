"""Reads of duplicate evenings: the adapters from rows to `duplicate.ranking` records."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from django.db.models import Exists, OuterRef, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.safestring import SafeString

from duplicate.models import DuplicateCompetition, Evening, Participant, Slip, Turn
from duplicate.ranking import (
    EveningRow,
    SeasonRow,
    evening_ranking,
    season_ranking,
    slip_counts,
)
from duplicate.services import evening_slip_rules, master_game
from games.board import column_labels, grid_html, squares
from rules.board import Notation
from rules.duplicate import DuplicateGame
from rules.referee import SlipLine, SlipRules, tally


def counted_slips(slips: QuerySet[Slip]) -> QuerySet[Slip]:
    """The slips that rank (each as it counts: `duplicate.ranking.counted_score`, a late
    slip 0 until accepted): a participant withdrawn from an evening is out of the ranking
    of that evening and every later one (as an entrant withdrawn from a round is out of
    its pairings); the evenings before count as played."""
    withdrawn = Participant.objects.filter(
        competition_id=OuterRef("turn__evening__competition_id"),
        player_id=OuterRef("player_id"),
        withdrawn_from_evening__lte=OuterRef("turn__evening__number"),
    )
    return slips.exclude(Exists(withdrawn))


#: A slip row as the ranking reads it (`_line`).
_LINE_FIELDS = ("player_id", "turn__number", "score", "penalty", "warning", "late", "late_accepted")


def _line(player, number, score, penalty, warning, late, accepted) -> SlipLine[int]:
    """A slip row as the referee's tally reads it: its score before the penalty, and late
    when it does not count (`duplicate.ranking.slip_counts`)."""
    return SlipLine(
        player,
        number,
        score + penalty,
        warning=bool(warning),
        penalty=penalty,
        late=not slip_counts(late=late, accepted=accepted),
    )


def evening_results(evening: Evening) -> list[EveningRow]:
    """The evening's ranking over the turns whose top is on the board, under its slip
    rules, without the players withdrawn from it (two queries)."""
    # A turn with its top has the top's score (the constraint duplicate_top_has_score).
    tops = cast(
        dict[int, int],
        dict(
            Turn.objects.filter(evening=evening).exclude(top="").values_list("number", "top_score")
        ),
    )
    slips = counted_slips(Slip.objects.filter(turn__evening=evening)).values_list(*_LINE_FIELDS)
    return evening_ranking(tops, [_line(*row) for row in slips], evening_slip_rules(evening))


def season_results(competition_id: int, best: int | None = None) -> list[SeasonRow]:
    """The competition's duplicate ranking by average percentage, each evening counted
    under its own slip rules (three queries)."""
    tops: dict[int, dict[int, int]] = {}
    for evening_id, number, score in (
        Turn.objects.filter(evening__competition_id=competition_id)
        .exclude(top="")
        .values_list("evening_id", "number", "top_score")
    ):
        tops.setdefault(evening_id, {})[number] = cast(int, score)  # a top has its score
    rules = {
        evening.pk: evening_slip_rules(evening)
        for evening in Evening.objects.filter(competition_id=competition_id).only("slip_rules")
    }
    slips: dict[int, list[SlipLine[int]]] = {}
    rows = counted_slips(Slip.objects.filter(turn__evening__competition_id=competition_id))
    for evening_id, *row in rows.values_list("turn__evening_id", *_LINE_FIELDS):
        slips.setdefault(evening_id, []).append(_line(*row))
    evenings = [
        {
            row.player_id: row.percentage
            for row in evening_ranking(tops[e], slips.get(e, []), rules[e])
        }
        for e in sorted(tops)
    ]
    return season_ranking(evenings, best)


def solo_names(turn: Turn) -> list[str]:
    """The players with a solo on `turn` (its top on the board), by name, under the
    evening's slip rules; a withdrawn player's slip does not count (one query)."""
    rows = counted_slips(Slip.objects.filter(turn=turn)).values_list(*_LINE_FIELDS, "player__name")
    names = {row[0]: row[-1] for row in rows}
    tallies = tally(
        {turn.number: cast(int, turn.top_score)},
        [_line(*row[:-1]) for row in rows],
        evening_slip_rules(turn.evening),
    )
    return sorted(names[player] for player, counted in tallies.items() if counted.solos)


# -------------------------------------------------------------------- the pages


def evening_get(*, club_slug: str, competition_slug: str, number: int) -> Evening:
    """A duplicate competition's evening by its number, with its competition and club
    (404 otherwise; one query)."""
    return get_object_or_404(
        Evening.objects.select_related("competition__club"),
        competition__club__slug=club_slug,
        competition__slug=competition_slug,
        number=number,
    )


def evening_and_participation(
    *, club_slug: str, competition_slug: str, number: int, user: Any
) -> tuple[Evening, Participant | None]:
    """The evening (as `evening_get`) and the user's entry in its competition (its player
    read with it), else None: whether this user may hand in a slip (two queries)."""
    evening = evening_get(club_slug=club_slug, competition_slug=competition_slug, number=number)
    if user is None or not user.is_authenticated:
        return evening, None
    participation = (
        Participant.objects.select_related("player")
        .filter(competition_id=evening.competition_id, player__user=user)
        .order_by()
        .first()
    )
    return evening, participation


def duplicate_get(*, club_slug: str, competition_slug: str) -> DuplicateCompetition:
    """A duplicate competition by its club's and its own short name (404 otherwise)."""
    return get_object_or_404(
        DuplicateCompetition.objects.select_related("club"),
        club__slug=club_slug,
        slug=competition_slug,
    )


def participants_of(competition: DuplicateCompetition) -> list[Participant]:
    return list(competition.participants.select_related("player").order_by("player__name"))


def duplicate_history(competition: DuplicateCompetition):
    """Its history, newest first (`HistoryEntry.duplicate_id`)."""
    from clubs.models import HistoryEntry

    return HistoryEntry.objects.filter(duplicate_id=competition.pk).select_related("by")


def evenings_of(competition: DuplicateCompetition) -> list[Evening]:
    return list(Evening.objects.filter(competition=competition).order_by("number"))


def evenings_under_other_rules(
    competition: DuplicateCompetition, slip_rules: SlipRules
) -> list[Evening]:
    """The evenings whose slips are judged by other rules than `slip_rules` (the
    competition's now): made before a change of the rules (one query)."""
    return [e for e in evenings_of(competition) if evening_slip_rules(e) != slip_rules]


def player_names(competition_id: int) -> dict[int, str]:
    """The competition's participants by player id (one query)."""
    return dict(
        Participant.objects.filter(competition_id=competition_id).values_list(
            "player_id", "player__name"
        )
    )


@dataclass
class EveningState:
    """The evening as its pages show it: the turns, the master game replayed up to now
    (the open turn's rack drawn, its tops not searched), and the board."""

    evening: Evening
    turns: list[Turn]
    game: DuplicateGame

    @property
    def open_turn(self) -> Turn | None:
        return self.turns[-1] if self.turns and self.turns[-1].is_open else None

    @property
    def last_turn(self) -> Turn | None:
        return self.turns[-1] if self.turns else None

    @property
    def last_closed(self) -> Turn | None:
        closed = [turn for turn in self.turns if not turn.is_open]
        return closed[-1] if closed else None

    @property
    def last_draw(self) -> str:
        """The last turn drawn, as `last_draw` gives it."""
        last = self.last_turn
        return "" if last is None else draw_key(last.number, last.rack)

    @property
    def total(self) -> int:
        closed = self.last_closed
        return (closed.total or 0) if closed else 0

    @property
    def is_over(self) -> bool:
        return self.open_turn is None and self.game.ending is not None

    @property
    def ending(self) -> str | None:
        return self.game.ending

    @property
    def notation(self) -> Notation:
        """The club's slip notation: the board's labels, the slips and tops are shown in it."""
        return self.evening.competition.club.notation

    def board(self) -> BoardGrid:
        """The board now, labelled in the club's notation; the last top marked."""
        placed = self.game.turns[-1].chosen.placed if self.game.turns else ()
        notation = self.notation
        rows = squares(self.game.game.board, self.game.tiles, highlight=placed, notation=notation)
        return BoardGrid(grid_html(rows, notation), column_labels(notation))


@dataclass(frozen=True)
class BoardGrid:
    """What `games/_board.html` reads."""

    grid: SafeString
    columns: Sequence[str]


#: The master games this process has replayed lately, by what they were replayed from.
_replayed: OrderedDict[tuple, DuplicateGame] = OrderedDict()
_replayed_guard = threading.Lock()
#: Evenings played at once in one club room, and some to spare.
REPLAYED_KEPT = 16


def _replayed_game(evening: Evening, turns: list[Turn]) -> DuplicateGame:
    """The master game of `turns`, replayed once per process: when the whole room hands
    in within seconds, each slip would replay every turn of the evening again (3.5 ms at
    turn 21). The key is everything the game is rebuilt from, so any change of a draw, a
    top or the rules replays anew; a turn's tops, searched once, are kept with it."""
    key = (
        evening.pk,
        evening.rules,
        evening.word_list,
        repr(sorted((evening.draw_rules or {}).items())),
        tuple((turn.number, turn.rejected, turn.drawn, turn.top) for turn in turns),
    )
    with _replayed_guard:
        game = _replayed.get(key)
        if game is not None:
            _replayed.move_to_end(key)
            return game
    game = master_game(evening, turns)
    with _replayed_guard:
        _replayed[key] = game
        while len(_replayed) > REPLAYED_KEPT:
            _replayed.popitem(last=False)
    return game


def evening_state(evening: Evening, turns: list[Turn] | None = None) -> EveningState:
    """One query for the turns (none when the caller has read them, in order); the master
    game is replayed without a search, once per process for the same turns. It is shared:
    read it, never draw or play on it (the services rebuild their own)."""
    if turns is None:
        turns = list(evening.turns.order_by("number"))
    return EveningState(evening, turns, _replayed_game(evening, turns))


@dataclass(frozen=True)
class LastDraw:
    """The evening's last turn as a phone follows it: its draw ("number:rack", "" before
    the first) and its clock."""

    draw: str
    is_open: bool = False
    added_seconds: int = 0
    deadline: datetime | None = None


def last_draw_clock(*, club_slug: str, competition_slug: str, number: int) -> LastDraw:
    """The evening's last turn drawn and its clock (one query): what a phone asks every
    few seconds, to know when the next rack is out (or the last one drawn again), and
    whether the spelleider added time."""
    last = (
        Turn.objects.filter(
            evening__competition__club__slug=club_slug,
            evening__competition__slug=competition_slug,
            evening__number=number,
        )
        .order_by("-number")
        .only("number", "rack", "top", "drawn_at", "seconds", "added_seconds")
        .first()
    )
    if last is None:
        return LastDraw("")
    return LastDraw(
        draw_key(last.number, last.rack), last.is_open, last.added_seconds, last.deadline
    )


def late_slips(turn: Turn | None) -> list[Slip]:
    """The turn's late slips, with their players, for the spelleider to accept or not."""
    if turn is None:
        return []
    return list(turn.slips.filter(late=True).select_related("player").order_by("player__name"))


def draw_key(number: int, rack: str) -> str:
    return f"{number}:{rack}"


def open_turn(evening: Evening) -> Turn | None:
    """The turn whose top is not on the board yet, if any (one query)."""
    return evening.turns.filter(top="").order_by("-number").first()


def slips_of(evening: Evening) -> list[Slip]:
    slips = list(
        Slip.objects.filter(turn__evening=evening)
        .select_related("turn", "player")
        .order_by("turn__number", "player__name", "pk")
    )
    for slip in slips:  # the caller's evening, with its club (the notation) as read
        slip.turn.evening = evening
    return slips
