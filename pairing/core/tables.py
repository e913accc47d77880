"""Pairing into tables of 2 to 4 players.

The director's choice of table size (``table_sizes``), Swiss by tables
(``swiss_tables``), random tables (``random_tables``), the seat order that decides who
starts, each table explained (``Table``) and the director's swap (``swap_players``).
The schedule in which nobody meets twice (the social golfer problem) is in ``golfer``.

Swiss by tables minimises, lexicographically, (1) the earlier meetings between players
at one table, (2) the sum over the tables of the squared match-point spread, (3) the sum
over the tables of the spread in standings positions (0-based places in the order match
points, board points, rank, id), which is smallest, n minus the number of tables,
exactly when every table is a run of neighbours in the standings. Up to
``EXACT_UP_TO`` players it enumerates every grouping (exact optimum); above, it groups
greedily from the top of the standings and improves by swapping two players between
tables, or moving one between a table of k + 1 and one of k, until no such change
lowers the cost (see docs/pairing.md, "Tables of 3 and 4").

Pure Python; this module must never import Django, the ORM or another app.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from itertools import combinations

from .common import bye_params, choose_bye, validate_entrants
from .records import (
    Explanation,
    ExplanationValue,
    PairingEntrant,
    PairingError,
    PastTable,
    RepeatMeeting,
    Table,
    TablePairing,
)
from .starters import STARTER_MODES, StarterMode
from .swiss import _match_point_scale, _tie_hash

__all__ = [
    "EXACT_UP_TO",
    "SIZE_CHOICES",
    "TableHistory",
    "grouping_cost",
    "random_tables",
    "standings_tables",
    "swap_players",
    "swiss_tables",
    "table_sizes",
]

SIZE_CHOICES: tuple[int | str, ...] = (2, 3, 4, "fours")
# 12 players into 4 tables of 3 are 15,400 groupings; 13 into 4 + 3 + 3 + 3 already 200,200.
EXACT_UP_TO = 12
# Tables this many places apart in the greedy order are tried for swaps; a table with a
# repeat meeting is tried against every table.
SWAP_WINDOW = 4
# Club-sized fields get this many perturbations of the local optimum (iterated local
# search); beyond, one greedy start and its swaps (measured in docs/pairing.md).
KICKS_UP_TO = 64
KICKS = 20


def table_sizes(present: int, choice: int | str) -> list[int]:
    """The table sizes for ``present`` players, largest first; a player left over
    (sum one short) has the bye.

    - ``2``: tables of 2, a bye when the number is odd (as the one-against-one evening);
    - ``3``: tables of 3; one table of 4 when one is left over, two when two are;
    - ``4`` and ``"fours"``: as many tables of 4 as possible, the rest of 3 (14 present:
      4, 4, 3, 3). The two are the same: no table of 5 exists, so the rest can only be 3s.

    A table of 2 only where no split into 3s and 4s exists: 2 present play one table
    of 2, 5 present play 3 + 2 (everyone plays rather than one bye). One player has a bye.
    """
    if choice not in SIZE_CHOICES or isinstance(choice, bool):
        raise PairingError(f"table size must be one of {SIZE_CHOICES}, not {choice!r}")
    if present < 0:
        raise PairingError("the number present cannot be negative")
    if present < 2:
        return []
    if choice == 2:
        return [2] * (present // 2)
    main, other = (3, 4) if choice == 3 else (4, 3)
    for others in range(main):
        rest = present - others * other
        if rest >= 0 and rest % main == 0:
            return sorted([main] * (rest // main) + [other] * others, reverse=True)
    return [3, 2] if present == 5 else [2]  # only 2 and 5 have no split into 3s and 4s


class TableHistory:
    """Earlier tables read for the players present: meetings per pair and seats.

    Per player: tables played, starts, and (over the tables whose playing order is
    known) the fair share of starts in twelfths (a table of k gives 12 / k) and how
    early they sat (+6 for seat 0 down to -6 for the last seat, in between evenly).
    Tables of players not present count only for the players who are.
    """

    def __init__(self, tables: Iterable[PastTable], present: Collection[int]) -> None:
        self.meetings: dict[tuple[int, int], tuple[int, int]] = {}
        self.played: dict[int, int] = dict.fromkeys(present, 0)
        self.starts: dict[int, int] = dict.fromkeys(present, 0)
        self.share12: dict[int, int] = dict.fromkeys(present, 0)
        self.early6: dict[int, int] = dict.fromkeys(present, 0)
        for table in tables:
            players = table.players
            size = len(players)
            if not 2 <= size <= 4 or len(set(players)) != size:
                raise PairingError(f"a past table has 2 to 4 different players, not {players}")
            for index, player in enumerate(players):
                if player not in self.played:
                    continue
                self.played[player] += 1
                if table.order_known:
                    self.starts[player] += index == 0
                    self.share12[player] += 12 // size
                    self.early6[player] += 6 * (size - 1 - 2 * index) // (size - 1)
                for other in players[index + 1 :]:
                    if other in self.played:
                        key = (min(player, other), max(player, other))
                        count, last = self.meetings.get(key, (0, 0))
                        self.meetings[key] = (count + 1, max(last, table.round_number))

    def count(self, a: int, b: int) -> int:
        return self.meetings.get((min(a, b), max(a, b)), (0, 0))[0]

    def seat_order(self, players: Sequence[int]) -> tuple[int, ...]:
        """Seat order for one table: whoever started least against their fair share
        sits first (and starts), then whoever sat late most often; a full tie is drawn
        by a fixed hash of the player and the number of tables they played, so that it
        changes from round to round.
        """
        return tuple(
            sorted(
                players,
                key=lambda p: (
                    12 * self.starts[p] - self.share12[p],
                    self.early6[p],
                    _tie_hash(p, self.played[p]),
                ),
            )
        )


def _check_sizes(sizes: Sequence[int], present: int) -> bool:
    """Validate the sizes; True when one player is left over for a bye."""
    if any(not isinstance(size, int) or not 2 <= size <= 4 for size in sizes):
        raise PairingError(f"tables have 2 to 4 players, not {list(sizes)}")
    extra = present - sum(sizes)
    if extra not in (0, 1):
        raise PairingError(f"tables of {list(sizes)} do not seat {present} players")
    return extra == 1


def check_starters(starters: str) -> None:
    if starters not in STARTER_MODES:
        raise PairingError(f"starters must be one of {STARTER_MODES}, not {starters!r}")


class Costs:
    """The cost of a table of positions 0..n-1, packed into one integer: earlier
    meetings above squared match-point spread above position spread. Each lower
    part's total over a round stays below one unit of the part above it, so comparing
    the sums compares (repeats, spread, places) lexicographically.

    ``match_points`` are whole numbers per position (all 0 for the golfer schedule);
    ``met[p]`` maps the positions p met to how often.
    """

    def __init__(self, match_points: Sequence[int], met: list[dict[int, int]], tables: int) -> None:
        self.match_points = list(match_points)
        self.met = met
        size = len(self.match_points)
        mp_range = max(self.match_points, default=0) - min(self.match_points, default=0)
        self.spread_unit = size * size + 1
        self.repeat_unit = (tables * mp_range * mp_range + 1) * self.spread_unit

    @classmethod
    def for_order(
        cls, order: Sequence[PairingEntrant], tables: int, history: TableHistory
    ) -> Costs:
        """Costs for entrants in Swiss order, match points in their smallest unit."""
        scale = _match_point_scale(entrant.match_points for entrant in order)
        position = {entrant.id: index for index, entrant in enumerate(order)}
        met: list[dict[int, int]] = [{} for _ in order]
        for (a, b), (count, _) in history.meetings.items():
            if a in position and b in position:
                met[position[a]][position[b]] = count
                met[position[b]][position[a]] = count
        points = [round(entrant.match_points * scale) for entrant in order]
        return cls(points, met, tables)

    def repeats(self, members: Sequence[int]) -> int:
        met = self.met
        total = 0
        for index, a in enumerate(members):
            row = met[a]
            if row:
                for b in members[index + 1 :]:
                    total += row.get(b, 0)
        return total

    def partial(self, members: Sequence[int]) -> tuple[int, int, int, int, int]:
        """What ``plus`` needs of a table without one player: repeats, the highest and
        lowest match points, the highest and lowest position.
        """
        points = [self.match_points[p] for p in members]
        return self.repeats(members), max(points), min(points), max(members), min(members)

    def plus(self, part: tuple[int, int, int, int, int], members: Sequence[int], new: int) -> int:
        """The cost of ``members`` (whose ``partial`` is ``part``) with ``new`` added."""
        repeats, high, low, last, first = part
        row = self.met[new]
        if row:
            for member in members:
                repeats += row.get(member, 0)
        points = self.match_points[new]
        spread = max(high, points) - min(low, points)
        return (
            repeats * self.repeat_unit
            + spread * spread * self.spread_unit
            + max(last, new)
            - min(first, new)
        )

    def of(self, part: tuple[int, int, int, int, int]) -> int:
        repeats, high, low, last, first = part
        return repeats * self.repeat_unit + (high - low) ** 2 * self.spread_unit + last - first

    def __call__(self, members: Sequence[int]) -> int:
        return self.of(self.partial(members))


def _exact(
    size: int, sizes: Sequence[int], cost: Callable[[Sequence[int]], int]
) -> list[list[int]]:
    """The cheapest grouping of positions 0..size-1, by enumerating every grouping
    (the table of the lowest remaining position, then the rest, remembered per set).
    """
    memo: dict[tuple[int, tuple[int, ...]], tuple[int, tuple[tuple[int, ...], ...]]] = {}

    def best(mask: int, remaining: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
        if not mask:
            return 0, ()
        key = (mask, remaining)
        if key in memo:
            return memo[key]
        members = [p for p in range(size) if mask >> p & 1]
        first, rest = members[0], members[1:]
        result: tuple[int, tuple[tuple[int, ...], ...]] | None = None
        for table_size in sorted(set(remaining), reverse=True):
            left = list(remaining)
            left.remove(table_size)
            for others in combinations(rest, table_size - 1):
                table = (first, *others)
                sub_mask = mask
                for p in table:
                    sub_mask &= ~(1 << p)
                sub_cost, groups = best(sub_mask, tuple(left))
                total = sub_cost + cost(table)
                if result is None or total < result[0]:
                    result = (total, (table, *groups))
        assert result is not None
        memo[key] = result
        return result

    _, groups = best((1 << size) - 1, tuple(sorted(sizes, reverse=True)))
    return [list(group) for group in groups]


def _greedy(size: int, sizes: Sequence[int], met: Sequence[dict[int, int]]) -> list[list[int]]:
    """Tables from the top of the standings down: each starts with the best placed
    player left and takes the next players who met nobody at it yet (looking a few
    places ahead), else those who met the fewest.
    """
    taken = [False] * size
    first = 0
    tables = []
    for table_size in sizes:
        while taken[first]:
            first += 1
        lookahead: list[int] = []
        candidate = first + 1
        while candidate < size and len(lookahead) < 3 * table_size + 6:
            if not taken[candidate]:
                lookahead.append(candidate)
            candidate += 1
        table = [first]
        for candidate in lookahead:
            if len(table) == table_size:
                break
            if not any(candidate in met[member] for member in table):
                table.append(candidate)
        if len(table) < table_size:
            rest = [c for c in lookahead if c not in table]
            rest.sort(key=lambda c: sum(met[member].get(c, 0) for member in table))
            table.extend(rest[: table_size - len(table)])
        for member in table:
            taken[member] = True
        tables.append(table)
    return tables


def improve(
    tables: list[list[int]],
    cost: Costs,
    *,
    window: int | None,
    urgent: int | None = None,
    dirty: Iterable[int] | None = None,
) -> None:
    """Local search in place: swap two players between two tables, or move one from
    a table of k + 1 to one of k, whenever that lowers the total cost, until no such
    change does.

    Tables are tried against those at most ``window`` places away (None: all); a table
    costing at least ``urgent`` (it has a repeat) against every table. A worklist keeps
    it cheap: only tables changed since (``dirty``, default all) are tried again, so at
    the end no such change between any two of these partners lowers the cost.
    """
    count = len(tables)
    costs = [cost(table) for table in tables]
    reach = count if window is None else window
    pending = sorted(set(range(count) if dirty is None else dirty))
    queued = [False] * count
    for i in pending:
        queued[i] = True
    queue = deque(pending)
    while queue:
        i = queue.popleft()
        queued[i] = False
        if urgent is not None and costs[i] >= urgent:
            partners: list[int] = [j for j in range(count) if j != i]
        else:
            near = range(max(0, i - reach), min(count, i + reach + 1))
            partners = [j for j in near if j != i]
            if urgent is not None:
                partners += [j for j in range(count) if costs[j] >= urgent and abs(j - i) > reach]
        for j in partners:
            if _best_change(tables, costs, i, j, cost):
                while _best_change(tables, costs, i, j, cost):
                    pass
                for changed in (i, j):
                    if not queued[changed]:
                        queued[changed] = True
                        queue.append(changed)
                if queued[i]:
                    break


def _best_change(tables: list[list[int]], costs: list[int], i: int, j: int, cost: Costs) -> bool:
    """Apply the best improving swap or move between tables i and j, if there is one.
    Each table without one of its players is costed once (``Costs.partial``).
    """
    first, second = tables[i], tables[j]
    best_total = costs[i] + costs[j]
    best: tuple[list[int], list[int]] | None = None
    seconds = []
    for index, b in enumerate(second):
        rest = second[:index] + second[index + 1 :]
        seconds.append((b, rest, cost.partial(rest)))
    for index, a in enumerate(first):
        rest_first = first[:index] + first[index + 1 :]
        part_first = cost.partial(rest_first)
        for b, rest_second, part_second in seconds:
            total = cost.plus(part_first, rest_first, b) + cost.plus(part_second, rest_second, a)
            if total < best_total:
                best_total, best = total, ([*rest_first, b], [*rest_second, a])
        if len(first) == len(second) + 1:
            total = cost.of(part_first) + cost.plus(cost.partial(second), second, a)
            if total < best_total:
                best_total, best = total, (rest_first, [*second, a])
    if len(second) == len(first) + 1:
        part_first = cost.partial(first)
        for b, rest_second, part_second in seconds:
            total = cost.plus(part_first, first, b) + cost.of(part_second)
            if total < best_total:
                best_total, best = total, ([*first, b], rest_second)
    if best is None:
        return False
    tables[i], tables[j] = best
    costs[i], costs[j] = cost(tables[i]), cost(tables[j])
    return True


def _heuristic(size: int, sizes: Sequence[int], cost: Costs, *, window: int) -> list[list[int]]:
    """Greedy, then swaps; up to ``KICKS_UP_TO`` players also ``KICKS`` times: swap two
    random pairs of players (seeded by the field size, so reproducible) and improve
    again, keeping the cheapest grouping found.
    """
    groups = _greedy(size, sorted(sizes, reverse=True), cost.met)
    improve(groups, cost, window=window, urgent=cost.repeat_unit)
    if size > KICKS_UP_TO or len(groups) < 2:
        return groups
    best, best_cost = groups, sum(map(cost, groups))
    draw = random.Random(size)
    for _ in range(KICKS):
        trial = [list(group) for group in best]
        kicked = set()
        for _ in range(2):
            i, j = draw.sample(range(len(trial)), 2)
            a, b = draw.randrange(len(trial[i])), draw.randrange(len(trial[j]))
            trial[i][a], trial[j][b] = trial[j][b], trial[i][a]
            kicked |= {i, j}
        improve(trial, cost, window=window, urgent=cost.repeat_unit, dirty=kicked)
        trial_cost = sum(map(cost, trial))
        if trial_cost < best_cost:
            best, best_cost = trial, trial_cost
    return best


def grouping_cost(
    entrants: Iterable[PairingEntrant],
    groups: Sequence[Sequence[int]],
    history: Iterable[PastTable] = (),
) -> tuple[int, int, int]:
    """The Swiss cost (repeat meetings, sum of squared match-point spreads in the
    smallest unit of the points present, sum of standings-position spreads) of grouping
    ``entrants`` (ids) into ``groups``. For tests and for the pairing page.
    """
    order = _swiss_order(list(entrants))
    position = {entrant.id: index for index, entrant in enumerate(order)}
    costs = Costs.for_order(order, len(groups), TableHistory(history, position))
    repeats = spread = places = 0
    for group in groups:
        members = [position[player] for player in group]
        points = [costs.match_points[p] for p in members]
        repeats += costs.repeats(members)
        spread += (max(points) - min(points)) ** 2
        places += max(members) - min(members)
    return repeats, spread, places


def _swiss_order(entrants: Sequence[PairingEntrant]) -> list[PairingEntrant]:
    return sorted(entrants, key=lambda e: (-e.match_points, -e.board_points, e.rank, e.id))


def explain(
    number: int,
    players: Sequence[int],
    *,
    seated: bool,
    by_id: dict[int, PairingEntrant],
    history: TableHistory,
) -> Table:
    """One table with its repeat meetings and spreads (players already in seat order)."""
    repeats = []
    for index, a in enumerate(players):
        for b in players[index + 1 :]:
            meeting = history.meetings.get((min(a, b), max(a, b)))
            if meeting is not None:
                repeats.append(RepeatMeeting(a, b, meeting[0], meeting[1]))
    match_points = [by_id[p].match_points for p in players]
    board_points = [by_id[p].board_points for p in players]
    return Table(
        number=number,
        players=tuple(players),
        seated=seated,
        repeats=tuple(repeats),
        match_point_spread=max(match_points) - min(match_points),
        board_point_spread=max(board_points) - min(board_points),
    )


def finish_tables(
    groups: Sequence[Sequence[int]],
    ordered: Sequence[PairingEntrant],
    bye: int | None,
    history: TableHistory,
    *,
    system: str,
    starters: str,
    number_by_standing: bool,
    method: str,
    params: dict[str, ExplanationValue] | None = None,
) -> TablePairing:
    """Number the tables (by their best placed player, or in the order given), seat
    each one and explain it, and the whole round (``method``, ``params``; the sizes, the
    repeats and the bye are added here).
    """
    place = {entrant.id: index for index, entrant in enumerate(ordered)}
    by_id = {entrant.id: entrant for entrant in ordered}
    standing = [sorted(group, key=place.__getitem__) for group in groups]
    if number_by_standing:
        standing.sort(key=lambda group: place[group[0]])
    seated = starters == "assigned"
    tables = tuple(
        explain(
            number,
            history.seat_order(group) if seated else group,
            seated=seated,
            by_id=by_id,
            history=history,
        )
        for number, group in enumerate(standing, 1)
    )
    explanation = Explanation.of(
        system,
        method,
        sizes="+".join(str(size) for size in sorted(map(len, standing), reverse=True)),
        repeats_left=sum(len(table.repeats) for table in tables),
        **bye_params(ordered, bye),
        **(params or {}),
    )
    return TablePairing(tables=tables, bye=bye, system=system, explanation=explanation)


def prepare_round(
    entrants: Iterable[PairingEntrant], sizes: Sequence[int], history: Iterable[PastTable]
) -> tuple[list[PairingEntrant], PairingEntrant | None, list[PairingEntrant], TableHistory]:
    """Standings order, the bye (common rule), the players to seat, the history."""
    ordered = validate_entrants(entrants)
    needs_bye = _check_sizes(sizes, len(ordered))
    bye = choose_bye(ordered, needed=needs_bye)
    players = [entrant for entrant in ordered if bye is None or entrant.id != bye.id]
    return ordered, bye, players, TableHistory(history, [entrant.id for entrant in ordered])


def swiss_tables(
    entrants: Iterable[PairingEntrant],
    sizes: Sequence[int],
    history: Iterable[PastTable] = (),
    *,
    starters: StarterMode | str = "assigned",
    exact_up_to: int = EXACT_UP_TO,
    window: int = SWAP_WINDOW,
) -> TablePairing:
    """Swiss by tables: players grouped by standing (the top group at table 1), as
    few earlier meetings at one table as possible, then the smallest match-point spread.

    ``sizes`` is the multiset of table sizes (``table_sizes``); a player left over gets
    the bye by the common rule. Exact up to ``exact_up_to`` players, else greedy plus
    swaps (module docstring). ``starters="by_lot"`` leaves the seat order to the table.
    """
    check_starters(starters)
    if window < 1:
        raise PairingError("window must be at least 1")
    ordered, bye, players, table_history = prepare_round(entrants, sizes, history)
    order = _swiss_order(players)
    cost = Costs.for_order(order, len(sizes), table_history)
    if len(order) <= exact_up_to:
        groups = _exact(len(order), sizes, cost)
    else:
        groups = _heuristic(len(order), sizes, cost, window=window)
    return finish_tables(
        [[order[p].id for p in group] for group in groups],
        ordered,
        bye.id if bye else None,
        table_history,
        system="swiss",
        starters=starters,
        number_by_standing=True,
        method="exact" if len(order) <= exact_up_to else "local_search",
    )


def random_tables(
    entrants: Iterable[PairingEntrant],
    sizes: Sequence[int],
    history: Iterable[PastTable] = (),
    *,
    seed: int,
    starters: StarterMode | str = "assigned",
) -> TablePairing:
    """Random tables, reproducible from ``seed``: the ids sorted, shuffled with
    ``random.Random(seed)`` and cut into the sizes in the order given. The bye follows
    the common rule, not the draw; tables are numbered in the order drawn.
    """
    check_starters(starters)
    ordered, bye, players, table_history = prepare_round(entrants, sizes, history)
    ids = sorted(entrant.id for entrant in players)
    random.Random(seed).shuffle(ids)
    return finish_tables(
        cut_into_tables(ids, sizes),
        ordered,
        bye.id if bye else None,
        table_history,
        system="random",
        starters=starters,
        number_by_standing=False,
        method="draw",
        params={"seed": seed},
    )


def cut_into_tables(ids: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """`ids` in their order, cut into consecutive tables of `sizes`."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(ids[start : start + size]))
        start += size
    return tables


