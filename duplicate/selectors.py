"""Reads of duplicate evenings: the adapters from rows to `duplicate.ranking` records."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, NamedTuple, cast

from django.db.models import Count, Exists, FilteredRelation, OuterRef, Q
from django.shortcuts import get_object_or_404
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from duplicate.models import (
    DuplicateCompetition,
    Evening,
    Participant,
    Presence,
    Slip,
    SlipConflict,
    SlipQuerySet,
    Turn,
)
from duplicate.notation import reason_shown
from duplicate.ranking import (
    LEFT,
    EveningRow,
    SeasonRow,
    evening_ranking,
    present_for,
    season_ranking,
    slip_counts,
    turns_due,
)
from duplicate.replay import evening_slip_rules, master_game, turn_drawn
from duplicate.rule_fields import FAULT_LABELS
from games.board import column_labels, grid_html, squares
from rules.board import Notation
from rules.duplicate import DuplicateGame
from rules.referee import SlipLine, SlipRules, tally


def counted_slips(slips: SlipQuerySet) -> SlipQuerySet:
    """The slips that rank (each as it counts: `duplicate.ranking.counted_score`, a late
    slip 0 until accepted): a participant withdrawn from an evening is out of the ranking
    of that evening and every later one (as an entrant withdrawn from a round is out of
    its pairings); the evenings before count as played. A slip of a turn its player was
    not present for (absent, or left after an earlier turn: `duplicate.ranking.present_for`)
    never ranks, nor does a void one."""
    withdrawn = Participant.objects.filter(
        competition_id=OuterRef("turn__evening__competition_id"),
        player_id=OuterRef("player_id"),
    ).withdrawn_in(OuterRef("turn__evening__number"))
    return slips.standing().exclude(Exists(withdrawn)).exclude(Exists(_not_present()))


def _not_present() -> Any:
    """The presence that keeps a slip's player (`OuterRef`) from the slip's turn."""
    return Presence.objects.filter(
        evening_id=OuterRef("turn__evening_id"), participant__player_id=OuterRef("player_id")
    ).not_present_for(OuterRef("turn__number"))


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
    under its own slip rules, with the evenings each player was recorded absent from
    (four queries)."""
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
    absent = dict(
        Presence.objects.filter(
            evening__competition_id=competition_id, status=Presence.Status.ABSENT
        )
        .order_by()
        .values("participant__player_id")
        .annotate(evenings=Count("pk"))
        .values_list("participant__player_id", "evenings")
    )
    return season_ranking(evenings, best, absent)


def absent_from(evening: Evening) -> list[int]:
    """The players recorded absent from the evening (withdrawn ones left out: they are out
    already), by id (one query)."""
    playing = Participant.objects.filter(competition_id=evening.competition_id).playing_in(
        evening.number
    )
    return list(
        Presence.objects.filter(
            evening=evening, status=Presence.Status.ABSENT, participant__in=playing
        ).values_list("participant__player_id", flat=True)
    )


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


def plays_in(*, user: Any, evening: Evening) -> bool:
    """Whether the user plays the evening: entered in its competition (who may open the
    slip page: the rule `hand_in_sql.evening_and_entry` reads for it), not withdrawn from
    it and not recorded absent. The evening's pages link to the slip for them alone. One
    query; none for a visitor not logged in."""
    if user is None or not user.is_authenticated:
        return False
    absent = Presence.objects.filter(
        evening=evening, participant=OuterRef("pk"), status=Presence.Status.ABSENT
    )
    return (
        Participant.objects.filter(competition_id=evening.competition_id, player__user=user)
        .playing_in(evening.number)
        .exclude(Exists(absent))
        .exists()
    )


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
        tuple((turn.number, turn.cancelled, turn.rejected, turn.drawn, turn.top) for turn in turns),
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


def turn_position(evening: Evening, turns: list[Turn], turn: Turn) -> DuplicateGame:
    """The master game as `turn`'s slips meet it: the turns before it played, its rack
    drawn, its top not on the board; replayed once per process for the same turns (as
    `_replayed_game`), so a jury typing a room's slips for a closed turn does not replay
    the evening for every slip. Shared: read it, never draw or play on it."""
    before = [t for t in turns if t.number < turn.number]
    key = (
        "position",
        evening.pk,
        evening.rules,
        repr(sorted((evening.draw_rules or {}).items())),
        tuple((t.number, t.cancelled, t.rejected, t.drawn, t.top) for t in before),
        (turn.number, turn.cancelled, turn.rejected, turn.drawn),
    )
    with _replayed_guard:
        game = _replayed.get(key)
        if game is not None:
            _replayed.move_to_end(key)
            return game
    game = master_game(evening, before)
    turn_drawn(game, turn)
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


