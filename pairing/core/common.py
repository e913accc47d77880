"""Helpers every pairing engine shares: input checks, standings order, meeting
history, the bye rule and turning pairs into numbered tables.

Pure Python; this module must never import Django, the ORM or another app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .records import ExplanationValue, Pair, PairingEntrant, PairingError

__all__ = [
    "Meeting",
    "MeetingHistory",
    "build_pairs",
    "bye_params",
    "choose_bye",
    "repeats_in",
    "standing_key",
    "table_order",
    "validate_entrants",
]


def validate_entrants(entrants: Iterable[PairingEntrant]) -> list[PairingEntrant]:
    """Return the entrants in standings order, refusing duplicate ids."""
    ordered = sorted(entrants, key=standing_key)
    seen: set[int] = set()
    for entrant in ordered:
        if entrant.id in seen:
            raise PairingError(f"entrant {entrant.id} appears twice")
        seen.add(entrant.id)
    return ordered


def standing_key(entrant: PairingEntrant) -> tuple[int, int]:
    """Standings order: rank, then id so that shared ranks still sort the same way."""
    return (entrant.rank, entrant.id)


@dataclass(frozen=True)
class Meeting:
    """What two entrants' earlier games against each other were."""

    count: int
    last_round: int
    last_starter: int | None


class MeetingHistory:
    """Earlier meetings between the entrants present, read from both sides.

    Each game is normally recorded on both entrants' records; counting per side and
    taking the larger count makes a game recorded on one side only count once too.
    Games against players who are not present are irrelevant and ignored.
    """

    def __init__(self, entrants: Sequence[PairingEntrant]) -> None:
        present = {entrant.id for entrant in entrants}
        per_side: dict[tuple[int, int], list[tuple[int, int | None]]] = {}
        for entrant in entrants:
            for game in entrant.opponents:
                if game.opponent_id not in present or game.opponent_id == entrant.id:
                    continue
                starter = None
                if game.started is not None:
                    starter = entrant.id if game.started else game.opponent_id
                per_side.setdefault((entrant.id, game.opponent_id), []).append(
                    (game.round_number, starter)
                )
        self._meetings: dict[tuple[int, int], Meeting] = {}
        for (own, other), games in per_side.items():
            key = (min(own, other), max(own, other))
            if key in self._meetings:
                continue
            mirror = per_side.get((other, own), [])
            count = max(len(games), len(mirror))
            last_round = max(round_number for round_number, _ in games + mirror)
            # The latest game with a recorded starter decides who starts a return game.
            recorded = sorted(
                (round_number, starter)
                for round_number, starter in games + mirror
                if starter is not None
            )
            last_starter = recorded[-1][1] if recorded else None
            self._meetings[key] = Meeting(count, last_round, last_starter)

    def get(self, a: int, b: int) -> Meeting | None:
        return self._meetings.get((min(a, b), max(a, b)))

    def count(self, a: int, b: int) -> int:
        meeting = self.get(a, b)
        return meeting.count if meeting else 0

    def items(self) -> Iterable[tuple[tuple[int, int], Meeting]]:
        return self._meetings.items()


def choose_bye(
    entrants: Sequence[PairingEntrant],
    *,
    strongest_first: Callable[[PairingEntrant], Any] = standing_key,
    needed: bool | None = None,
) -> PairingEntrant | None:
    """The entrant who gets the bye, or None with an even number present.

    The bye goes to the lowest placed entrant among those with the fewest byes, so no
    one gets a second bye while someone present has had none. ``strongest_first`` is
    the sort key of the placing (default: rank, then id). ``needed`` overrides the
    parity rule (tables of 3 and 4 need a bye only when the sizes leave one out).
    """
    if not entrants or not (len(entrants) % 2 == 1 if needed is None else needed):
        return None
    fewest = min(entrant.byes for entrant in entrants)
    candidates = [entrant for entrant in entrants if entrant.byes == fewest]
    return max(candidates, key=strongest_first)


def bye_params(
    entrants: Sequence[PairingEntrant],
    bye: int | None,
    *,
    strongest_first: Callable[[PairingEntrant], Any] = standing_key,
) -> dict[str, ExplanationValue]:
    """Who got the bye and by which part of the ``choose_bye`` rule, for an explanation:
    "lowest_placed" (nobody present had one, or the lowest placed had no more than the
    rest), "lowest_without_bye" (someone placed lower already had one), "fewest_byes"
    (everyone present had one: the lowest placed of those with the fewest)."""
    if bye is None:
        return {"bye_to": None, "bye_reason": None}
    lowest = max(entrants, key=strongest_first)
    if min(entrant.byes for entrant in entrants) > 0:
        reason = "fewest_byes"
    elif lowest.id == bye:
        reason = "lowest_placed"
    else:
        reason = "lowest_without_bye"
    return {"bye_to": bye, "bye_reason": reason}


def repeats_in(games: Iterable[tuple[int, int]], history: MeetingHistory) -> int:
    """How many of ``games`` are between two who met before."""
    return sum(1 for a, b in games if history.count(a, b))


def table_order(
    games: Iterable[tuple[int, int]], position: dict[int, int]
) -> list[tuple[int, int]]:
    """Put each game's higher placed player first and sort the games into table order
    (tables 1.. by the higher placed player's position; ``position`` maps id to place,
    0 = top, in the system's own order).
    """
    placed = [(a, b) if position[a] <= position[b] else (b, a) for a, b in games]
    return sorted(placed, key=lambda game: position[game[0]])


def build_pairs(
    ordered_games: Sequence[tuple[int, int]],
    starters: Sequence[int | None],
    by_id: dict[int, PairingEntrant],
    history: MeetingHistory,
) -> tuple[Pair, ...]:
    """Turn games already in ``table_order`` into numbered tables with their gaps and
    meeting history.
    """
    pairs = []
    for table, ((a, b), starter) in enumerate(zip(ordered_games, starters, strict=True), 1):
        meeting = history.get(a, b)
        pairs.append(
            Pair(
                table=table,
                player_a=a,
                player_b=b,
                starter=starter,
                match_point_gap=abs(by_id[a].match_points - by_id[b].match_points),
                board_point_gap=abs(by_id[a].board_points - by_id[b].board_points),
                meetings=meeting.count if meeting else 0,
                last_met_round=meeting.last_round if meeting else None,
            )
        )
    return tuple(pairs)
