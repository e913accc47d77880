"""A schedule of tables in which nobody meets the same opponent twice for as long as
the numbers allow (the social golfer problem), and a round of it as a ``TablePairing``.

What is guaranteed:

- tables of 2: the Berger round robin, so n - 1 rounds (n even; n rounds with a
  rotating bye when odd) meet everyone exactly once;
- n = k * q players at tables of k, q a prime power, q >= k: the first q rounds are a
  resolvable transversal design from the affine plane over GF(q): player (x, y), x
  one of k columns, y in GF(q), sits in round m at the table of the line
  y = m * x + c. Two players in different columns meet exactly once in these q rounds;
  for q = k one more round, the columns, completes the affine plane (16 at tables of
  4: 5 rounds meeting everyone exactly once; 9 at tables of 3: 4 rounds);
- every other round is searched given all rounds before it: a depth-first search for
  a round without any repeat, exhaustive within ``SEARCH_BUDGET`` steps; if it proves
  that none exists (or runs out of steps) the round minimises the repeat meetings by
  local search (``tables.improve``). So a round repeats only when no repeat-free round
  exists after the earlier ones, or the budget ran out (not seen up to 40 players).
  Round by round is not optimal over the whole schedule: 12 at tables of 3 get 4
  repeat-free rounds, while 5 exist.

Pure Python; this module must never import Django, the ORM or another app.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .records import PairingEntrant, PairingError, PastTable, TablePairing
from .round_robin import round_robin_round, rounds_needed
from .starters import StarterMode
from .tables import (
    Costs,
    check_starters,
    cut_into_tables,
    finish_tables,
    improve,
    prepare_round,
    table_sizes,
)

__all__ = ["SEARCH_BUDGET", "GolferRound", "golfer_schedule", "golfer_tables"]

SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class GolferRound:
    """One round of the schedule: its tables (ids), the bye, and the earlier meetings
    between players at one table in this round (0 = no repeat).
    """

    round_number: int
    tables: tuple[tuple[int, ...], ...]
    bye: int | None
    repeats: int


def _prime_power(q: int) -> tuple[int, int] | None:
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest //= p
                k += 1
            return (p, k) if rest == 1 else None
    return None


def _poly_mod(poly: list[int], modulus: list[int], p: int) -> list[int]:
    """``poly`` modulo the monic ``modulus`` over GF(p), coefficients lowest first."""
    poly = poly[:]
    degree = len(modulus) - 1
    for top in range(len(poly) - 1, degree - 1, -1):
        factor = poly[top] % p
        if factor:
            for index, coefficient in enumerate(modulus):
                poly[top - degree + index] = (poly[top - degree + index] - factor * coefficient) % p
    return [c % p for c in poly[:degree]] + [0] * (degree - len(poly))


def _digits(value: int, p: int, k: int) -> list[int]:
    return [value // p**index % p for index in range(k)]


def _field_multiplication(q: int) -> list[list[int]] | None:
    """The multiplication table of GF(q) (elements 0..q-1, addition digit-wise mod p),
    or None when q is not a prime power.
    """
    found = _prime_power(q)
    if found is None:
        return None
    p, k = found

    def times(a: list[int], b: list[int]) -> list[int]:
        product = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                product[i + j] = (product[i + j] + x * y) % p
        return product

    # A monic polynomial of degree k with no factor of lower degree is irreducible.
    def monic(degree: int) -> Iterable[list[int]]:
        for value in range(p**degree):
            yield [*_digits(value, p, degree), 1]

    modulus = None
    for candidate in monic(k):
        if all(
            any(_poly_mod(candidate, factor, p))
            for d in range(1, k // 2 + 1)
            for factor in monic(d)
        ):
            modulus = candidate
            break
    assert modulus is not None
    elements = [_digits(value, p, k) for value in range(q)]
    index = {tuple(element): value for value, element in enumerate(elements)}
    return [[index[tuple(_poly_mod(times(a, b), modulus, p))] for b in elements] for a in elements]


def _add(a: int, b: int, p: int, k: int) -> int:
    return sum(
        (x + y) % p * p**i
        for i, (x, y) in enumerate(zip(_digits(a, p, k), _digits(b, p, k), strict=True))
    )


def _design(count: int, size: int) -> list[list[list[int]]]:
    """The rounds of the transversal design for ``count`` = size * q (q a prime power
    at least ``size``), as tables of indices, or [] when the numbers do not fit.
    """
    if size < 2 or count % size:
        return []
    q = count // size
    multiply = _field_multiplication(q) if q >= size else None
    if multiply is None:
        return []
    p, k = _prime_power(q) or (q, 1)
    rounds = []
    for slope in range(q):
        tables = []
        for offset in range(q):
            tables.append([x * q + _add(multiply[slope][x], offset, p, k) for x in range(size)])
        rounds.append(tables)
    if q == size:
        rounds.append([[x * q + y for y in range(q)] for x in range(size)])
    return rounds


class _OutOfBudget(Exception):
    pass


def _repeat_free(
    count: int, sizes: Sequence[int], met: Sequence[int], budget: int
) -> list[list[int]] | None:
    """A round of indices 0..count-1 in which nobody meets anyone of ``met`` (a bit
    mask per index), or None when none exists. Depth first: the player with the fewest
    possible table mates first. Raises ``_OutOfBudget`` after ``budget`` steps.
    """
    steps = 0

    def cliques(candidates: int, need: int) -> Iterable[list[int]]:
        nonlocal steps
        if need == 0:
            yield []
            return
        while candidates:
            low = candidates & -candidates
            player = low.bit_length() - 1
            candidates &= ~low
            steps += 1
            if steps > budget:
                raise _OutOfBudget
            for rest in cliques(candidates & ~met[player], need - 1):
                yield [player, *rest]

    def solve(free: int, remaining: tuple[int, ...]) -> list[list[int]] | None:
        if not free:
            return []
        options = []
        rest = free
        while rest:
            low = rest & -rest
            player = low.bit_length() - 1
            rest &= ~low
            mates = free & ~met[player] & ~low
            options.append((mates.bit_count(), player, mates))
        _, player, mates = min(options)
        for size in sorted(set(remaining), reverse=True):
            left = list(remaining)
            left.remove(size)
            for others in cliques(mates, size - 1):
                table = [player, *others]
                mask = free
                for member in table:
                    mask &= ~(1 << member)
                found = solve(mask, tuple(left))
                if found is not None:
                    return [table, *found]
        return None

    return solve((1 << count) - 1, tuple(sizes))


def _search_round(
    count: int, sizes: Sequence[int], counts: list[dict[int, int]], budget: int
) -> list[list[int]]:
    """The round after the earlier ones (``counts``: meetings per index): repeat-free
    if the search finds one, else the fewest repeat meetings local search reaches.
    """
    masks = [sum(1 << other for other in row) for row in counts]
    try:
        found = _repeat_free(count, sizes, masks, budget)
    except _OutOfBudget:
        found = None
    if found is not None:
        return found
    cost = Costs([0] * count, counts, len(sizes))
    tables = cut_into_tables(range(sum(sizes)), sorted(sizes, reverse=True))
    improve(tables, cost, window=None)
    return tables


def _meet(counts: list[dict[int, int]], tables: Iterable[Sequence[int]]) -> int:
    """Record one round's meetings; return the earlier meetings it repeated."""
    repeats = 0
    for table in tables:
        for index, a in enumerate(table):
            for b in table[index + 1 :]:
                repeats += counts[a].get(b, 0)
                counts[a][b] = counts[a].get(b, 0) + 1
                counts[b][a] = counts[b].get(a, 0) + 1
    return repeats


