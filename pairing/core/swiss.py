"""Swiss pairing as one maximum-weight perfect matching.

Every candidate pair gets one integer weight built from bit fields, most important
criterion in the highest field (see docs/pairing.md for the scheme and a worked
example):

1. ``repeats``: earlier meetings of the two (a repeat stays possible, it is only the
   heaviest penalty, so a small club where everyone has met everyone still pairs);
2. ``repeat_recency``: the round they last met (longer ago is better);
3. ``match_point_gap``: the squared match-point gap, 0 for equal match points (a chain
   of small floats beats one big float that a parity count would prefer);
4. ``match_point_mismatch``: 1 when their match points differ (fewer floaters);
5. ``board_point_distance``: within a score group the board-point gap; across groups
   each player's distance in board points from the boundary between the groups (the
   lowest of a group floats down to meet the highest of the next, as in the Dutch
   system, rather than some player in the middle of the lower group);
6. ``starter_conflict``: both need the same side (only with assigned starters);
7. ``tie_break``: a fixed pseudo-random number per pair of standings positions, so
   that equally good matchings are told apart the same way on every run.

Each field is wider than the largest possible sum of all fields below it over a whole
round, so no amount of a lower criterion outweighs one unit of a higher one. The
matching maximises ``ceiling - penalty`` per pair, i.e. minimises the total penalty.

For large fields only pairs within ``window`` places of each other (standings sorted by
match points, board points, rank, id) are candidates; the window doubles and the
matching is redone when the result leans on the edge of the window or still contains a
repeat, and falls back to the full graph for small fields. The benchmark and the tests
compare it with the full graph.

Pure Python plus rustworkx; this module must never import Django, the ORM or another app.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import rustworkx

from .common import (
    MeetingHistory,
    build_pairs,
    bye_params,
    choose_bye,
    repeats_in,
    table_order,
    validate_entrants,
)
from .records import CriterionTotal, Explanation, Pairing, PairingEntrant, PairingError
from .starters import (
    STARTER_MODES,
    StarterMode,
    assign_starters,
    starter_preference,
)

__all__ = ["CRITERIA", "DEFAULT_WINDOW", "SwissWeights", "swiss"]

CRITERIA: tuple[str, ...] = (
    "repeats",
    "repeat_recency",
    "match_point_gap",
    "match_point_mismatch",
    "board_point_distance",
    "starter_conflict",
    "tie_break",
)

DEFAULT_WINDOW = 30
# rustworkx computes with 128-bit integers and doubles weights internally; keeping a
# single edge weight below 2**116 leaves room for the sums over 500 tables.
_MAX_WEIGHT_BITS = 116
_MAX_TIE_BITS = 32
_MIN_TIE_BITS = 16
_MASK64 = (1 << 64) - 1


def _tie_hash(i: int, j: int) -> int:
    """A fixed, well-mixed 64-bit number for the standings positions i < j
    (splitmix64 finaliser), independent of Python's hash randomisation.
    """
    z = (i * 0x9E3779B97F4A7C15 + j * 0xC2B2AE3D27D4EB4F + 0x632BE59BD9B4E019) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _conflict(preference_a: int, preference_b: int) -> int:
    """Starter conflict of two preferences, as ``starters.starter_conflict``."""
    if preference_a * preference_b <= 0:
        return 0
    return min(abs(preference_a), abs(preference_b))


def _match_point_scale(values: Iterable[float]) -> int:
    """The smallest integer that makes every match-point total whole (2 for halves)."""
    scale = 1
    for value in values:
        denominator = Fraction(value).limit_denominator(1000).denominator
        scale = scale * denominator // math.gcd(scale, denominator)
    return scale


@dataclass(frozen=True)
class _Field:
    key: str
    max_per_pair: int
    multiplier: int


class SwissWeights:
    """The weight of every candidate pair for one Swiss round.

    ``entrants`` are the players to be paired (the bye already removed). Their
    standings order, ``self.order``, fixes the node numbering, the window and the tie
    break, so the weights do not depend on the order of the input.
    """

    def __init__(
        self,
        entrants: Sequence[PairingEntrant],
        *,
        history: MeetingHistory | None = None,
        starters: StarterMode | str = "assigned",
    ) -> None:
        self.order: tuple[PairingEntrant, ...] = tuple(
            sorted(entrants, key=lambda e: (-e.match_points, -e.board_points, e.rank, e.id))
        )
        self.history = history if history is not None else MeetingHistory(self.order)
        self.position = {entrant.id: index for index, entrant in enumerate(self.order)}
        size = len(self.order)
        self.tables = max(1, size // 2)

        scale = _match_point_scale(entrant.match_points for entrant in self.order)
        self._match_points = [round(entrant.match_points * scale) for entrant in self.order]
        self._board_points = [entrant.board_points for entrant in self.order]
        # Across score groups, board points count as the distance of each player from
        # the boundary between the groups (see _board_point_distance).
        group_top: dict[int, int] = {}
        group_bottom: dict[int, int] = {}
        for points, board in zip(self._match_points, self._board_points, strict=True):
            group_top[points] = max(board, group_top.get(points, board))
            group_bottom[points] = min(board, group_bottom.get(points, board))
        self._above_group_bottom = [
            board - group_bottom[points]
            for points, board in zip(self._match_points, self._board_points, strict=True)
        ]
        self._below_group_top = [
            group_top[points] - board
            for points, board in zip(self._match_points, self._board_points, strict=True)
        ]
        self.match_point_scale = scale

        # Meetings by standings positions, so the hot loop avoids id lookups.
        self._met: dict[tuple[int, int], tuple[int, int]] = {}
        for (a, b), meeting in self.history.items():
            if a in self.position and b in self.position:
                i, j = sorted((self.position[a], self.position[b]))
                self._met[(i, j)] = (meeting.count, max(1, meeting.last_round))

        assigned = starters == "assigned"
        # Starter preferences (+2..-2); two entrants leaning the same way conflict.
        self._starter_preferences = [
            starter_preference(entrant) if assigned else 0 for entrant in self.order
        ]

        mp = self._match_points
        bp = self._board_points
        max_meetings = max((count for count, _ in self._met.values()), default=0)
        max_last_round = max((last for _, last in self._met.values()), default=0)
        mp_range = (max(mp) - min(mp)) if mp else 0
        bp_range = (max(bp) - min(bp)) if bp else 0

        # Coarsen board points only in the absurd case that the fields do not fit.
        self.board_point_divisor = 1
        while True:
            maxima = [
                ("repeats", max_meetings),
                ("repeat_recency", max_last_round),
                ("match_point_gap", mp_range * mp_range),
                ("match_point_mismatch", 1 if mp_range else 0),
                ("board_point_distance", 2 * bp_range // self.board_point_divisor),
                ("starter_conflict", 2 if assigned else 0),
            ]
            ceiling_without_tie = math.prod(value * self.tables + 1 for _, value in maxima)
            tie_bits = min(
                _MAX_TIE_BITS,
                _MAX_WEIGHT_BITS - ceiling_without_tie.bit_length() - self.tables.bit_length(),
            )
            if tie_bits >= _MIN_TIE_BITS or bp_range // self.board_point_divisor == 0:
                break
            self.board_point_divisor *= 2
        if tie_bits < 1:
            raise PairingError("too many players or rounds for the Swiss weight fields")
        maxima.append(("tie_break", (1 << tie_bits) - 1))
        self.tie_bits = tie_bits

        fields: list[_Field] = []
        multiplier = 1
        for key, value in reversed(maxima):
            fields.append(_Field(key, value, multiplier))
            multiplier *= value * self.tables + 1
        self.fields: tuple[_Field, ...] = tuple(reversed(fields))
        # One more than the largest possible penalty of a pair: every weight is >= 1.
        self.ceiling = multiplier
        self._multiplier = {field.key: field.multiplier for field in self.fields}

    # -- per pair ---------------------------------------------------------------

    def _board_point_distance(self, i: int, j: int) -> int:
        """Within a score group the board-point gap; across groups how far each player
        stands from the boundary between their groups, in board points, so that the
        floater is the lowest of the higher group and meets the highest of the lower.
        """
        if self._match_points[i] == self._match_points[j]:
            return abs(self._board_points[i] - self._board_points[j])
        if self._match_points[i] < self._match_points[j]:
            i, j = j, i
        return self._above_group_bottom[i] + self._below_group_top[j]

    def criteria_at(self, i: int, j: int) -> tuple[int, ...]:
        """The raw value of every criterion for the players at positions i and j."""
        if i > j:
            i, j = j, i
        count, last_round = self._met.get((i, j), (0, 0))
        gap = abs(self._match_points[i] - self._match_points[j])
        board_gap = self._board_point_distance(i, j)
        return (
            count,
            last_round,
            gap * gap,
            1 if gap else 0,
            board_gap // self.board_point_divisor,
            _conflict(self._starter_preferences[i], self._starter_preferences[j]),
            _tie_hash(i, j) >> (64 - self.tie_bits),
        )

    def criteria(self, a: int, b: int) -> tuple[int, ...]:
        """The raw value of every criterion (in ``CRITERIA`` order) for ids a and b."""
        return self.criteria_at(self.position[a], self.position[b])

    def penalty(self, a: int, b: int) -> int:
        """The pair's penalty: the criteria packed into their bit fields."""
        return sum(
            value * field.multiplier
            for value, field in zip(self.criteria(a, b), self.fields, strict=True)
        )

    def weight(self, a: int, b: int) -> int:
        """The matching weight of pairing ids a and b (higher is better, always >= 1)."""
        return self.ceiling - self.penalty(a, b)

    # -- the graph ----------------------------------------------------------------

    def edges(self, window: int | None) -> list[tuple[int, int, int]]:
        """Candidate pairs (position, position, weight) within ``window`` places."""
        size = len(self.order)
        reach = size if window is None else window
        mp = self._match_points
        bp = self._board_points
        above_bottom = self._above_group_bottom
        below_top = self._below_group_top
        met = self._met
        preferences = self._starter_preferences
        divisor = self.board_point_divisor
        shift = 64 - self.tie_bits
        m_repeat = self._multiplier["repeats"]
        m_recency = self._multiplier["repeat_recency"]
        m_mismatch = self._multiplier["match_point_mismatch"]
        m_gap = self._multiplier["match_point_gap"]
        m_board = self._multiplier["board_point_distance"]
        m_starter = self._multiplier["starter_conflict"]
        ceiling = self.ceiling
        edges = []
        for i in range(size):
            mp_i = mp[i]
            bp_i = bp[i]
            above_bottom_i = above_bottom[i]
            preference_i = preferences[i]
            for j in range(i + 1, min(size, i + reach + 1)):
                # Sorted order: mp[i] >= mp[j], and bp[i] >= bp[j] within a group.
                gap = mp_i - mp[j]
                board_gap = above_bottom_i + below_top[j] if gap else bp_i - bp[j]
                penalty = (
                    gap * gap * m_gap
                    + (board_gap // divisor) * m_board
                    + (_tie_hash(i, j) >> shift)
                )
                if gap:
                    penalty += m_mismatch
                key = (i, j)
                if key in met:
                    count, last_round = met[key]
                    penalty += count * m_repeat + last_round * m_recency
                if preference_i:
                    preference_j = preferences[j]
                    if preference_i * preference_j > 0:
                        penalty += min(abs(preference_i), abs(preference_j)) * m_starter
                edges.append((i, j, ceiling - penalty))
        return edges


def _max_weight_matching(size: int, edges: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    graph = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(size))
    graph.add_edges_from(edges)
    matching = rustworkx.max_weight_matching(
        graph, max_cardinality=True, weight_fn=lambda weight: weight
    )
    return sorted((min(a, b), max(a, b)) for a, b in matching)


def solve(weights: SwissWeights, *, window: int | None) -> tuple[list[tuple[int, int]], int | None]:
    """The optimal matching as position pairs, and the window finally used (None =
    full graph).

    A window is kept only when its matching is perfect, uses no pair further apart than
    half the window and has no repeat; otherwise the window doubles, up to the full
    graph. Fields up to twice the window are paired on the full graph straight away.
    """
    size = len(weights.order)
    current = window
    while True:
        if current is not None and size <= 2 * current:
            current = None
        matching = _max_weight_matching(size, weights.edges(current))
        if current is None:
            if len(matching) * 2 != size:
                raise PairingError("no complete pairing exists")  # cannot happen: K_n
            return matching, current
        complete = len(matching) * 2 == size
        leans_on_edge = any(j - i > current // 2 for i, j in matching)
        has_repeat = any((i, j) in weights._met for i, j in matching)
        if complete and not leans_on_edge and not has_repeat:
            return matching, current
        current *= 2


def _criteria_totals(
    weights: SwissWeights, matching: Sequence[tuple[int, int]], starters: str
) -> tuple[CriterionTotal, ...]:
    totals = [0] * len(CRITERIA)
    repeat_pairs = 0
    for i, j in matching:
        values = weights.criteria_at(i, j)
        repeat_pairs += values[0] > 0
        for index, value in enumerate(values):
            totals[index] += value
    scale = weights.match_point_scale
    unit = "match points" if scale == 1 else f"1/{scale} match points"
    notes = {
        "repeats": f"{repeat_pairs} pairs meet again, {totals[0]} earlier meetings in all",
        "repeat_recency": f"sum of the rounds in which repeat pairs last met: {totals[1]}",
        "match_point_gap": f"sum of squared match-point gaps: {totals[2]} ({unit} squared)",
        "match_point_mismatch": f"{totals[3]} pairs with unequal match points",
        "board_point_distance": (
            "board points between partners (within a group) or from the group boundary"
            f" (floaters): {totals[4] * weights.board_point_divisor}"
        ),
        "starter_conflict": (
            "starters drawn by lot"
            if starters == "by_lot"
            else f"{totals[5]} preference points where both need the same side"
        ),
        "tie_break": "fixed tie-break between equally good pairings",
    }
    return tuple(
        CriterionTotal(key, total, notes[key]) for key, total in zip(CRITERIA, totals, strict=True)
    )


def swiss(
    entrants: Iterable[PairingEntrant],
    *,
    round_number: int,
    starters: StarterMode | str = "assigned",
    window: int | None = DEFAULT_WINDOW,
) -> Pairing:
    """Pair one Swiss round of the entrants present.

    With an odd number present the bye goes first (``choose_bye``); the rest are paired
    by one maximum-weight perfect matching. ``window=None`` always uses the full graph.
    ``round_number`` is the round being paired; earlier meetings must lie before it.
    """
    if starters not in STARTER_MODES:
        raise PairingError(f"starters must be one of {STARTER_MODES}, not {starters!r}")
    if window is not None and window < 1:
        raise PairingError("window must be at least 1")
    ordered = validate_entrants(entrants)
    for entrant in ordered:
        for game in entrant.opponents:
            if game.round_number >= round_number:
                raise PairingError(
                    f"entrant {entrant.id} has a game in round {game.round_number}, "
                    f"not before round {round_number}"
                )
    bye = choose_bye(ordered)
    players = [entrant for entrant in ordered if bye is None or entrant.id != bye.id]
    history = MeetingHistory(ordered)
    weights = SwissWeights(players, history=history, starters=starters)
    matching, _ = solve(weights, window=window) if players else ([], None)
    games = [(weights.order[i].id, weights.order[j].id) for i, j in matching]
    total_weight = sum(weights.ceiling - _penalty_at(weights, i, j) for i, j in matching)

    by_id = {entrant.id: entrant for entrant in ordered}
    position = {entrant.id: index for index, entrant in enumerate(ordered)}
    ordered_games = table_order(games, position)
    starter_ids = assign_starters(ordered_games, players, starters=starters, history=history)
    return Pairing(
        pairs=build_pairs(ordered_games, starter_ids, by_id, history),
        bye=bye.id if bye else None,
        weight=total_weight,
        system="swiss",
        criteria=_criteria_totals(weights, matching, starters),
        explanation=_explanation(weights, games, ordered, bye.id if bye else None),
    )


def _explanation(
    weights: SwissWeights,
    games: Sequence[tuple[int, int]],
    everyone: Sequence[PairingEntrant],
    bye: int | None,
) -> Explanation:
    """The matching's repeats, against those of pairing straight down the standings
    (1 v 2, 3 v 4, … in the Swiss order): how many the matching avoided, and how many
    no pairing could avoid (the matching puts the fewest repeats first)."""
    order = weights.order
    points = {entrant.id: entrant.match_points for entrant in order}
    straight_down = [(order[i].id, order[i + 1].id) for i in range(0, len(order) - 1, 2)]
    left = repeats_in(games, weights.history)
    return Explanation.of(
        "swiss",
        "optimal_matching",
        repeats_left=left,
        repeats_avoided=max(0, repeats_in(straight_down, weights.history) - left),
        floaters=sum(1 for a, b in games if points[a] != points[b]),
        **bye_params(everyone, bye),
    )


def _penalty_at(weights: SwissWeights, i: int, j: int) -> int:
    return sum(
        value * field.multiplier
        for value, field in zip(weights.criteria_at(i, j), weights.fields, strict=True)
    )