class EveningPlayer(NamedTuple):
    """A participant playing an evening, with their presence at it (None: not recorded)."""

    player_id: int
    table: int | None
    name: str
    status: str | None
    left_after_turn: int | None

    def turns_due(self, turns: int, *, any_slip: bool) -> int:
        return turns_due(self.status, self.left_after_turn, turns, any_slip=any_slip)


def evening_players(evening: Evening) -> list[EveningPlayer]:
    """The participants playing the evening (withdrawn ones left out), each with their
    presence, by table (those without one last), then name (one query, no model
    instances: the jury room asks for it with every slip)."""
    here = FilteredRelation("presences", condition=Q(presences__evening_id=evening.pk))
    rows = (
        Participant.objects.filter(competition_id=evening.competition_id)
        .playing_in(evening.number)
        .annotate(here=here)
        .values_list("player_id", "table", "player__name", "here__status", "here__left_after_turn")
    )
    players = [EveningPlayer(*row) for row in rows]
    return sorted(players, key=lambda p: (p.table is None, p.table or 0, p.name.casefold()))


def evening_complete(
    evening: Evening,
    turns: list[Turn] | None = None,
    players: list[EveningPlayer] | None = None,
) -> bool:
    """Whether the evening's results are complete: no turn is open, the master game has
    ended, someone played, and every participant playing this evening has a slip for
    every turn they were present for (`duplicate.ranking.turns_due`: recorded present,
    every turn; left after turn N, turns 1 to N; absent, none; not recorded, every turn
    when they handed in any slip, none otherwise). A paper slip left blank is typed as
    "-", which scores 0; a late slip is in, as it counts. `turns` (in order) and
    `players` (`evening_players`): as the caller read them.

    The cheap reads come first: the master game, replayed once per process for the same
    turns (`_replayed_game`), ends only at the last turn, so until then the answer needs
    no slip read (the jury room asks after every slip typed: benchmarks/jury.py); then
    the players and their slips (three queries at most; one when the caller gives
    `turns` and `players`)."""
    if turns is None:
        turns = list(evening.turns.order_by("number"))
    if not turns or turns[-1].is_open or _replayed_game(evening, turns).ending is None:
        return False
    if players is None:
        players = evening_players(evening)
    handed_in = dict(
        Slip.objects.standing()
        .exclude(Exists(_not_present()))
        .filter(turn__evening=evening, player_id__in=[p.player_id for p in players])
        .order_by()
        .values("player_id")
        .annotate(slips=Count("pk"))
        .values_list("player_id", "slips")
    )
    due = [
        (handed_in.get(p.player_id, 0), p.turns_due(len(turns), any_slip=p.player_id in handed_in))
        for p in players
    ]
    return any(owed for _in, owed in due) and all(slips >= owed for slips, owed in due)


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
    late = turn.slips.standing().filter(late=True)
    return list(late.select_related("player").order_by("player__name"))


def draw_key(number: int, rack: str) -> str:
    return f"{number}:{rack}"


def open_turn(evening: Evening) -> Turn | None:
    """The turn whose top is not on the board yet, if any (one query)."""
    return evening.turns.filter(top="").order_by("-number").first()


def slips_of(evening: Evening) -> list[Slip]:
    slips = list(
        Slip.objects.standing()
        .filter(turn__evening=evening)
        .select_related("turn", "player")
        .order_by("turn__number", "player__name", "pk")
    )
    for slip in slips:  # the caller's evening, with its club (the notation) as read
        slip.turn.evening = evening
    return slips


# -------------------------------------------------------------------- the jury room


@dataclass(frozen=True)
class TableMissing:
    """One table of the room, for one turn: who sits there, and whose slip is not in
    (`table` None: the players without a table)."""

    table: int | None
    players: int
    missing: list[str]


@dataclass(frozen=True)
class MissingSlips:
    """The slips not in for one turn, table by table, of the players present for it; and
    the evening's presence: `absent` (recorded), `left` (name, the last turn they were
    there for), `unrecorded` (no presence recorded and no slip at all this evening: not
    come, or none typed yet; the results leave them out)."""

    tables: list[TableMissing]
    absent: list[str]
    left: list[tuple[str, int]]
    unrecorded: list[str]

    @property
    def count(self) -> int:
        return sum(len(table.missing) for table in self.tables)