def standings_tables(
    entrants: Iterable[PairingEntrant],
    sizes: Sequence[int],
    history: Iterable[PastTable] = (),
    *,
    starters: StarterMode | str = "assigned",
) -> TablePairing:
    """King of the Hill at tables ("op de stand"): the standings cut in order, the top
    players at table 1, repeats allowed as in the pairs' King of the Hill. The bye
    follows the common rule.
    """
    check_starters(starters)
    ordered, bye, players, table_history = prepare_round(entrants, sizes, history)
    return finish_tables(
        cut_into_tables([entrant.id for entrant in players], sizes),
        ordered,
        bye.id if bye else None,
        table_history,
        system="king_of_the_hill",
        starters=starters,
        number_by_standing=True,
        method="standings_order",
    )


def swap_players(
    pairing: TablePairing,
    a: int,
    b: int,
    entrants: Iterable[PairingEntrant],
    history: Iterable[PastTable] = (),
) -> TablePairing:
    """The director's swap: ``a`` and ``b`` change places and every changed table is
    explained again.

    Two players at one table exchange seats (that is how the director chooses who
    starts). Players at different tables, or a player and the bye, change tables; a
    changed table is seated again by the starts rule when the round's seats are
    assigned, so the swap keeps the starts fair. Table numbers stay.
    """
    ordered = validate_entrants(entrants)
    by_id = {entrant.id: entrant for entrant in ordered}
    where: dict[int, int | None] = {}
    for index, table in enumerate(pairing.tables):
        for player in table.players:
            where[player] = index
    if pairing.bye is not None:
        where[pairing.bye] = None
    for player in (a, b):
        if player not in where:
            raise PairingError(f"player {player} is not in this round")
        if player not in by_id:
            raise PairingError(f"player {player} is not among the entrants")
    if a == b:
        return pairing
    table_history = TableHistory(history, list(by_id))
    tables = list(pairing.tables)
    place = {entrant.id: index for index, entrant in enumerate(ordered)}
    table_a, table_b = where[a], where[b]
    bye = pairing.bye
    if table_a is not None and table_a == table_b:
        table = tables[table_a]
        swapped = [b if p == a else a if p == b else p for p in table.players]
        tables[table_a] = explain(
            table.number, swapped, seated=table.seated, by_id=by_id, history=table_history
        )
        return replace(pairing, tables=tuple(tables), bye=bye)
    for own, incoming, outgoing in ((table_a, b, a), (table_b, a, b)):
        if own is None:
            bye = incoming
            continue
        table = tables[own]
        players = [incoming if p == outgoing else p for p in table.players]
        if table.seated:
            players = list(table_history.seat_order(players))
        else:
            players.sort(key=place.__getitem__)
        tables[own] = explain(
            table.number, players, seated=table.seated, by_id=by_id, history=table_history
        )
    return replace(pairing, tables=tuple(tables), bye=bye)