def golfer_schedule(
    ids: Sequence[int], table_size: int, rounds: int, *, budget: int = SEARCH_BUDGET
) -> list[GolferRound]:
    """``rounds`` rounds of ``ids`` at tables of ``table_size`` (2, 3 or 4; a number
    that does not divide gives the ``table_sizes`` split), nobody meeting twice for as
    long as the construction and the search allow (module docstring).

    The ids are numbered in the order given (the caller orders them by seed or by lot).
    """
    if len(set(ids)) != len(ids):
        raise PairingError("the schedule's players must be distinct")
    if len(ids) < 2:
        raise PairingError("a schedule needs at least two players")
    if table_size not in (2, 3, 4) or rounds < 0:
        raise PairingError("tables of 2, 3 or 4 players and a number of rounds, please")
    count = len(ids)
    counts: list[dict[int, int]] = [{} for _ in ids]
    index = {player: position for position, player in enumerate(ids)}
    schedule = []
    if table_size == 2:
        cycle = rounds_needed(count)
        for number in range(1, rounds + 1):
            scheduled = round_robin_round(ids, (number - 1) % cycle + 1)
            tables = [[index[a], index[b]] for a, b in scheduled.games]
            repeats = _meet(counts, tables)
            schedule.append(GolferRound(number, tuple(scheduled.games), scheduled.bye, repeats))
        return schedule
    sizes = table_sizes(count, table_size)
    designed = _design(count, table_size)
    for number in range(1, rounds + 1):
        if number <= len(designed):
            tables = designed[number - 1]
        else:
            tables = _search_round(count, sizes, counts, budget)
        repeats = _meet(counts, tables)
        schedule.append(
            GolferRound(
                number,
                tuple(tuple(ids[p] for p in sorted(table)) for table in tables),
                None,
                repeats,
            )
        )
    return schedule


def golfer_tables(
    entrants: Iterable[PairingEntrant],
    sizes: Sequence[int],
    history: Iterable[PastTable] = (),
    *,
    round_number: int,
    starters: StarterMode | str = "assigned",
    budget: int = SEARCH_BUDGET,
) -> TablePairing:
    """Round ``round_number`` of a competition paired so that nobody meets twice.

    When all tables have one size and nobody has the bye, the round of
    ``golfer_schedule`` (players by id) is taken unless it repeats more earlier
    meetings of the real history than a round searched on that history (absences and
    late entrants break the schedule; the search does not need it). Otherwise the
    round is searched. Tables are numbered by their best placed player and seated by
    the starts rule.
    """
    check_starters(starters)
    if round_number < 1:
        raise PairingError("round_number starts at 1")
    ordered, bye, players, table_history = prepare_round(entrants, sizes, history)
    ids = sorted(entrant.id for entrant in players)
    position = {player: index for index, player in enumerate(ids)}
    counts: list[dict[int, int]] = [{} for _ in ids]
    for (a, b), (count, _) in table_history.meetings.items():
        if a in position and b in position:
            counts[position[a]][position[b]] = count
            counts[position[b]][position[a]] = count
    cost = Costs([0] * len(ids), counts, len(sizes))
    searched = _search_round(len(ids), sizes, counts, budget) if ids else []
    groups, method = searched, "search"
    if bye is None and ids and len(set(sizes)) == 1 and len(ids) % sizes[0] == 0:
        planned_round = golfer_schedule(ids, sizes[0], round_number, budget=budget)[-1]
        planned = [[position[p] for p in table] for table in planned_round.tables]
        if sum(cost.repeats(t) for t in planned) <= sum(cost.repeats(t) for t in searched):
            groups, method = planned, "schedule"
    return finish_tables(
        [[ids[p] for p in group] for group in groups],
        ordered,
        bye.id if bye else None,
        table_history,
        system="golfer",
        starters=starters,
        number_by_standing=True,
        method=method,
        params={"schedule_round": round_number},
    )
