"""A realistic tournament: 7 Swiss rounds, 40 players, a late entrant and a withdrawal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pairing.core import swiss
from pairing.core.simulation import Ledger

LATE_ENTRANT = 41
WITHDRAWN = 7


@pytest.mark.parametrize("starters", ["assigned", "by_lot"])
def test_seven_round_swiss_with_a_late_entrant_and_a_withdrawal(starters):
    ledger = Ledger(range(1, 41), seed=2024)
    absences = random.Random(99)
    meetings: Counter[frozenset[int]] = Counter()
    paired_rounds: dict[int, list[int]] = {}
    for number in range(1, 8):
        if number == 2:
            ledger.add(LATE_ENTRANT)  # joins at the bottom with no points
        present = [pid for pid in ledger.records if not (pid == WITHDRAWN and number > 3)]
        # One or two players miss an evening now and then (not the two watched here).
        present = [
            pid for pid in present if pid in (LATE_ENTRANT, WITHDRAWN) or absences.random() > 0.03
        ]
        entrants = ledger.entrants(present)
        pairing = swiss(entrants, round_number=number, starters=starters)

        assert sorted(pairing.player_ids()) == sorted(present)
        assert len(pairing.player_ids()) == len(set(pairing.player_ids()))
        assert (pairing.bye is not None) == (len(present) % 2 == 1)
        if pairing.bye is not None:
            paired_rounds.setdefault(pairing.bye, []).append(number)
            fewest = min(e.byes for e in entrants)
            assert ledger.records[pairing.bye].byes == fewest
        for pair in pairing.pairs:
            key = frozenset((pair.player_a, pair.player_b))
            assert pair.meetings == meetings[key] == 0  # no repeats in 7 rounds of 40
            meetings[key] += 1
            for pid in key:
                paired_rounds.setdefault(pid, []).append(number)
            assert (pair.starter is None) == (starters == "by_lot")
        ledger.play(pairing, number)

    assert paired_rounds[LATE_ENTRANT] == list(range(2, 8))
    assert paired_rounds[WITHDRAWN] == [1, 2, 3]
    byes = Counter(r.byes for r in ledger.records.values())
    assert max(byes) <= 1  # never a second bye while someone present has none