def missing_slips(
    evening: Evening, turn: Turn, players: list[EveningPlayer] | None = None
) -> MissingSlips:
    """Per table, the players present for `turn` (`duplicate.ranking.present_for`; not
    recorded counts as present) whose slip for it is not in, by name; the tables in
    order, those without a table last (`players`: `evening_players`, as the caller read
    them; one query more, else two)."""
    if players is None:
        players = evening_players(evening)
    # Per player with any slip this evening, how many of them are for `turn` (0 or 1).
    counts = (
        Slip.objects.standing()
        .filter(turn__evening=evening)
        .order_by()
        .values("player_id")
        .annotate(this_turn=Count("pk", filter=Q(turn=turn)))
        .values_list("player_id", "this_turn")
    )
    any_slip: set[int] = set()
    handed_in: set[int] = set()
    for player_id, this_turn in counts:
        any_slip.add(player_id)
        if this_turn:
            handed_in.add(player_id)
    tables: dict[int | None, list[EveningPlayer]] = {}
    for player in players:
        tables.setdefault(player.table, []).append(player)
    found = [
        TableMissing(
            table,
            len(sitting),
            [
                p.name
                for p in sitting
                if p.player_id not in handed_in
                and present_for(p.status, p.left_after_turn, turn.number)
            ],
        )
        for table, sitting in tables.items()
    ]

    def names(chosen: list[EveningPlayer]) -> list[str]:
        return sorted((p.name for p in chosen), key=str.casefold)

    return MissingSlips(
        found,
        absent=names([p for p in players if p.status == Presence.Status.ABSENT]),
        left=sorted(
            ((p.name, cast(int, p.left_after_turn)) for p in players if p.status == LEFT),
            key=lambda pair: pair[0].casefold(),
        ),
        unrecorded=names([p for p in players if p.status is None and p.player_id not in any_slip]),
    )


@dataclass(frozen=True)
class PresenceRow:
    """A player on the presence page: their presence (None: not recorded) and the slips
    in for them this evening."""

    player: EveningPlayer
    slips: int

    @property
    def presence_text(self) -> str:
        """The presence in the reader's language (the row keeps the code)."""
        status, turn = self.player.status, self.player.left_after_turn
        if status is None:
            return _("not recorded")
        if status == LEFT:
            return _("left after turn %(turn)s") % {"turn": turn}
        return str(Presence.Status(status).label)


def presence_rows(
    evening: Evening, players: list[EveningPlayer] | None = None
) -> list[PresenceRow]:
    """The evening's players (`players`: `evening_players`, as the caller read them) with
    the slips in for each (one query more)."""
    if players is None:
        players = evening_players(evening)
    slips = dict(
        Slip.objects.standing()
        .filter(turn__evening=evening)
        .order_by()
        .values("player_id")
        .annotate(slips=Count("pk"))
        .values_list("player_id", "slips")
    )
    return [PresenceRow(p, slips.get(p.player_id, 0)) for p in players]


def open_conflicts(evening: Evening) -> list[SlipConflict]:
    """The evening's second typings that differ from their slip, waiting for the
    spelleider, with the slip, its player and turn, and who typed them (one query)."""
    conflicts = list(
        SlipConflict.objects.filter(
            slip__turn__evening=evening, slip__void=False, resolved_at__isnull=True
        )
        .select_related("slip__player", "slip__turn", "typed_by")
        .order_by("slip__turn__number", "slip__player__name", "pk")
    )
    for conflict in conflicts:  # the caller's evening, with its club (the notation) as read
        conflict.slip.turn.evening = evening
    return conflicts


@dataclass(frozen=True)
class Correction:
    """A slip the engine did not take as written, or that does not count as written, and
    each thing it did, in the reader's language: the post-check's line; `counted`, what it
    counts for in the ranking."""

    slip: Slip
    notes: list[str]
    counted: int

    @property
    def effect(self) -> int | None:
        """What the engine did to the player's total: counted minus claimed (None: no score
        claimed)."""
        claimed = self.slip.claimed
        return None if claimed is None else self.counted - claimed


@dataclass(frozen=True)
class SlipChange:
    """A slip changed by a person after it was in: corrected (`slip_correct`), or a jury
    conflict resolved by taking the second typing or keeping the slip
    (`slip_conflict_resolve`); from the history, which keeps who, when and why."""

    #: "corrected", "conflict_taken" or "conflict_kept".
    kind: str
    turn: int
    player: str
    text_before: str
    text_after: str
    claimed_before: int | None
    claimed_after: int | None
    #: The change of the player's total: the slip's score after minus before.
    effect: int
    by: str
    at: datetime
    reason: str


@dataclass(frozen=True)
class PostCheck:
    """The evening's post-check: every slip the engine corrected, how many players'
    totals differ from what their slips claimed (of those who claimed every slip), every
    change a person made to a slip after it was in; who was recorded absent, and who left
    after which turn."""

    corrections: list[Correction]
    slips: int
    players_claiming: int
    totals_changed: int
    absent: list[str]
    left: list[tuple[str, int]]
    changes: list[SlipChange]


