"""Shared helpers for the pairing tests: random competitions and a brute-force
optimum over every perfect matching (only for small fields).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hypothesis import strategies as st

from pairing.core import (
    CRITERIA,
    PairingEntrant,
    PastGame,
    SwissWeights,
    choose_bye,
    swiss,
)
from pairing.core.simulation import Ledger


def perfect_matchings(ids: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of an even-sized list (11!! = 10,395 for 12)."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for index, partner in enumerate(rest):
        remaining = rest[:index] + rest[index + 1 :]
        for matching in perfect_matchings(remaining):
            yield [(first, partner), *matching]


def brute_force(
    entrants: Sequence[PairingEntrant], *, starters: str = "assigned"
) -> tuple[int, tuple[int, ...], int]:
    """(best total weight, lexicographically smallest criteria totals without the tie
    break, fewest repeat meetings) over all perfect matchings of the non-bye entrants.
    """
    bye = choose_bye(entrants)
    players = [e for e in entrants if bye is None or e.id != bye.id]
    weights = SwissWeights(players, starters=starters)
    ids = [e.id for e in players]
    # Each pair's weight and criteria once (66 pairs for 12), not once per matching
    # (10,395 matchings of 6 pairs).
    weight = {(a, b): weights.weight(a, b) for a in ids for b in ids if a != b}
    pair_criteria = {
        (a, b): weights.criteria(a, b)[: len(CRITERIA) - 1] for a in ids for b in ids if a != b
    }
    best_weight = 0
    best_criteria: tuple[int, ...] | None = None
    for matching in perfect_matchings(ids):
        total = sum(weight[pair] for pair in matching)
        best_weight = max(best_weight, total)
        criteria = tuple(
            sum(pair_criteria[pair][index] for pair in matching)
            for index in range(len(CRITERIA) - 1)
        )
        if best_criteria is None or criteria < best_criteria:
            best_criteria = criteria
    assert best_criteria is not None
    return best_weight, best_criteria, best_criteria[0]


@st.composite
def played_competitions(
    draw, *, min_players: int = 1, max_players: int = 12, max_rounds: int = 8, absent: float = 0.15
):
    """Entrant records after a simulated club competition with absences and late
    entrants: (entrants present tonight, next round number).
    """
    players = draw(st.integers(min_value=min_players, max_value=max_players))
    rounds = draw(st.integers(min_value=0, max_value=max_rounds))
    seed = draw(st.integers(min_value=0, max_value=10_000))
    starters = draw(st.sampled_from(["assigned", "by_lot"]))
    ids = draw(st.lists(st.integers(1, 500), min_size=players, max_size=players, unique=True))
    ledger = Ledger([], seed=seed)
    joined: list[int] = []
    for number in range(1, rounds + 2):
        # Late entrants join at any round; a few players miss any round.
        for player_id in ids:
            late = ledger.random.random() < 0.3 and number < rounds + 1
            if player_id not in joined and (number == 1 or late or number == rounds + 1):
                ledger.add(player_id)
                joined.append(player_id)
        present = [pid for pid in joined if ledger.random.random() >= absent]
        if number == rounds + 1:
            return ledger.entrants(present), number, starters
        if present:
            ledger.play(
                swiss(ledger.entrants(present), round_number=number, starters=starters), number
            )
    raise AssertionError("unreachable")


@st.composite
def arbitrary_entrants(draw, *, max_players: int = 10):
    """Records not produced by any pairing engine: any points, any history (one-sided
    and with repeats), shared ranks. The engine must cope with them too.
    """
    count = draw(st.integers(min_value=1, max_value=max_players))
    ids = draw(st.lists(st.integers(1, 99), min_size=count, max_size=count, unique=True))
    entrants = []
    for player_id in ids:
        opponents = draw(
            st.lists(
                st.builds(
                    PastGame,
                    opponent_id=st.sampled_from(ids),
                    round_number=st.integers(1, 6),
                    started=st.sampled_from([True, False, None]),
                ),
                max_size=6,
            )
        )
        entrants.append(
            PairingEntrant(
                id=player_id,
                rank=draw(st.integers(1, count)),
                match_points=draw(st.sampled_from([0, 0.5, 1, 1.5, 2, 3, 4, 6])),
                board_points=draw(st.integers(0, 3000)),
                byes=draw(st.integers(0, 2)),
                starts=draw(st.integers(0, 3)),
                games=draw(st.integers(3, 6)),
                recent_starts=tuple(draw(st.lists(st.booleans(), max_size=4))),
                opponents=tuple(g for g in opponents if g.opponent_id != player_id),
            )
        )
    return entrants
