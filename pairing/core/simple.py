"""The pairing systems that need no optimisation: King of the Hill, random, a first
round by rating or seed, and a round robin round as a ``Pairing``.

All of them give the bye by the common rule first (lowest placed among those with the
fewest byes), then pair the rest, number the tables by the higher placed player and
assign or leave open the starters.

Pure Python; this module must never import Django, the ORM or another app.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from .common import (
    MeetingHistory,
    build_pairs,
    bye_params,
    choose_bye,
    repeats_in,
    standing_key,
    table_order,
    validate_entrants,
)
from .records import Explanation, ExplanationValue, Pairing, PairingEntrant, PairingError
from .round_robin import round_robin_round, rounds_needed
from .starters import StarterMode, assign_starters

__all__ = [
    "RATING_METHODS",
    "by_rating",
    "king_of_the_hill",
    "random_pairing",
    "round_robin",
]

RatingMethod = Literal["slide", "fold", "adjacent"]
RATING_METHODS: tuple[str, ...] = ("slide", "fold", "adjacent")


def _finish(
    games: Iterable[tuple[int, int]],
    everyone: Sequence[PairingEntrant],
    bye: int | None,
    *,
    system: str,
    starters: StarterMode | str,
    method: str,
    params: dict[str, ExplanationValue],
    order: Sequence[PairingEntrant] | None = None,
    fixed_starters: dict[tuple[int, int], int] | None = None,
) -> Pairing:
    """Number the tables by ``order`` (default: standings), settle the starters and say
    why (``method`` and ``params`` of the explanation; the repeats are counted here)."""
    games = list(games)
    order = order if order is not None else everyone
    position = {entrant.id: index for index, entrant in enumerate(order)}
    by_id = {entrant.id: entrant for entrant in everyone}
    history = MeetingHistory(everyone)
    ordered_games = table_order(games, position)
    if fixed_starters is not None and starters == "assigned":
        starter_ids: tuple[int | None, ...] = tuple(fixed_starters[game] for game in ordered_games)
    else:
        starter_ids = assign_starters(ordered_games, everyone, starters=starters, history=history)
    return Pairing(
        pairs=build_pairs(ordered_games, starter_ids, by_id, history),
        bye=bye,
        weight=None,
        system=system,
        explanation=Explanation.of(
            system, method, repeats_left=repeats_in(games, history), **params
        ),
    )


def _without_bye(
    ordered: Sequence[PairingEntrant],
    strongest_first: Callable[[PairingEntrant], Any] = standing_key,
) -> tuple[list[PairingEntrant], int | None]:
    bye = choose_bye(ordered, strongest_first=strongest_first)
    if bye is None:
        return list(ordered), None
    return [entrant for entrant in ordered if entrant.id != bye.id], bye.id


def king_of_the_hill(
    entrants: Iterable[PairingEntrant], *, starters: StarterMode | str = "assigned"
) -> Pairing:
    """1 v 2, 3 v 4, … by current standing (repeats allowed: that is the system)."""
    ordered = validate_entrants(entrants)
    players, bye = _without_bye(ordered)
    games = [(players[i].id, players[i + 1].id) for i in range(0, len(players) - 1, 2)]
    return _finish(
        games,
        ordered,
        bye,
        system="king_of_the_hill",
        starters=starters,
        method="standings_order",
        params=bye_params(ordered, bye),
    )


def random_pairing(
    entrants: Iterable[PairingEntrant], *, seed: int, starters: StarterMode | str = "assigned"
) -> Pairing:
    """Random pairs, reproducible from ``seed`` (typically for round one).

    The entrants are sorted by id before shuffling with ``random.Random(seed)``, so the
    input order does not matter. The bye follows the common rule, not the draw.
    """
    ordered = validate_entrants(entrants)
    players, bye = _without_bye(ordered)
    ids = sorted(entrant.id for entrant in players)
    random.Random(seed).shuffle(ids)
    games = [(ids[i], ids[i + 1]) for i in range(0, len(ids) - 1, 2)]
    return _finish(
        games,
        ordered,
        bye,
        system="random",
        starters=starters,
        method="draw",
        params={"seed": seed, **bye_params(ordered, bye)},
    )


def _rating_order(order_by: str) -> Callable[[PairingEntrant], tuple[Any, ...]]:
    """Strongest first. Missing ratings / seeds go last, then rank and id decide."""
    if order_by == "rating":
        return lambda e: (
            e.rating is None,
            -(e.rating or 0),
            e.seed is None,
            e.seed or 0,
            e.rank,
            e.id,
        )
    if order_by == "seed":
        return lambda e: (
            e.seed is None,
            e.seed or 0,
            e.rating is None,
            -(e.rating or 0),
            e.rank,
            e.id,
        )
    raise PairingError(f"order_by must be 'rating' or 'seed', not {order_by!r}")


def by_rating(
    entrants: Iterable[PairingEntrant],
    *,
    method: RatingMethod | str = "slide",
    order_by: Literal["rating", "seed"] | str = "rating",
    starters: StarterMode | str = "assigned",
) -> Pairing:
    """A first round by rating (or seed), strongest first as 1..n.

    - ``"slide"``: top half against bottom half, 1 v n/2+1, 2 v n/2+2, …
    - ``"fold"``: 1 v n, 2 v n-1, … (strongest against weakest)
    - ``"adjacent"``: 1 v 2, 3 v 4, …

    With an odd number the weakest without a bye sits out first, then n counts the rest.
    Tables are numbered in the same strongest-first order.
    """
    if method not in RATING_METHODS:
        raise PairingError(f"method must be one of {RATING_METHODS}, not {method!r}")
    key = _rating_order(order_by)
    ordered = validate_entrants(entrants)
    strength_order = sorted(ordered, key=key)
    players, bye = _without_bye(strength_order, strongest_first=key)
    half = len(players) // 2
    if method == "slide":
        games = [(players[i].id, players[i + half].id) for i in range(half)]
    elif method == "fold":
        games = [(players[i].id, players[-1 - i].id) for i in range(half)]
    else:
        games = [(players[i].id, players[i + 1].id) for i in range(0, 2 * half, 2)]
    return _finish(
        games,
        ordered,
        bye,
        system="by_rating",
        starters=starters,
        order=strength_order,
        method=method,
        params={"order_by": order_by, **bye_params(strength_order, bye, strongest_first=key)},
    )


def round_robin(
    entrants: Iterable[PairingEntrant],
    *,
    round_number: int,
    double: bool = False,
    starters: StarterMode | str = "assigned",
) -> Pairing:
    """Round ``round_number`` of the Berger round robin of these entrants.

    Berger numbers follow the seed (1 first; entrants without a seed after, by id); pass
    every entrant of the group each round, present or not, so the schedule stays put.
    With assigned starters the Berger table's first player starts; the bye rotates.
    """
    ordered = validate_entrants(entrants)
    berger_order = sorted(ordered, key=lambda e: (e.seed is None, e.seed or 0, e.id))
    scheduled = round_robin_round(
        [entrant.id for entrant in berger_order], round_number, double=double
    )
    fixed = {}
    for first, second in scheduled.games:
        fixed[(first, second)] = first
        fixed[(second, first)] = first
    return _finish(
        scheduled.games,
        ordered,
        scheduled.bye,
        system="round_robin",
        starters=starters,
        fixed_starters=fixed,
        method="berger",
        params={
            "schedule_round": round_number,
            "schedule_rounds": rounds_needed(len(ordered), double=double),
            "double": double,
            "bye_to": scheduled.bye,
            "bye_reason": "schedule" if scheduled.bye is not None else None,
        },
    )