def _notes(slip: Slip, notation: Notation, present: bool) -> list[str]:
    """What the engine did with a slip, each with its reason, a square in the club's
    notation (empty: taken as written)."""
    notes = [str(FAULT_LABELS.get(code, code)) for code in slip.faults]
    if slip.reason_code:
        why = reason_shown(slip.reason_code, slip.reason_params or {}, notation)
        notes.append(_("scores 0: %(why)s") % {"why": why})
    elif slip.corrected and slip.claimed is not None:
        notes.append(
            _("claimed %(claimed)s, scores %(score)s")
            % {"claimed": slip.claimed, "score": slip.score + slip.penalty}
        )
    if slip.penalty:
        notes.append(_("penalty: %(points)s points off") % {"points": slip.penalty})
    if slip.warning:
        notes.append(_("warning: %(fault)s") % {"fault": slip.warning_text})
    if slip.late:
        notes.append(_("late, accepted") if slip.late_accepted else _("late: counts 0"))
    if not present:
        notes.append(_("player not present for this turn: counts 0"))
    return notes


def _slip_changes(evening: Evening, slips: dict[int, Slip]) -> list[SlipChange]:
    """The corrections and conflict resolutions of the evening's standing slips, oldest
    first, from their history entries (one query). A conflict resolved by taking the
    second typing wrote the correction just before its own entry: one line, not two."""
    entries = HistoryEntry.objects.filter(
        duplicate_id=evening.competition_id,
        object_type="duplicate_slip",
        action__in=[HistoryAction.SLIP_CORRECT, HistoryAction.SLIP_CONFLICT_RESOLVE],
        object_id__in=Slip.objects.filter(turn__evening=evening).values("pk"),
    ).order_by("at", "pk")
    lines: list[SlipChange] = []
    last: dict[int, int] = {}  # a slip's latest line
    for entry in entries:
        slip = slips.get(cast(int, entry.object_id))
        if slip is None:  # a void slip's: it no longer counts
            continue
        before, after = entry.before or {}, entry.after or {}
        line = SlipChange(
            kind="corrected",
            turn=slip.turn.number,
            player=slip.player.name,
            text_before=before.get("slip", ""),
            text_after=after.get("slip", before.get("slip", "")),
            claimed_before=before.get("claimed"),
            claimed_after=after.get("claimed", before.get("claimed")),
            effect=after.get("score", 0) - before.get("score", 0),
            by=entry.by_name,
            at=entry.at,
            reason=entry.reason,
        )
        if entry.action == HistoryAction.SLIP_CONFLICT_RESOLVE:
            taken = bool(after.get("taken"))
            previous = lines[last[slip.pk]] if slip.pk in last else None
            if taken and previous is not None and previous.kind == "corrected":
                lines[last[slip.pk]] = replace(previous, kind="conflict_taken")
                continue
            line = replace(
                line,
                kind="conflict_taken" if taken else "conflict_kept",
                text_after=after.get("typed_again", "") if taken else line.text_before,
                claimed_after=after.get("claimed") if taken else line.claimed_before,
                effect=0,
            )
        last[slip.pk] = len(lines)
        lines.append(line)
    return lines


def post_check(evening: Evening) -> PostCheck:
    """Every slip of the evening that the engine did not take as written (a score
    corrected, a zero with its reason, a penalty, a warning, a fault accepted, a late
    slip, a slip of a turn its player was not present for), by turn and player;
    withdrawn players' slips included, as they were judged; every correction and conflict
    resolution of them; and the evening's presence as recorded (four queries)."""
    slips = list(
        Slip.objects.standing()
        .filter(turn__evening=evening)
        .select_related("turn", "player")
        .order_by("turn__number", "player__name", "pk")
    )
    presence = {
        player: (name, status, left)
        for player, name, status, left in Presence.objects.filter(evening=evening).values_list(
            "participant__player_id", "participant__player__name", "status", "left_after_turn"
        )
    }
    notation = evening.competition.club.notation
    corrections = []
    claimed: dict[int, int | None] = {}
    counted: dict[int, int] = {}
    for slip in slips:
        slip.turn.evening = evening
        _name, status, left = presence.get(slip.player_id, ("", None, None))
        present = present_for(status, left, slip.turn.number)
        score = slip.counted_score if present else 0
        notes = _notes(slip, notation, present)
        if notes:
            corrections.append(Correction(slip, notes, score))
        previous = claimed.get(slip.player_id, 0)
        claimed[slip.player_id] = (
            None if previous is None or slip.claimed is None else previous + slip.claimed
        )
        counted[slip.player_id] = counted.get(slip.player_id, 0) + score
    claiming = [player for player, total in claimed.items() if total is not None]
    changed = sum(1 for player in claiming if claimed[player] != counted[player])
    by_name = sorted(presence.values(), key=lambda row: row[0].casefold())
    return PostCheck(
        corrections,
        len(slips),
        len(claiming),
        changed,
        absent=[name for name, status, _left in by_name if status == Presence.Status.ABSENT],
        left=[(name, cast(int, left)) for name, status, left in by_name if status == LEFT],
        changes=_slip_changes(evening, {slip.pk: slip for slip in slips}),
    )
