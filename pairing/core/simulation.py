"""A tiny in-memory competition for tests, benchmarks and demo data: it keeps each
player's totals and history, hands out ``PairingEntrant`` records for whoever is
present and plays a ``Pairing`` (or a ``TablePairing`` of tables of 2 to 4) with
seeded random scores.

Not used by the engines themselves. Pure Python; this module must never import
Django, the ORM or another app.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from .records import Pairing, PairingEntrant, PastGame, PastTable, TablePairing

__all__ = ["Ledger"]


@dataclass
class _Record:
    id: int
    strength: int
    match_points: int = 0
    board_points: int = 0
    byes: int = 0
    starts: int = 0
    games: int = 0
    recent_starts: list[bool] = field(default_factory=list)
    opponents: list[PastGame] = field(default_factory=list)


class Ledger:
    """Players' standings and history over simulated rounds (2/1/0 match points;
    a bye scores a win and no board points).
    """

    def __init__(self, player_ids: Iterable[int], *, seed: int) -> None:
        self.random = random.Random(seed)
        self.records: dict[int, _Record] = {}
        self.tables: list[PastTable] = []
        for player_id in player_ids:
            self.add(player_id)

    def add(self, player_id: int) -> None:
        """A (late) entrant joins with no points."""
        self.records[player_id] = _Record(player_id, strength=self.random.randint(0, 120))

    def ranking(self) -> list[int]:
        return sorted(
            self.records,
            key=lambda pid: (-self.records[pid].match_points, -self.records[pid].board_points, pid),
        )

    def entrants(self, present: Iterable[int] | None = None) -> list[PairingEntrant]:
        """Records of the players present (default: everyone), ranked by the standings."""
        rank = {pid: place for place, pid in enumerate(self.ranking(), start=1)}
        chosen = self.records if present is None else present
        return [self._entrant(self.records[pid], rank[pid]) for pid in chosen]

    def _entrant(self, record: _Record, rank: int) -> PairingEntrant:
        return PairingEntrant(
            id=record.id,
            rank=rank,
            match_points=record.match_points,
            board_points=record.board_points,
            byes=record.byes,
            starts=record.starts,
            games=record.games,
            recent_starts=tuple(record.recent_starts[-6:]),
            opponents=tuple(record.opponents),
        )

    def play(self, pairing: Pairing, round_number: int) -> None:
        """Play every table with random scores; an open starter is drawn by lot."""
        for pair in pairing.pairs:
            a, b = self.records[pair.player_a], self.records[pair.player_b]
            starter = pair.starter
            if starter is None:
                starter = self.random.choice((a.id, b.id))
            score_a = self.random.randint(250, 450) + a.strength
            score_b = self.random.randint(250, 450) + b.strength
            for own, other, own_score, other_score in (
                (a, b, score_a, score_b),
                (b, a, score_b, score_a),
            ):
                started = own.id == starter
                own.board_points += own_score
                own.match_points += 2 if own_score > other_score else own_score == other_score
                own.games += 1
                own.starts += started
                own.recent_starts.append(started)
                own.opponents.append(PastGame(other.id, round_number, started))
        if pairing.bye is not None:
            bye = self.records[pairing.bye]
            bye.byes += 1
            bye.match_points += 2

    def play_tables(self, pairing: TablePairing, round_number: int) -> None:
        """Play every table with random scores, 2/1/0 match points against each
        opponent at the table; an unseated table draws its playing order by lot. The
        tables played are kept in ``self.tables`` as the tables engines' history.
        """
        for table in pairing.tables:
            order = list(table.players)
            if not table.seated:
                self.random.shuffle(order)
            scores = {
                player: self.random.randint(250, 450) + self.records[player].strength
                for player in order
            }
            for seat, player in enumerate(order):
                own = self.records[player]
                own.board_points += scores[player]
                for other in order:
                    if other != player:
                        own.match_points += (
                            2 if scores[player] > scores[other] else scores[player] == scores[other]
                        )
                own.games += 1
                own.starts += seat == 0
                own.recent_starts.append(seat == 0)
            self.tables.append(PastTable(round_number, tuple(order)))
        if pairing.bye is not None:
            bye = self.records[pairing.bye]
            bye.byes += 1
            bye.match_points += 2
