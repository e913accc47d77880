"""One entry point for every pairing system, for the manage.py command and the
services: ``pair("swiss", entrants, round_number=5)``; for tables of 2 to 4,
``pair_tables("swiss", entrants, table_sizes(14, "fours"), history=...)``.

Pure Python; this module must never import Django, the ORM or another app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .golfer import golfer_tables
from .records import Pairing, PairingEntrant, PairingError, TablePairing
from .simple import by_rating, king_of_the_hill, random_pairing, round_robin
from .swiss import swiss
from .tables import random_tables, standings_tables, swiss_tables

__all__ = ["SYSTEMS", "TABLE_SYSTEMS", "pair", "pair_tables"]

# Canonical name -> accepted spellings (the command line uses the short ones).
SYSTEMS: dict[str, tuple[str, ...]] = {
    "swiss": ("swiss",),
    "round_robin": ("round_robin", "rr"),
    "king_of_the_hill": ("king_of_the_hill", "koth"),
    "random": ("random",),
    "by_rating": ("by_rating", "rating", "seed"),
}
_ALIASES = {alias: name for name, aliases in SYSTEMS.items() for alias in aliases}


def pair(system: str, entrants: Iterable[PairingEntrant], **options: Any) -> Pairing:
    """Pair a round with the named system.

    Options per system (all keyword): ``starters`` ("assigned" | "by_lot") for all;
    swiss: ``round_number`` (required), ``window``; round_robin: ``round_number``
    (required), ``double``; random: ``seed`` (required); by_rating: ``method``,
    ``order_by`` ("seed" as system name implies ``order_by="seed"``). Options a system
    does not know are refused rather than ignored.
    """
    name = _ALIASES.get(system)
    if name is None:
        raise PairingError(f"unknown pairing system {system!r}; known: {sorted(_ALIASES)}")
    if system == "seed":
        options.setdefault("order_by", "seed")
    engines: dict[str, Callable[..., Pairing]] = {
        "swiss": swiss,
        "round_robin": round_robin,
        "king_of_the_hill": king_of_the_hill,
        "random": random_pairing,
        "by_rating": by_rating,
    }
    try:
        return engines[name](entrants, **options)
    except TypeError as error:
        raise PairingError(f"{name}: {error}") from error


# The systems that pair into tables of 2 to 4 (``pair_tables``).
TABLE_SYSTEMS: dict[str, tuple[str, ...]] = {
    "swiss": ("swiss",),
    "random": ("random",),
    "golfer": ("golfer", "social_golfer"),
    "king_of_the_hill": ("king_of_the_hill", "koth"),
}
_TABLE_ALIASES = {alias: name for name, aliases in TABLE_SYSTEMS.items() for alias in aliases}


def pair_tables(
    system: str, entrants: Iterable[PairingEntrant], sizes: Sequence[int], **options: Any
) -> TablePairing:
    """Pair a round into tables of ``sizes`` with the named system.

    Options (all keyword): ``history`` (``PastTable`` records) and ``starters`` for
    all; random: ``seed`` (required); golfer: ``round_number`` (required); swiss:
    ``exact_up_to``, ``window``; king_of_the_hill (the standings cut in order): none.
    Unknown options are refused. ``pair`` stays the way
    in for one against one: its systems and results do not change.
    """
    name = _TABLE_ALIASES.get(system)
    if name is None:
        raise PairingError(
            f"unknown table pairing system {system!r}; known: {sorted(_TABLE_ALIASES)}"
        )
    engines: dict[str, Callable[..., TablePairing]] = {
        "swiss": swiss_tables,
        "random": random_tables,
        "golfer": golfer_tables,
        "king_of_the_hill": standings_tables,
    }
    try:
        return engines[name](entrants, sizes, **options)
    except TypeError as error:
        raise PairingError(f"{name}: {error}") from error
