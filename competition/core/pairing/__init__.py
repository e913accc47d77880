"""Pairing engines: pure functions from entrant records to a round's pairing.

Swiss (one maximum-weight matching), round robin (Berger tables), King of the Hill,
random, and a first round by rating or seed; who starts; who gets the bye. The Django
adapter in ``competition`` turns ORM rows into ``PairingEntrant`` records and the
returned ``Pairing`` back into a round. This package must never import Django, the
ORM or another app of the project. See docs/pairing.md.
"""

from .common import MeetingHistory, choose_bye
from .dispatch import SYSTEMS, pair
from .records import CriterionTotal, Pair, Pairing, PairingEntrant, PairingError, PastGame
from .round_robin import RoundRobinRound, round_robin_round, round_robin_schedule, rounds_needed
from .simple import RATING_METHODS, by_rating, king_of_the_hill, random_pairing, round_robin
from .starters import STARTER_MODES, assign_starters, starter_preference
from .swiss import CRITERIA, DEFAULT_WINDOW, SwissWeights, swiss

__all__ = [
    "CRITERIA",
    "DEFAULT_WINDOW",
    "RATING_METHODS",
    "STARTER_MODES",
    "SYSTEMS",
    "CriterionTotal",
    "MeetingHistory",
    "Pair",
    "Pairing",
    "PairingEntrant",
    "PairingError",
    "PastGame",
    "RoundRobinRound",
    "SwissWeights",
    "assign_starters",
    "by_rating",
    "choose_bye",
    "king_of_the_hill",
    "pair",
    "random_pairing",
    "round_robin",
    "round_robin_round",
    "round_robin_schedule",
    "rounds_needed",
    "starter_preference",
    "swiss",
]
